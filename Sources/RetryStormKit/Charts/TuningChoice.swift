import Foundation

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
/// Metrics are sweep.csv metric names; a constraint bounds the metric's mean over replications
/// (`min` ≤ mean ≤ `max`, either bound optional). `chosen.point` maps each swept parameter to its
/// value exactly as written in sweep.csv; `chosen.variant` may be left out when the sweep has one
/// variant.
public struct TuningChoice: Sendable, Equatable {
    public enum Goal: String, Sendable {
        case min, max
    }

    public struct Constraint: Sendable, Equatable {
        public var metric: String
        public var min: Double?
        public var max: Double?

        public init(metric: String, min: Double? = nil, max: Double? = nil) {
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

    public var objective: (metric: String, goal: Goal)?
    public var constraints: [Constraint]
    public var chosenVariant: String?
    /// Swept parameter → value as written in sweep.csv; empty when nothing was chosen.
    public var chosenPoint: [String: String]

    public init(objective: (metric: String, goal: Goal)? = nil, constraints: [Constraint] = [],
                chosenVariant: String? = nil, chosenPoint: [String: String] = [:]) {
        self.objective = objective
        self.constraints = constraints
        self.chosenVariant = chosenVariant
        self.chosenPoint = chosenPoint
    }

    public static func == (a: TuningChoice, b: TuningChoice) -> Bool {
        a.objective?.metric == b.objective?.metric && a.objective?.goal == b.objective?.goal
            && a.constraints == b.constraints && a.chosenVariant == b.chosenVariant && a.chosenPoint == b.chosenPoint
    }

    /// Parses tune.json's text (``TuneReport/File``, through `Codable`); `file` names it in messages.
    /// - Throws: ``RunDirectoryError`` for invalid JSON or a value of the wrong type, naming the key.
    public static func parse(_ data: Data, file: String) throws(RunDirectoryError) -> TuningChoice {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let f: TuneReport.File
        do {
            f = try decoder.decode(TuneReport.File.self, from: data)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            if context.codingPath.isEmpty { throw RunDirectoryError("\(file): expected a JSON object with objective, constraints and chosen") }
            // Foundation's own wording differs between platforms: name the key and what it holds.
            throw RunDirectoryError("\(file): '\(path(context))' has the wrong type or no value")
        } catch let DecodingError.keyNotFound(key, context) {
            throw RunDirectoryError("\(file): '\(path(context) + (context.codingPath.isEmpty ? "" : ".") + key.stringValue)' is missing")
        } catch {
            throw RunDirectoryError("\(file): is not valid JSON")
        }
        guard let goal = Goal(rawValue: f.objective.goal ?? "min") else {
            throw RunDirectoryError("\(file): 'objective.goal' must be \"min\" or \"max\"")
        }
        for (i, c) in f.constraints.enumerated() where (c.min.map { !$0.isFinite } ?? false) || (c.max.map { !$0.isFinite } ?? false) {
            throw RunDirectoryError("\(file): 'constraints[\(i)]' bounds must be finite numbers")
        }
        return TuningChoice(objective: (f.objective.metric, goal),
                            constraints: f.constraints.map { Constraint(metric: $0.metric, min: $0.min, max: $0.max) },
                            chosenVariant: f.chosen?.variant, chosenPoint: f.chosen?.point ?? [:])
    }

    static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }
}
