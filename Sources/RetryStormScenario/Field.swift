import RetryPolicy
import RetryStormEngine
import RetryStormVocabulary
import Yams

/// One key of the scenario format: its dotted path, type, default and meaning, and how it sets
/// the draft. The schema is the single source of the parser, `--set`, the docs and the JSON Schema.
package struct Field: Sendable {
    package let path: String
    package let kind: FieldKind
    /// The default, written as a user would write it.
    let defaultText: String
    let doc: String
    let apply: @Sendable (inout ScenarioDraft, FieldValue) -> Void

    init(
        _ path: String, _ kind: FieldKind, _ defaultText: String, _ doc: String,
        _ apply: @escaping @Sendable (inout ScenarioDraft, FieldValue) -> Void
    ) {
        self.path = path
        self.kind = kind
        self.defaultText = defaultText
        self.doc = doc
        self.apply = apply
    }

    /// A field whose value is stored at `target` as parsed (`value` reads it from the parsed value).
    init<T>(
        _ path: String, _ kind: FieldKind, _ defaultText: String, _ doc: String,
        _ target: WritableKeyPath<ScenarioDraft, T> & Sendable, _ value: KeyPath<FieldValue, T> & Sendable
    ) {
        self.init(path, kind, defaultText, doc) { d, v in d[keyPath: target] = v[keyPath: value] }
    }

    /// A field whose value is stored at `target`, an optional where nil means not set.
    init<T>(
        _ path: String, _ kind: FieldKind, _ defaultText: String, _ doc: String,
        _ target: WritableKeyPath<ScenarioDraft, T?> & Sendable, _ value: KeyPath<FieldValue, T> & Sendable
    ) {
        self.init(path, kind, defaultText, doc) { d, v in d[keyPath: target] = v[keyPath: value] }
    }

    /// This field under another path (a population's or a service's key), keeping its kind,
    /// default, meaning and setter.
    func scoped(to path: String) -> Field { Field(path, kind, defaultText, doc, apply) }

    /// Parses and range-checks `text`.
    package func parse(_ text: String) throws(Units.Invalid) -> FieldValue {
        switch kind {
        case .integer(let lo, let hi, let allowsNone):
            if allowsNone && ["none", "unlimited"].contains(text.trimmingWhitespace().lowercased()) { return .integer(nil) }
            return .integer(try Units.integer(text, in: lo...hi))
        case .number(let lo, let hi):
            let v = try Units.number(text)
            guard v >= lo else { throw .init(message: "must be at least \(FieldKind.show(lo)) (got \(text))") }
            guard v <= hi else { throw .init(message: "must be at most \(FieldKind.show(hi)) (got \(text))") }
            return .number(v)
        case .fraction:
            return .number(try Units.fraction(text))
        case .duration(let lo, let hi, let allowsNone):
            let t = text.trimmingWhitespace().lowercased()
            if allowsNone && (t == "none" || t == "never" || t == "unlimited") { return .duration(nil) }
            let v = try Units.duration(text)
            guard v >= lo else { throw .init(message: "must be at least \(Format.duration(lo)) (got \(text))") }
            guard v <= hi else { throw .init(message: "must be at most \(Format.duration(hi)) (got \(text))") }
            return .duration(v)
        case .delayOrPercentile(let hi):
            let t = text.trimmingWhitespace().lowercased()
            if t == "none" { return .duration(nil) }
            if t.hasPrefix("p") { return .percentile(try Self.percentile(t)) }
            let v: Nanoseconds
            do { v = try Units.duration(text) } catch {
                guard error.message.hasPrefix("expected") else { throw error }
                throw .init(message: "expected none, a duration such as 50ms or a percentile such as p95 (got '\(text)')")
            }
            guard v <= hi else { throw .init(message: "must be at most \(Format.duration(hi)) (got \(text))") }
            return .duration(v)
        case .rate(let lo, let hi, let allowsNone):
            if allowsNone && ["none", "unlimited"].contains(text.trimmingWhitespace().lowercased()) { return .duration(nil) }
            let v = try Units.rate(text)
            guard v > lo || (lo == 0 && v == 0) else { throw .init(message: "must be more than \(FieldKind.show(lo))/s (got \(text))") }
            guard v <= hi else { throw .init(message: "must be at most \(FieldKind.show(hi))/s (got \(text))") }
            return .number(v)
        case .choice(let options):
            let t = text.trimmingWhitespace()
            guard options.contains(t) else {
                let hint = Suggest.nearest(t, in: options).map { " Did you mean '\($0)'?" } ?? ""
                throw .init(message: "must be one of \(options.joined(separator: ", ")) (got '\(text)').\(hint)")
            }
            return .text(t)
        case .boolean:
            return .boolean(try Units.boolean(text))
        case .text:
            // Names and descriptions reach terminals, file titles and reports: no control characters
            // (a line break or tab inside a description is fine).
            if let bad = text.unicodeScalars.first(where: { MessageText.needsEscape($0) && $0 != "\n" && $0 != "\t" }) {
                throw .init(message: "contains the control character \(MessageText.escaped(String(bad))): write plain text")
            }
            return .text(text)
        case .points:
            return .points(try Self.points(text))
        case .file:
            let t = text.trimmingWhitespace()
            guard !t.isEmpty else { throw .init(message: "needs a file path") }
            if let bad = t.unicodeScalars.first(where: { MessageText.needsEscape($0) }) {
                throw .init(message: "contains the control character \(MessageText.escaped(String(bad))): write a plain path")
            }
            return .text(t)
        }
    }
}

extension Field {
    /// `p95` → 0.95, `p99.9` → 0.999, `p5` → 0.05: the quantile a percentile names, read as the
    /// decimal it is (no division, so `p99.9` is exactly the `Double` 0.999); 0 < NN < 100.
    static func percentile(_ text: String) throws(Units.Invalid) -> Double {
        let parts = text.dropFirst().split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (s: Substring) in !s.isEmpty && s.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
        guard parts.allSatisfy(isDigits) else {
            throw .init(message: "expected a percentile such as p95, p99 or p99.9 (got '\(text)')")
        }
        let whole = parts[0].drop { $0 == "0" }
        let fraction = parts.count == 2 ? parts[1] : ""
        let q = whole.count <= 2 ? Double("0." + String(repeating: "0", count: 2 - whole.count) + whole + fraction) ?? 0 : 1
        guard q > 0, q < 1 else { throw .init(message: "must be more than p0 and less than p100 (got '\(text)')") }
        return q
    }

    /// Reads `[[0s, 1], [20s, 2], …]` (YAML flow or block lists; an empty list is a flat profile).
    static func points(_ text: String) throws(Units.Invalid) -> [LoadProfile.Point] {
        if text.trimmingWhitespace().lowercased() == "none" { return [] }
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            throw .init(message: "is not a list of [time, multiplier] pairs, e.g. [[0s, 1], [20s, 2], [25s, 1]]")
        }
        guard case .sequence(let items)? = node else {
            throw .init(message: "expects a list of [time, multiplier] pairs, e.g. [[0s, 1], [20s, 2], [25s, 1]]")
        }
        guard items.count <= maxPoints else { throw .init(message: "has \(items.count) points; at most \(maxPoints)") }
        var out: [LoadProfile.Point] = []
        for (i, item) in items.enumerated() {
            let n = i + 1
            guard case .sequence(let pair) = item, pair.count == 2,
                case .scalar(let timeText) = pair[0], case .scalar(let valueText) = pair[1]
            else {
                throw .init(message: "point \(n) is not a [time, multiplier] pair")
            }
            let time: Nanoseconds
            let multiplier: Double
            do { time = try Units.duration(timeText.string) } catch {
                throw .init(message: "point \(n), time: \(error.message)")
            }
            do { multiplier = try Units.number(valueText.string) } catch {
                throw .init(message: "point \(n), multiplier: \(error.message)")
            }
            out.append(LoadProfile.Point(time: time, multiplier: multiplier))
        }
        try checkPoints(out) { n, message throws(Units.Invalid) in throw .init(message: "point \(n): \(message)") }
        return out
    }

    /// The most points of a profile or a CSV file.
    static let maxPoints = 10_000_000

    /// Checks what a load or capacity curve needs, calling `fail` with the 1-based point and the
    /// problem: times from 0 to 30 days, not decreasing, each at most twice (a step); values
    /// finite and not negative.
    static func checkPoints<E: Error>(
        _ points: [LoadProfile.Point], value: String = "multiplier",
        fail: (Int, String) throws(E) -> Void
    ) throws(E) {
        for (i, p) in points.enumerated() {
            if p.time < 0 || p.time > ScenarioSchema.maxHorizon {
                try fail(i + 1, "time \(Format.duration(p.time)) is outside 0…\(Format.duration(ScenarioSchema.maxHorizon))")
            }
            if !p.multiplier.isFinite || p.multiplier < 0 {
                try fail(i + 1, "\(value) must be a number ≥ 0 (got \(p.multiplier))")
            }
            if i > 0 && p.time < points[i - 1].time {
                try fail(
                    i + 1,
                    "time \(Format.duration(p.time)) comes before the previous point's \(Format.duration(points[i - 1].time)): times must increase")
            }
            if i > 1 && p.time == points[i - 1].time && p.time == points[i - 2].time {
                try fail(i + 1, "time \(Format.duration(p.time)) appears a third time: a time may repeat once (a step)")
            }
        }
    }
}
