import RetryPolicy

/// The one number format of every deterministic output: fixed decimals, `.` as the point, no
/// exponent, no locale, `nan`/`inf` spelled out. The same value always prints the same bytes.
public enum Format {
    static let powers: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// `x` rounded half-to-even at `decimals` places (0…9).
    public static func fixed(_ x: Double, _ decimals: Int) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x > 0 ? "inf" : "-inf" }
        let scale = powers[decimals]
        let scaled = (x * scale).rounded(.toNearestOrEven)
        guard abs(scaled) < 9.0e18 else {
            // Beyond Int64 after scaling: print the integer part only (no such values in our outputs).
            return String(Int64(clamping: Int64(x.rounded()))) + (decimals > 0 ? "." + String(repeating: "0", count: decimals) : "")
        }
        var n = Int64(scaled)
        let negative = n < 0
        if negative { n = -n }
        let digits = String(n)
        var s: String
        if decimals == 0 {
            s = digits
        } else {
            let padded = digits.count <= decimals ? String(repeating: "0", count: decimals - digits.count + 1) + digits : digits
            let cut = padded.index(padded.endIndex, offsetBy: -decimals)
            s = padded[..<cut] + "." + padded[cut...]
        }
        return negative ? "-" + s : s
    }

    /// A compact human duration: `250ms`, `2s`, `1.5s`, `5m`, `2h`, `1.2µs`.
    public static func duration(_ ns: Nanoseconds) -> String {
        if ns == .max { return "never" }
        let a = abs(ns)
        let (value, unit): (Double, String) =
            a >= 3_600_000_000_000 && a % 60_000_000_000 == 0 && a % 3_600_000_000_000 == 0 ? (Double(ns) / 3.6e12, "h")
            : a >= 60_000_000_000 && a % 60_000_000_000 == 0 ? (Double(ns) / 6e10, "m")
            : a >= 1_000_000_000 ? (Double(ns) / 1e9, "s")
            : a >= 1_000_000 ? (Double(ns) / 1e6, "ms")
            : a >= 1_000 ? (Double(ns) / 1e3, "µs")
            : (Double(ns), "ns")
        return trimmed(fixed(value, 3)) + unit
    }

    /// A number for people: up to `decimals` places, trailing zeros dropped.
    public static func trimmed(_ s: String) -> String {
        guard s.contains(".") else { return s }
        var t = Substring(s)
        while t.hasSuffix("0") { t = t.dropLast() }
        if t.hasSuffix(".") { t = t.dropLast() }
        return String(t)
    }

    /// Thousands separated by commas, for tables: 1234567 → 1,234,567.
    public static func grouped(_ n: Int64) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }
}
