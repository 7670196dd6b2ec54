import RetryStormVocabulary

/// Durations as the two formats write them and as scenario keys take them, converted exactly.
///
/// A `google.protobuf.Duration` in proto3's JSON mapping (what gRPC service configs and Envoy's
/// YAML/JSON use) is seconds with up to nine fractional digits and the suffix `s`: `"0.1s"`,
/// `"1.000340012s"`, `"-2s"`. Both directions are exact to the nanosecond: no floating point.
enum ProtoDuration {
    static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// What a duration's text reads as.
    enum Reading: Equatable {
        /// Nanoseconds, negative or not, at most ``InputBounds/maxDuration`` long.
        case nanoseconds(Int64)
        /// Longer than ``InputBounds/maxDuration`` (`"315576000000s"`, the longest protobuf
        /// Duration, is 10,000 years): no Int64 the engine could add to a time.
        case tooLong(negative: Bool)
    }

    /// `"0.1s"` → 100 000 000; nil when the text is not that form. Whole seconds of any number of
    /// digits are compared with the bound as digits, so no length of text can overflow.
    static func nanoseconds(_ text: String) -> Reading? {
        var t = Substring(text)
        guard t.hasSuffix("s") else { return nil }
        t = t.dropLast()
        let negative = t.hasPrefix("-")
        if negative { t = t.dropFirst() }
        let parts = t.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCII), whole.allSatisfy(\.isNumber) else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                let f = Int64(digits + String(repeating: "0", count: 9 - digits.count))
            else { return nil }
            fraction = f
        }
        let significant = whole.drop { $0 == "0" }
        // Seven digits hold the bound (2,592,000 s); more are longer whatever they are.
        guard significant.count <= 7, let seconds = Int64(significant.isEmpty ? "0" : significant),
            seconds < InputBounds.maxDurationSeconds || (seconds == InputBounds.maxDurationSeconds && fraction == 0)
        else { return .tooLong(negative: negative) }
        let ns = seconds * nanosecondsPerSecond + fraction
        return .nanoseconds(negative ? -ns : ns)
    }

    /// 100 000 000 → `"0.1s"`: whole seconds and the fraction without trailing zeros.
    static func text(_ ns: Int64) -> String {
        let sign = ns < 0 ? "-" : ""
        let a = ns.magnitude
        let seconds = a / UInt64(nanosecondsPerSecond)
        let fraction = a % UInt64(nanosecondsPerSecond)
        guard fraction > 0 else { return "\(sign)\(seconds)s" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(seconds).\(digits)s"
    }

    /// A scenario duration that reads back as exactly `ns`: a whole number of the largest unit
    /// that divides it (`100ms`, `90s`, `2m`, `1500us`).
    static func scenarioText(_ ns: Int64) -> String {
        guard ns != 0 else { return "0s" }
        let units: [(Int64, String)] = [
            (3_600_000_000_000, "h"), (60_000_000_000, "m"), (1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "us"), (1, "ns")
        ]
        for (scale, unit) in units where ns % scale == 0 { return "\(ns / scale)\(unit)" }
        return "\(ns)ns"
    }
}
