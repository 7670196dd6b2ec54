/// Durations as the two formats write them and as scenario keys take them, converted exactly.
///
/// A `google.protobuf.Duration` in proto3's JSON mapping (what gRPC service configs and Envoy's
/// YAML/JSON use) is seconds with up to nine fractional digits and the suffix `s`: `"0.1s"`,
/// `"1.000340012s"`, `"-2s"`. Both directions are exact to the nanosecond: no floating point.
enum ProtoDuration {
    static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// `"0.1s"` → 100 000 000; nil when the text is not that form or does not fit in an Int64.
    static func nanoseconds(_ text: String) -> Int64? {
        var t = Substring(text)
        guard t.hasSuffix("s") else { return nil }
        t = t.dropLast()
        let negative = t.hasPrefix("-")
        if negative { t = t.dropFirst() }
        let parts = t.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 12, whole.allSatisfy(\.isASCII), whole.allSatisfy(\.isNumber),
            let seconds = Int64(whole)
        else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                let f = Int64(digits + String(repeating: "0", count: 9 - digits.count))
            else { return nil }
            fraction = f
        }
        let ns = seconds * nanosecondsPerSecond + fraction
        return negative ? -ns : ns
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
