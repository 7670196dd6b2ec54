import RetryStormVocabulary

/// A metric of the whole fleet (`METRIC`, a summary.csv column), of one population
/// (`populations.NAME.METRIC`, a populations.csv column) or of one service of a call graph
/// (`services.NAME.METRIC`, a services.csv column): what a gate, a constraint and tune's
/// objective name (an objective: the fleet's or a population's). A population's or service's
/// metric is judged on its own rows (``MetricTable/populations``, ``MetricTable/services``).
package struct ScopedMetric: Sendable, Hashable, CustomStringConvertible {
    package var metric: Metric
    /// The population, nil for the fleet.
    package var population: String?
    /// The service, nil for the fleet (never both a population and a service).
    package var service: String? = nil

    package init(_ metric: Metric, population: String? = nil, service: String? = nil) {
        self.metric = metric
        self.population = population
        self.service = service
    }

    /// The prefix of a population's metric.
    package static let prefix = "populations."
    /// The prefix of a service's metric.
    package static let servicePrefix = "services."

    /// `tts_p99_s`, `populations.new.tts_p99_s` or `services.db.requests_per_operation`: as written.
    package var description: String {
        if let service { return "\(Self.servicePrefix)\(service).\(metric.name)" }
        return population.map { "\(Self.prefix)\($0).\(metric.name)" } ?? metric.name
    }

    /// The file whose rows it is judged on.
    var scope: Metric.Scope { Self.scope(population: population, service: service) }

    static func scope(population: String?, service: String?) -> Metric.Scope {
        service != nil ? .service : population != nil ? .population : .fleet
    }

    /// Reads `METRIC`, `populations.NAME.METRIC` or `services.NAME.METRIC`; nil when the metric is
    /// not a column of the file its scope reads (summary.csv, populations.csv, services.csv).
    package init?(_ text: String) {
        guard let (owner, name) = Self.split(text) else { return nil }
        let scope = Self.scope(population: owner.population, service: owner.service)
        guard let metric = Metric.named(name), metric.scopes.contains(scope) else { return nil }
        self.init(metric, population: owner.population, service: owner.service)
    }

    /// Reads `text`, or throws one line naming the nearest metric of the right file.
    /// - Parameter field: the scenario field, for the error (nil: none).
    package static func parse(_ text: String, at location: SourceLocation, field: String? = nil) throws(ScenarioError) -> ScopedMetric {
        if let scoped = ScopedMetric(text) { return scoped }
        guard let (owner, name) = split(text) else {
            throw ScenarioError(
                location, field: field,
                "'\(text)' is not a metric: write METRIC, \(prefix)NAME.METRIC or \(servicePrefix)NAME.METRIC, e.g. \(prefix)new.gave_up_fraction")
        }
        let scope = Self.scope(population: owner.population, service: owner.service)
        let names = Metric.columns(of: scope).map(\.name)
        let ownerPrefix = owner.service.map { "\(servicePrefix)\($0)." } ?? owner.population.map { "\(prefix)\($0)." } ?? ""
        let hint = Suggest.nearest(name, in: names).map { " Did you mean '\(ownerPrefix)\($0)'?" } ?? ""
        throw ScenarioError(location, field: field, "'\(name)' is not a metric (\(scope.file) column).\(hint)")
    }

    /// (owner, metric name), or nil for `populations.` or `services.` without a name and a metric.
    static func split(_ text: String) -> ((population: String?, service: String?), String)? {
        for (p, isService) in [(prefix, false), (servicePrefix, true)] where text.hasPrefix(p) {
            let rest = text.dropFirst(p.count)
            guard let dot = rest.lastIndex(of: "."), dot != rest.startIndex, rest.index(after: dot) != rest.endIndex else { return nil }
            let owner = String(rest[..<dot])
            return ((isService ? nil : owner, isService ? owner : nil), String(rest[rest.index(after: dot)...]))
        }
        return ((nil, nil), text)
    }

    /// Refuses a service the scenario does not have (one line, with the nearest name).
    package func check(services names: [String], at location: SourceLocation) throws(ScenarioError) {
        try check(service, "service", names, none: "has no call graph (see `services:`)", at: location)
    }

    /// Refuses a population the scenario does not have (one line, with the nearest name).
    package func check(populations names: [String], at location: SourceLocation) throws(ScenarioError) {
        try check(population, "population", names, none: "has no populations (see `populations:`)", at: location)
    }

    /// Refuses `owner` (a `kind` of the scenario) unless it is one of `names`.
    private func check(_ owner: String?, _ kind: String, _ names: [String], none: String, at location: SourceLocation) throws(ScenarioError) {
        guard let owner, !names.contains(owner) else { return }
        if names.isEmpty { throw ScenarioError(location, "'\(description)': this scenario \(none)") }
        let hint = Suggest.nearest(owner, in: names).map { " Did you mean '\($0)'?" } ?? ""
        throw ScenarioError(location, "'\(owner)' is not a \(kind) of this scenario (\(names.joined(separator: ", "))).\(hint)")
    }
}
