// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The stored properties are tune.json's keys as users and scripts read them (`ci95_low`,
// `runners_up`): snake_case like every other column and key RetryStorm writes.
import Foundation
import GSLSupport
import RetryStormVocabulary

/// tune.json: the objective, the constraints as bounds (the format the sweep heatmaps read,
/// ``TuningChoice``), the chosen point, and the evidence behind it.
package struct TuneFile: Codable, Sendable {
    /// The most bytes of tune.json read (its reader's cap): the recommendation, the runners-up and
    /// constraints are a few KB; the extensions and aliases grow with the points evaluated, a few
    /// hundred bytes each, and a study has at most 100,000 points (about 30 MB).
    package static let maxBytes = 64 << 20

    package struct Objective: Codable, Sendable {
        package var metric: String
        package var goal: String?

        package init(metric: String, goal: String? = nil) {
            self.metric = metric
            self.goal = goal
        }
    }
    package struct Bound: Codable, Sendable {
        package var metric: String
        package var statistic: String?
        package var min: Double?
        package var max: Double?

        package init(metric: String, statistic: String? = nil, min: Double? = nil, max: Double? = nil) {
            self.metric = metric
            self.statistic = statistic
            self.min = min
            self.max = max
        }
    }
    package struct Chosen: Codable, Sendable {
        package var variant: String?
        package var point: [String: String]

        package init(variant: String? = nil, point: [String: String]) {
            self.variant = variant
            self.point = point
        }
    }
    package struct Interval: Codable, Sendable {
        package var mean: Double
        package var ci95_low: Double
        package var ci95_high: Double
        package var replications: Int

        package init(_ ci: ConfidenceInterval) {
            mean = ci.mean
            ci95_low = ci.low
            ci95_high = ci.high
            replications = ci.count
        }
    }
    package struct Difference: Codable, Sendable {
        package var interval: Interval
        package var indistinguishable: Bool

        package init(interval: Interval, indistinguishable: Bool) {
            self.interval = interval
            self.indistinguishable = indistinguishable
        }
    }
    /// A constraint or gate judged at the recommendation. `met` is whether it holds on the value it
    /// judges (`value`: the mean, or the end of the interval it names); `verdict` judges the whole
    /// 95% interval (`interval`): met, not met, or within noise of the bound (``ConstraintVerdict``).
    /// The `confirmed_` keys are the same on the fresh replications. `verdict` and the intervals are
    /// absent from files written before they existed.
    package struct Verdict: Codable, Sendable {
        package var expectation: String
        package var value: Double
        package var met: Bool
        package var confirmed_value: Double?
        package var confirmed_met: Bool?
        package var verdict: ConstraintVerdict?
        package var interval: Interval?
        package var confirmed_verdict: ConstraintVerdict?
        package var confirmed_interval: Interval?

        package init(
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
        package var deciding: ConstraintVerdict {
            confirmed_verdict ?? verdict ?? ((confirmed_met ?? met) ? .met : .notMet)
        }
    }
    /// On what the recommendation stands: every constraint met with confidence; met on the mean
    /// only, because no point meets them all with confidence; or the closest point, because no
    /// point meets them even on the mean.
    package enum Basis: String, Codable, Sendable {
        case confident = "met with confidence"
        case mean = "met on the mean only"
        case closest
    }
    /// How the closest point was chosen when none is feasible: the point with the least total
    /// violation of the means, and — when another was chosen over it because their violations are
    /// within noise replication by replication and its objective is better — both paired
    /// differences (chosen − least).
    package struct Closest: Codable, Sendable {
        package var least_violation: String
        package var violation_difference: Difference?
        package var objective_difference: Difference?

        package init(least_violation: String, violation_difference: Difference? = nil, objective_difference: Difference? = nil) {
            self.least_violation = least_violation
            self.violation_difference = violation_difference
            self.objective_difference = objective_difference
        }
    }
    package struct Recommendation: Codable, Sendable {
        package var variant: String
        package var point: [String: String]
        package var feasible: Bool
        package var violation: Double
        package var objective: Interval
        package var confirmed: Interval?
        package var confirmed_replications: [Int]?
        package var constraints: [Verdict]
        /// The release gates (the scenario's `expect:` and `--expect`) judged at the recommendation:
        /// `confirmed_met` on the fresh replications decides, as the exit status does. Absent when
        /// there were none.
        package var gates: [Verdict]?
        /// Absent from files written before it existed.
        package var basis: Basis?
        /// Set when the basis is `closest`.
        package var closest: Closest?

        package init(
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
    package struct RunnerUp: Codable, Sendable {
        package var variant: String
        package var point: [String: String]
        package var feasible: Bool
        package var objective: Interval
        package var difference_from_recommended: Difference
        package var confirmed_difference: Difference?

        package init(
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
    package struct Extension: Codable, Sendable {
        package var path: String
        package var added: [String]
        package var still_on_edge: String?

        package init(path: String, added: [String], still_on_edge: String? = nil) {
            self.path = path
            self.added = added
            self.still_on_edge = still_on_edge
        }
    }
    package struct Alias: Codable, Sendable {
        package var variant: String
        package var same_as: String

        package init(variant: String, same_as: String) {
            self.variant = variant
            self.same_as = same_as
        }
    }

    package var objective: Objective
    package var constraints: [Bound]
    package var chosen: Chosen?
    // Optional for tune.json files written before they existed.
    package var recommendation: Recommendation?
    package var runners_up: [RunnerUp]?
    package var extensions: [Extension]?
    package var aliases: [Alias]?
    package var evaluated: Int?
    package var replications: Int?

    /// tune.json's text for `file`: sorted keys, numbers as Swift prints them (`nan`, `inf` as
    /// strings); "" for none.
    package init(
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

    package static func json(_ file: TuneFile?) -> String {
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
    package static func decode(_ data: Data, file: String) throws(ResultsError) -> TuneFile {
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
