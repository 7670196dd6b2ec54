import RetryStormVocabulary

/// tune's objective: a metric whose mean over replications is minimised or, written
/// `max:metric`, maximised. Written as text in tune.csv and the scenario's `objective:`.
public struct Objective: Sendable, Equatable, CustomStringConvertible {
    public var metric: Metric
    public var maximize: Bool

    public init(_ metric: Metric, maximize: Bool = false) {
        self.metric = metric
        self.maximize = maximize
    }

    /// `metric`, `min:metric` or `max:metric`; nil when it names no column of summary.csv.
    public init?(_ text: String) {
        let (name, maximize) = Self.split(text)
        guard let metric = Metric.summaryColumn(named: name) else { return nil }
        self.init(metric, maximize: maximize)
    }

    /// Parses `metric`, `min:metric` or `max:metric`, naming the nearest metric when it is misspelt.
    public static func parse(_ text: String, at location: SourceLocation) throws(ScenarioError) -> Objective {
        let (name, _) = split(text)
        guard let objective = Objective(text) else {
            let names = MetricTable.metrics.map(\.name)
            let hint = Suggest.nearest(name, in: names).map { " Did you mean '\($0)'?" } ?? ""
            throw ScenarioError(location, field: "objective", "'\(name)' is not a metric (summary.csv column).\(hint)")
        }
        return objective
    }

    static func split(_ text: String) -> (name: String, maximize: Bool) {
        let text = text.trimmingWhitespace()
        if text.hasPrefix("max:") { return (String(text.dropFirst(4)), true) }
        if text.hasPrefix("min:") { return (String(text.dropFirst(4)), false) }
        return (text, false)
    }

    /// "tts_p99_s", "max:recovered": as tune.csv writes it.
    public var description: String { (maximize ? "max:" : "") + metric.name }
}
