import RetryStormVocabulary

/// A metric of the whole fleet (`METRIC`, a summary.csv column) or of one population
/// (`populations.NAME.METRIC`, a populations.csv column): what a gate, a constraint and tune's
/// objective name. A population's metric is judged on that population's rows
/// (``MetricTable/populations``).
package struct ScopedMetric: Sendable, Hashable, CustomStringConvertible {
    package var metric: Metric
    /// The population, nil for the fleet.
    package var population: String?

    package init(_ metric: Metric, population: String? = nil) {
        self.metric = metric
        self.population = population
    }

    /// The prefix of a population's metric.
    package static let prefix = "populations."

    /// `tts_p99_s` or `populations.new.tts_p99_s`: as written.
    package var description: String { population.map { "\(Self.prefix)\($0).\(metric.name)" } ?? metric.name }

    /// Reads `METRIC` or `populations.NAME.METRIC`; nil when the metric is not a column of the file
    /// its scope reads (summary.csv, populations.csv).
    package init?(_ text: String) {
        guard let (population, name) = Self.split(text) else { return nil }
        let scope: Metric.Scope = population == nil ? .fleet : .population
        guard let metric = Metric.named(name), metric.scopes.contains(scope) else { return nil }
        self.init(metric, population: population)
    }

    /// Reads `text`, or throws one line naming the nearest metric of the right file.
    /// - Parameter field: the scenario field, for the error (nil: none).
    package static func parse(_ text: String, at location: SourceLocation, field: String? = nil) throws(ScenarioError) -> ScopedMetric {
        if let scoped = ScopedMetric(text) { return scoped }
        guard let (population, name) = split(text) else {
            throw ScenarioError(
                location, field: field, "'\(text)' is not a metric: write METRIC or \(prefix)NAME.METRIC, e.g. \(prefix)new.gave_up_fraction")
        }
        let scope: Metric.Scope = population == nil ? .fleet : .population
        let names = Metric.columns(of: scope).map(\.name)
        let hint = Suggest.nearest(name, in: names).map { " Did you mean '\(population.map { "\(prefix)\($0)." } ?? "")\($0)'?" } ?? ""
        throw ScenarioError(location, field: field, "'\(name)' is not a metric (\(scope.file) column).\(hint)")
    }

    /// (population, metric name), or nil for `populations.` without a name and a metric.
    static func split(_ text: String) -> (String?, String)? {
        guard text.hasPrefix(prefix) else { return (nil, text) }
        let rest = text.dropFirst(prefix.count)
        guard let dot = rest.lastIndex(of: "."), dot != rest.startIndex, rest.index(after: dot) != rest.endIndex else { return nil }
        return (String(rest[..<dot]), String(rest[rest.index(after: dot)...]))
    }

    /// Refuses a population the scenario does not have (one line, with the nearest name).
    package func check(populations names: [String], at location: SourceLocation) throws(ScenarioError) {
        guard let population, !names.contains(population) else { return }
        if names.isEmpty {
            throw ScenarioError(location, "'\(description)': this scenario has no populations (see `populations:`)")
        }
        let hint = Suggest.nearest(population, in: names).map { " Did you mean '\($0)'?" } ?? ""
        throw ScenarioError(location, "'\(population)' is not a population of this scenario (\(names.joined(separator: ", "))).\(hint)")
    }
}
