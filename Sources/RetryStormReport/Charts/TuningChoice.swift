import Foundation
import RetryStormResults
import RetryStormVocabulary

/// tune.json: what a tuner optimised, under which constraints, and the grid point it chose — the
/// marks of the sweep heatmap and the sweep table. Every key is optional:
///
/// ```json
/// {
///   "objective": {"metric": "tts_p99_s", "goal": "min"},
///   "constraints": [{"metric": "peak_load_ratio", "max": 1}, {"metric": "gave_up", "max": 100}],
///   "chosen": {"variant": "base", "point": {"policy.backoff.base": "250ms", "policy.backoff.max": "10s"}}
/// }
/// ```
///
/// Metrics are sweep.csv metric names (``Metric``); a constraint bounds the metric's mean over replications
/// (`min` ≤ mean ≤ `max`, either bound optional). `chosen.point` maps each swept parameter to its
/// value exactly as written in sweep.csv; `chosen.variant` may be left out when the sweep has one
/// variant.
public struct TuningChoice: Sendable, Equatable {
    public enum Goal: String, Sendable {
        case min, max
    }

    public struct Constraint: Sendable, Equatable {
        public var metric: Metric
        public var min: Double?
        public var max: Double?

        public init(metric: Metric, min: Double? = nil, max: Double? = nil) {
            self.metric = metric
            self.min = min
            self.max = max
        }

        /// Whether `value` is within the bounds (a NaN value never is).
        public func admits(_ value: Double) -> Bool {
            guard !value.isNaN else { return false }
            return value >= (min ?? -.infinity) && value <= (max ?? .infinity)
        }
    }

    public var objective: (metric: Metric, goal: Goal)?
    public var constraints: [Constraint]
    public var chosenVariant: String?
    /// Swept parameter → value as written in sweep.csv; empty when nothing was chosen.
    public var chosenPoint: [String: String]
    /// The constraints the sweep charts cannot draw, as written (`services.db.requests_per_operation<=3`):
    /// a population's or a service's, which tune judged all the same. Charts that outline the
    /// cells meeting ``constraints`` say these are not among them.
    public var undrawn: [String] = []

    public init(
        objective: (metric: Metric, goal: Goal)? = nil, constraints: [Constraint] = [],
        chosenVariant: String? = nil, chosenPoint: [String: String] = [:]
    ) {
        self.objective = objective
        self.constraints = constraints
        self.chosenVariant = chosenVariant
        self.chosenPoint = chosenPoint
    }

    public static func == (a: TuningChoice, b: TuningChoice) -> Bool {
        a.objective?.metric == b.objective?.metric && a.objective?.goal == b.objective?.goal
            && a.constraints == b.constraints && a.chosenVariant == b.chosenVariant && a.chosenPoint == b.chosenPoint
            && a.undrawn == b.undrawn
    }

    /// The choice recorded in tune.json.
    /// - Throws: ``ResultsError`` for bounds that are not finite numbers, an unknown goal or a
    ///   name that is not a metric.
    package init(_ f: TuneFile, file: String) throws(ResultsError) {
        guard let goal = Goal(rawValue: f.objective.goal ?? "min") else {
            throw ResultsError("\(file): 'objective.goal' must be \"min\" or \"max\"")
        }
        for (i, c) in f.constraints.enumerated() where (c.min.map { !$0.isFinite } ?? false) || (c.max.map { !$0.isFinite } ?? false) {
            throw ResultsError("\(file): 'constraints[\(i)]' bounds must be finite numbers")
        }
        func metric(_ name: String, _ key: String) throws(ResultsError) -> Metric {
            guard let metric = Metric.summaryColumn(named: name) else {
                throw ResultsError("\(file): '\(key)': '\(name)' is not a metric (summary.csv column)")
            }
            return metric
        }
        var constraints: [Constraint] = []
        for (i, c) in f.constraints.enumerated() {
            constraints.append(Constraint(metric: try metric(c.metric, "constraints[\(i)].metric"), min: c.min, max: c.max))
        }
        // A population's objective (`populations.NAME.METRIC`) is no summary metric the sweep
        // charts could mark: the charts then mark none.
        let population = ScopedMetric(f.objective.metric)?.population != nil
        self.init(
            objective: population ? nil : (try metric(f.objective.metric, "objective.metric"), goal), constraints: constraints,
            chosenVariant: f.chosen?.variant, chosenPoint: f.chosen?.point ?? [:])
        undrawn = (f.recommendation?.constraints ?? []).map(\.expectation).filter {
            $0.hasPrefix("services.") || $0.hasPrefix("populations.")
        }
    }

    /// Parses tune.json's text; `file` names it in messages.
    public static func parse(_ data: Data, file: String) throws(ResultsError) -> TuningChoice {
        try TuningChoice(try TuneFile.decode(data, file: file), file: file)
    }
}
