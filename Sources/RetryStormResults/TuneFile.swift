// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The stored properties are tune.json's keys as users and scripts read them (`ci95_low`,
// `runners_up`): snake_case like every other column and key RetryStorm writes.
import Foundation
import GSLSupport
import RetryStormVocabulary

/// tune.json: the objective, the constraints as bounds (the format the sweep heatmaps read,
/// ``TuningChoice``), the chosen point, and the evidence behind it.
public struct TuneFile: Codable, Sendable {
    /// The most bytes of tune.json read (its reader's cap): the recommendation, the runners-up and
    /// constraints are a few KB; the extensions and aliases grow with the points evaluated, a few
    /// hundred bytes each, and a study has at most 100,000 points (about 30 MB).
    public static let maxBytes = 64 << 20

    public struct Objective: Codable, Sendable {
        public var metric: String
        public var goal: String?

        public init(metric: String, goal: String? = nil) {
            self.metric = metric
            self.goal = goal
        }
    }
    public struct Bound: Codable, Sendable {
        public var metric: String
        public var statistic: String?
        public var min: Double?
        public var max: Double?

        public init(metric: String, statistic: String? = nil, min: Double? = nil, max: Double? = nil) {
            self.metric = metric
            self.statistic = statistic
            self.min = min
            self.max = max
        }
    }
    public struct Chosen: Codable, Sendable {
        public var variant: String?
        public var point: [String: String]

        public init(variant: String? = nil, point: [String: String]) {
            self.variant = variant
            self.point = point
        }
    }
    public struct Interval: Codable, Sendable {
        public var mean: Double
        public var ci95_low: Double
        public var ci95_high: Double
        public var replications: Int

        public init(_ ci: ConfidenceInterval) {
            mean = ci.mean
            ci95_low = ci.low
            ci95_high = ci.high
            replications = ci.count
        }
    }
    public struct Difference: Codable, Sendable {
        public var interval: Interval
        public var indistinguishable: Bool

        public init(interval: Interval, indistinguishable: Bool) {
            self.interval = interval
            self.indistinguishable = indistinguishable
        }
    }
    /// A constraint or gate judged at the recommendation. `met` is whether it holds on the value it
    /// judges (`value`: the mean, or the end of the interval it names); `verdict` judges the whole
    /// 95% interval (`interval`): met, not met, or within noise of the bound (``ConstraintVerdict``).
    /// The `confirmed_` keys are the same on the fresh replications. `verdict` and the intervals are
    /// absent from files written before they existed.
    public struct Verdict: Codable, Sendable {
        public var expectation: String
        public var value: Double
        public var met: Bool
        public var confirmed_value: Double?
        public var confirmed_met: Bool?
        public var verdict: ConstraintVerdict?
        public var interval: Interval?
        public var confirmed_verdict: ConstraintVerdict?
        public var confirmed_interval: Interval?

        public init(
            expectation: String, value: Double, met: Bool, confirmed_value: Double? = nil, confirmed_met: Bool? = nil,
            verdict: ConstraintVerdict? = nil, interval: Interval? = nil, confirmed_verdict: ConstraintVerdict? = nil,
            confirmed_interval: Interval? = nil
        ) {
            self.expectation = expectation
            self.value = value
            self.met = met
            self.confirmed_value = confirmed_value
            self.confirmed_met = confirmed_met
            self.verdict = verdict
            self.interval = interval
            self.confirmed_verdict = confirmed_verdict
            self.confirmed_interval = confirmed_interval
        }

        /// The verdict that decides: on the fresh replications when there are any; from `met` alone
        /// for a file written before verdicts existed.
        public var deciding: ConstraintVerdict {
            confirmed_verdict ?? verdict ?? ((confirmed_met ?? met) ? .met : .notMet)
        }
    }
    /// On what the recommendation stands: every constraint met with confidence; met on the mean
    /// only, because no point meets them all with confidence; or the closest point, because no
    /// point meets them even on the mean.
    public enum Basis: String, Codable, Sendable {
        case confident = "met with confidence"
        case mean = "met on the mean only"
        case closest
    }
    /// How the closest point was chosen when none is feasible: the point with the least total
    /// violation of the means, and — when another was chosen over it because their violations are
    /// within noise replication by replication and its objective is better — both paired
    /// differences (chosen − least).
    public struct Closest: Codable, Sendable {
        public var least_violation: String
        public var violation_difference: Difference?
        public var objective_difference: Difference?

        public init(least_violation: String, violation_difference: Difference? = nil, objective_difference: Difference? = nil) {
            self.least_violation = least_violation
            self.violation_difference = violation_difference
            self.objective_difference = objective_difference
        }
    }
    public struct Recommendation: Codable, Sendable {
        public var variant: String
        public var point: [String: String]
        public var feasible: Bool
        public var violation: Double
        public var objective: Interval
        public var confirmed: Interval?
        public var confirmed_replications: [Int]?
        public var constraints: [Verdict]
        /// The release gates (the scenario's `expect:` and `--expect`) judged at the recommendation:
        /// `confirmed_met` on the fresh replications decides, as the exit status does. Absent when
        /// there were none.
        public var gates: [Verdict]?
        /// Absent from files written before it existed.
        public var basis: Basis?
        /// Set when the basis is `closest`.
        public var closest: Closest?

        public init(
            variant: String, point: [String: String], feasible: Bool, violation: Double, objective: Interval, confirmed: Interval? = nil,
            confirmed_replications: [Int]? = nil, constraints: [Verdict], gates: [Verdict]? = nil, basis: Basis? = nil,
            closest: Closest? = nil
        ) {
            self.basis = basis
            self.closest = closest
            self.variant = variant
            self.point = point
            self.feasible = feasible
            self.violation = violation
            self.objective = objective
            self.confirmed = confirmed
            self.confirmed_replications = confirmed_replications
            self.constraints = constraints
            self.gates = gates
        }
    }
    public struct RunnerUp: Codable, Sendable {
        public var variant: String
        public var point: [String: String]
        public var feasible: Bool
        public var objective: Interval
        public var difference_from_recommended: Difference
        public var confirmed_difference: Difference?

        public init(
            variant: String, point: [String: String], feasible: Bool, objective: Interval, difference_from_recommended: Difference,
            confirmed_difference: Difference? = nil
        ) {
            self.variant = variant
            self.point = point
            self.feasible = feasible
            self.objective = objective
            self.difference_from_recommended = difference_from_recommended
            self.confirmed_difference = confirmed_difference
        }
    }
    public struct Extension: Codable, Sendable {
        public var path: String
        public var added: [String]
        public var still_on_edge: String?

        public init(path: String, added: [String], still_on_edge: String? = nil) {
            self.path = path
            self.added = added
            self.still_on_edge = still_on_edge
        }
    }
    public struct Alias: Codable, Sendable {
        public var variant: String
        public var same_as: String

        public init(variant: String, same_as: String) {
            self.variant = variant
            self.same_as = same_as
        }
    }

    public var objective: Objective
    public var constraints: [Bound]
    public var chosen: Chosen?
    // Optional for tune.json files written before they existed.
    public var recommendation: Recommendation?
    public var runners_up: [RunnerUp]?
    public var extensions: [Extension]?
    public var aliases: [Alias]?
    public var evaluated: Int?
    public var replications: Int?

    /// tune.json's text for `file`: sorted keys, numbers as Swift prints them (`nan`, `inf` as
    /// strings); "" for none.
    public init(
        objective: Objective, constraints: [Bound], chosen: Chosen? = nil, recommendation: Recommendation? = nil, runners_up: [RunnerUp]? = nil,
        extensions: [Extension]? = nil, aliases: [Alias]? = nil, evaluated: Int? = nil, replications: Int? = nil
    ) {
        self.objective = objective
        self.constraints = constraints
        self.chosen = chosen
        self.recommendation = recommendation
        self.runners_up = runners_up
        self.extensions = extensions
        self.aliases = aliases
        self.evaluated = evaluated
        self.replications = replications
    }

    public static func json(_ file: TuneFile?) -> String {
        guard let file else { return "" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        // Encoding plain values with the strategy above cannot fail.
        let data = (try? encoder.encode(file)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads tune.json; `file` names it in messages.
    /// - Throws: ``ResultsError`` for invalid JSON, a missing key or a value of the wrong type, naming the key.
    public static func decode(_ data: Data, file: String) throws(ResultsError) -> TuneFile {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try decoder.decode(TuneFile.self, from: data)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            if context.codingPath.isEmpty { throw ResultsError("\(file): expected a JSON object with objective, constraints and chosen") }
            // Foundation's own wording differs between platforms: name the key.
            throw ResultsError("\(file): '\(path(context))' has the wrong type or no value")
        } catch let DecodingError.keyNotFound(key, context) {
            throw ResultsError("\(file): '\(path(context) + (context.codingPath.isEmpty ? "" : ".") + key.stringValue)' is missing")
        } catch {
            throw ResultsError("\(file): is not valid JSON")
        }
    }

    package static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }
}
