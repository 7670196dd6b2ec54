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

    /// Parses tune.json's text; `file` names it in messages.
    /// - Throws: ``RunDirectoryError`` for invalid JSON, an unknown key or a value of the wrong type.
    public static func parse(_ data: Data, file: String) throws(RunDirectoryError) -> TuningChoice {
        let root: JSONValue
        do { root = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            throw RunDirectoryError("\(file): is not valid JSON")
        }
        guard let members = root.members else {
            throw RunDirectoryError("\(file): expected a JSON object with objective, constraints and chosen")
        }
        try known(members, ["objective", "constraints", "chosen"], at: "", file: file)
        var choice = TuningChoice()
        if let o = root["objective"] {
            guard let members = o.members, let metric = o["metric"]?.string else {
                throw RunDirectoryError("\(file): 'objective' must be {\"metric\": NAME, \"goal\": \"min\" | \"max\"}")
            }
            try known(members, ["metric", "goal"], at: "objective.", file: file)
            guard let goal = Goal(rawValue: o["goal"].map { $0.string ?? "" } ?? "min") else {
                throw RunDirectoryError("\(file): 'objective.goal' must be \"min\" or \"max\"")
            }
            choice.objective = (metric, goal)
        }
        if let value = root["constraints"] {
            guard case let .array(list) = value else { throw RunDirectoryError("\(file): 'constraints' must be a list") }
            for (i, c) in list.enumerated() {
                guard let members = c.members, let metric = c["metric"]?.string else {
                    throw RunDirectoryError("\(file): constraints[\(i)] must be {\"metric\": NAME, \"min\": x, \"max\": y}")
                }
                try known(members, ["metric", "min", "max"], at: "constraints[\(i)].", file: file)
                choice.constraints.append(Constraint(
                    metric: metric, min: try number(c["min"], "constraints[\(i)].min", file: file),
                    max: try number(c["max"], "constraints[\(i)].max", file: file)))
            }
        }
        if let c = root["chosen"] {
            guard let members = c.members else { throw RunDirectoryError("\(file): 'chosen' must be an object") }
            try known(members, ["variant", "point"], at: "chosen.", file: file)
            if let variant = c["variant"] {
                guard let name = variant.string else { throw RunDirectoryError("\(file): 'chosen.variant' must be a string") }
                choice.chosenVariant = name
            }
            if let point = c["point"] {
                guard let map = point.members else {
                    throw RunDirectoryError("\(file): 'chosen.point' must map each swept parameter to its value")
                }
                for (key, value) in map {
                    guard let text = value.string else {
                        throw RunDirectoryError("\(file): 'chosen.point.\(key)' must be a string, as written in sweep.csv (e.g. \"250ms\")")
                    }
                    choice.chosenPoint[key] = text
                }
            }
        }
        return choice
    }

    /// Rejects the first unknown key (members come sorted, so the message is stable).
    private static func known(_ members: [(key: String, value: JSONValue)], _ keys: [String], at prefix: String,
                              file: String) throws(RunDirectoryError) {
        if let unknown = members.first(where: { !keys.contains($0.key) }) {
            throw RunDirectoryError("\(file): unknown key '\(prefix)\(unknown.key)' (expected \(keys.joined(separator: ", ")))")
        }
    }

    private static func number(_ value: JSONValue?, _ name: String, file: String) throws(RunDirectoryError) -> Double? {
        guard let value else { return nil }
        guard let n = value.number, n.isFinite else { throw RunDirectoryError("\(file): '\(name)' must be a number") }
        return n
    }
}
