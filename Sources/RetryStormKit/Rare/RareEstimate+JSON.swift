import Foundation

extension RareEstimate {
    /// `rare.json`: keys sorted. `estimate`, `low` and `high` are seconds for `collapse` and a
    /// probability for `stuck` (`unit` says which); a collapse no branch reached has a null
    /// `estimate` and `high` and a `low` bound. `levels` lists each level's backlog with the
    /// branches started towards it and those that reached it; for `stuck` each level is a
    /// checkpoint at `time_s` (seconds), its `backlog` the particles' mean there and `reached` the
    /// distinct particles resampling kept. `cycle_s` (collapse only) is the mean excursion from an
    /// empty server and back, seconds: the estimate is `cycle_s` over the batches' mean chance that
    /// an excursion reaches the collapse backlog.
    package func json(scenario: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Document(e: self, scenario: scenario))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    struct Document: Encodable {
        let e: RareEstimate
        let scenario: String

        struct LevelDocument: Encodable {
            let backlog: Int
            let branches: Int
            let reached: Int
            let probability: Double
            /// Seconds; encoded only when set (a `stuck` checkpoint).
            let time: Double?

            enum CodingKeys: String, CodingKey {
                case backlog, branches, reached, probability
                case time = "time_s"
            }
        }

        enum CodingKeys: String, CodingKey {
            case scenario, event, unit, estimate, low, high, method, levels, effort
            case eventsSimulated = "events_simulated"
            case plainEvents = "plain_monte_carlo_events"
            case speedup
            case threshold = "threshold_backlog"
            case cycle = "cycle_s"
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(scenario, forKey: .scenario)
            try c.encode(e.event.rawValue, forKey: .event)
            try c.encode(e.event == .collapse ? "s" : "probability", forKey: .unit)
            // A finite figure, else null (an interval without an upper end).
            func number(_ x: Double) -> Double? { x.isFinite ? x : nil }
            try c.encode(number(e.estimate), forKey: .estimate)
            try c.encode(number(e.low), forKey: .low)
            try c.encode(number(e.high), forKey: .high)
            try c.encode(e.method, forKey: .method)
            try c.encode(
                e.levels.map {
                    LevelDocument(backlog: $0.backlog, branches: $0.branches, reached: $0.reached, probability: $0.probability, time: $0.time)
                },
                forKey: .levels)
            try c.encode(e.effort, forKey: .effort)
            try c.encode(e.eventsSimulated, forKey: .eventsSimulated)
            try c.encode(e.threshold, forKey: .threshold)
            try c.encode(e.plainEvents.map { $0.rounded() }, forKey: .plainEvents)
            try c.encode(e.speedup, forKey: .speedup)
            if e.event == .collapse { try c.encode(number(e.base), forKey: .cycle) }
        }
    }

    /// The terminal's lines: the estimate, its interval, and how it was reached.
    package func text(scenario: String) -> String {
        let what: String
        switch event {
        case .collapse where !estimate.isFinite:
            what =
                "mean time to collapse (backlog \(threshold) = capacity × timeout) from a healthy start: "
                + "more than \(Self.duration(low)) (no branch reached it)"
        case .collapse:
            what =
                "mean time to collapse (backlog \(threshold) = capacity × timeout) from a healthy start: "
                + "\(Self.duration(estimate)) (95%: \(Self.duration(low)) … \(Self.duration(high)))"
        case .stuck:
            what = "P(stuck) after the trigger: \(Self.probability(estimate)) (95%: \(Self.probability(low)) … \(Self.probability(high)))"
        }
        let ladder = levels.map { "\($0.backlog)" }.joined(separator: " → ")
        let plain =
            plainEvents.map { String(format: " (plain Monte Carlo: about %.2g for the same interval, %.2g times more)", $0, speedup ?? 0) } ?? ""
        return "\(scenario): \(what)\n  \(method); levels \(ladder); \(eventsSimulated) events\(plain)\n"
    }

    /// Seconds, with the largest unit that reads well beside them.
    static func duration(_ s: Double) -> String {
        guard s.isFinite else { return "∞" }
        let seconds = String(format: "%.3g s", s)
        let year = 365.25 * 86_400
        if s >= year { return seconds + String(format: " (%.3g years)", s / year) }
        if s >= 86_400 { return seconds + String(format: " (%.3g days)", s / 86_400) }
        if s >= 3_600 { return seconds + String(format: " (%.3g h)", s / 3_600) }
        return seconds
    }

    static func probability(_ p: Double) -> String { p == 0 ? "0" : String(format: "%.3g", p) }
}
