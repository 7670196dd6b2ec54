import RetryStormVocabulary

/// tune's objective: a metric whose mean over replications is minimised or, written
/// `max:metric`, maximised — the fleet's (a summary.csv column) or one population's
/// (`populations.NAME.METRIC`, a populations.csv column). Written as text in tune.csv and the
/// scenario's `objective:`.
package struct Objective: Sendable, Equatable, CustomStringConvertible {
    package var metric: Metric
    package var maximize: Bool
    /// The population whose metric it is, nil for the fleet's.
    package var population: String?

    package init(_ metric: Metric, maximize: Bool = false, population: String? = nil) {
        self.metric = metric
        self.maximize = maximize
        self.population = population
    }

    /// `metric`, `min:metric` or `max:metric` (`metric` possibly `populations.NAME.METRIC`); nil
    /// when it names no column of summary.csv (of populations.csv for a population).
    package init?(_ text: String) {
        let (name, maximize) = Self.split(text)
        guard let scoped = ScopedMetric(name), scoped.service == nil else { return nil }
        self.init(scoped.metric, maximize: maximize, population: scoped.population)
    }

    /// Parses `metric`, `min:metric` or `max:metric`, naming the nearest metric when it is misspelt.
    package static func parse(_ text: String, at location: SourceLocation) throws(ScenarioError) -> Objective {
        let (name, maximize) = split(text)
        let scoped = try ScopedMetric.parse(name, at: location, field: "objective")
        if scoped.service != nil {
            throw ScenarioError(
                location, field: "objective",
                "'\(name)': tune's objective is the fleet's or a population's metric; a service's works in gates and constraints")
        }
        return Objective(scoped.metric, maximize: maximize, population: scoped.population)
    }

    static func split(_ text: String) -> (name: String, maximize: Bool) {
        let text = text.trimmingWhitespace()
        if text.hasPrefix("max:") { return (String(text.dropFirst(4)), true) }
        if text.hasPrefix("min:") { return (String(text.dropFirst(4)), false) }
        return (text, false)
    }

    /// What it judges: the metric, of the fleet or of a population.
    package var scoped: ScopedMetric { ScopedMetric(metric, population: population) }

    /// "tts_p99_s", "max:recovered", "populations.new.tts_p99_s": as tune.csv writes it.
    package var description: String { (maximize ? "max:" : "") + scoped.description }
}
