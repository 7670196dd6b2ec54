import Foundation

extension Explanation {
    /// `explain --json`: keys sorted, every law's figure present, null where its law does not
    /// hold (or is infinite), with a `reason` beside it. Seconds, per-second rates and requests.
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Document(self))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The JSON document; nil figures are written as null rather than left out, so a reader
    /// finds every field.
    struct Document: Encodable {
        let e: Explanation
        init(_ e: Explanation) { self.e = e }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ s: String) { stringValue = s }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// A finite figure, else null.
        static func number(_ x: Double?) -> Double? { x.flatMap { $0.isFinite ? $0 : nil } }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(e.scenario, forKey: Key("scenario"))
            try c.encode(e.warnings, forKey: Key("warnings"))
            var b = c.nestedContainer(keyedBy: Key.self, forKey: Key("budget"))
            try b.encode(e.budget.kind, forKey: Key("kind"))
            try b.encode(Self.number(e.budget.drainFailureRate), forKey: Key("drain_failure_rate"))
            try b.encode(Self.number(e.budget.drainedRetryRate), forKey: Key("drained_retry_rate_per_s"))
            try b.encode(e.budget.note, forKey: Key("note"))
            var list = c.nestedUnkeyedContainer(forKey: Key("services"))
            for s in e.services { try list.encode(ServiceDocument(s: s)) }
        }
    }

    struct ServiceDocument: Encodable {
        let s: Explanation.Service

        func encode(to encoder: Encoder) throws {
            typealias Key = Document.Key
            let number = Document.number
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(s.name, forKey: Key("name"))
            try c.encode(s.reason, forKey: Key("reason"))
            try c.encode(number(s.load), forKey: Key("first_attempt_load_per_s"))
            try c.encode(number(s.capacity), forKey: Key("capacity_per_s"))
            try c.encode(number(s.timeout), forKey: Key("timeout_s"))
            try c.encode(s.attempts, forKey: Key("attempts"))
            var u = c.nestedContainer(keyedBy: Key.self, forKey: Key("sustain"))
            try u.encode(number(s.sustain?.maxFirstAttemptLoad), forKey: Key("max_first_attempt_load_per_s"))
            try u.encode(number(s.sustain?.criticalBacklog), forKey: Key("critical_backlog"))
            try u.encode(number(s.sustain?.slowestRate), forKey: Key("slowest_rate_per_s"))
            try u.encode(s.sustain?.persists, forKey: Key("persists"))
            var t = c.nestedContainer(keyedBy: Key.self, forKey: Key("trigger"))
            try t.encode(s.trigger?.what, forKey: Key("what"))
            try t.encode(number(s.trigger?.duration), forKey: Key("duration_s"))
            try t.encode(number(s.trigger?.criticalDuration), forKey: Key("critical_duration_s"))
            try t.encode(number(s.trigger?.longestTipping), forKey: Key("longest_tipping_duration_s"))
            try t.encode(s.trigger?.tips, forKey: Key("tips"))
            try t.encode(number(s.trigger?.drainTime), forKey: Key("drain_time_s"))
            try t.encode(s.trigger?.timesOut, forKey: Key("times_out"))
            try t.encode(s.trigger.map(\.drainsAfterHorizon), forKey: Key("drains_after_horizon"))
            try t.encode(s.trigger == nil ? s.triggerReason ?? s.reason : nil, forKey: Key("reason"))
            var k = c.nestedContainer(keyedBy: Key.self, forKey: Key("collapse"))
            try k.encode(number(s.collapse?.meanTime), forKey: Key("mean_time_s"))
            try k.encode(s.collapse == nil ? s.collapseReason ?? s.reason : nil, forKey: Key("reason"))
        }
    }
}
