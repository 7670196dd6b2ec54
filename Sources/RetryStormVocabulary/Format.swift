/// The one number format of every deterministic output: fixed decimals, `.` as the point, no
/// exponent, no locale, `nan`/`inf` spelled out. The same value always prints the same bytes.
package enum Format {
    static let powers: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// `x` rounded half-to-even at `decimals` places (0…9). Total: every double prints, however
    /// large (all of its integer digits, never an exponent) or small.
    package static func fixed(_ x: Double, _ decimals: Int) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x > 0 ? "inf" : "-inf" }
        let decimals = Swift.max(0, Swift.min(9, decimals))
        let scale = powers[decimals]
        let scaled = (x * scale).rounded(.toNearestOrEven)
        // Beyond Int64 after scaling, the digits come from the double's exact binary value.
        guard abs(scaled) < 9.0e18 else { return exact(x, decimals) }
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

    /// The exact decimal expansion of a finite `x` with |x| ≥ 2^33, rounded half-to-even at
    /// `decimals` places. A double m·2^k with m < 2^53 has at most 20 fractional bits at that
    /// size, so the fraction is a 64-bit numerator over 2^bits and the integer part a string of
    /// decimal digits doubled k times.
    static func exact(_ x: Double, _ decimals: Int) -> String {
        let a = abs(x)
        let m = a.significandBitPattern | (1 << 52)
        let shift = Int(a.exponent) - 52
        var integer: [UInt8]
        var fraction: UInt64 = 0
        var bits = 0
        if shift >= 0 {
            integer = Array(String(m).utf8).map { $0 - 48 }
            for _ in 0..<shift { double(&integer) }
        } else {
            bits = Swift.min(-shift, 60)
            integer = Array(String(m >> UInt64(bits)).utf8).map { $0 - 48 }
            fraction = m & ((1 << UInt64(bits)) - 1)
        }
        var digits: [UInt8] = []
        let mask: UInt64 = bits == 0 ? 0 : (1 << UInt64(bits)) - 1
        for _ in 0..<decimals {
            fraction = fraction &* 10
            digits.append(UInt8(fraction >> UInt64(bits)))
            fraction &= mask
        }
        let half: UInt64 = bits == 0 ? 0 : 1 << UInt64(bits - 1)
        let last = digits.last ?? integer.last ?? 0
        if bits > 0 && (fraction > half || (fraction == half && last % 2 == 1)) {
            var all = integer + digits
            var i = all.count - 1
            while i >= 0 {
                if all[i] == 9 {
                    all[i] = 0
                    i -= 1
                } else {
                    all[i] += 1
                    break
                }
            }
            if i < 0 { all.insert(1, at: 0) }
            integer = Array(all.prefix(all.count - digits.count))
            digits = Array(all.suffix(digits.count))
        }
        var s = String(decoding: integer.map { $0 + 48 }, as: UTF8.self)
        if decimals > 0 { s += "." + String(decoding: digits.map { $0 + 48 }, as: UTF8.self) }
        return x < 0 ? "-" + s : s
    }

    /// Doubles a big-endian string of decimal digits in place.
    private static func double(_ digits: inout [UInt8]) {
        var carry: UInt8 = 0
        for i in stride(from: digits.count - 1, through: 0, by: -1) {
            let d = digits[i] * 2 + carry
            digits[i] = d % 10
            carry = d / 10
        }
        if carry > 0 { digits.insert(carry, at: 0) }
    }

    /// A compact human duration of `ns` nanoseconds (the policy library's `Nanoseconds`):
    /// `250ms`, `2s`, `1.5s`, `5m`, `2h`, `1.2µs`; `Int64.max` is `never`.
    package static func duration(_ ns: Int64) -> String {
        if ns == .max { return "never" }
        let a = abs(ns)
        let (value, unit): (Double, String) =
            a >= 3_600_000_000_000 && a % 60_000_000_000 == 0 && a % 3_600_000_000_000 == 0
            ? (Double(ns) / 3.6e12, "h")
            : a >= 60_000_000_000 && a % 60_000_000_000 == 0
                ? (Double(ns) / 6e10, "m")
                : a >= 1_000_000_000
                    ? (Double(ns) / 1e9, "s")
                    : a >= 1_000_000
                        ? (Double(ns) / 1e6, "ms")
                        : a >= 1_000
                            ? (Double(ns) / 1e3, "µs")
                            : (Double(ns), "ns")
        return trimmed(fixed(value, 3)) + unit
    }

    /// A size for people: `228 MiB` below a GiB, `1.7 GiB` from there (binary units).
    package static func bytes(_ b: Double) -> String {
        b < 1_073_741_824 ? fixed(b / 1_048_576, 0) + " MiB" : fixed(b / 1_073_741_824, 1) + " GiB"
    }

    /// A number for people: up to `decimals` places, trailing zeros dropped.
    package static func trimmed(_ s: String) -> String {
        guard s.contains(".") else { return s }
        var t = Substring(s)
        while t.hasSuffix("0") { t = t.dropLast() }
        if t.hasSuffix(".") { t = t.dropLast() }
        return String(t)
    }

    /// Thousands separated by commas, for tables: 1234567 → 1,234,567.
    package static func grouped(_ n: Int64) -> String { group(String(n.magnitude), negative: n < 0) }

    /// `x` rounded half-to-even to a whole number, thousands separated by commas; total for every
    /// double (`nan`, `inf` and `-inf` spelled out, huge values with all their digits).
    package static func grouped(_ x: Double) -> String {
        guard x.isFinite else { return fixed(x, 0) }
        let text = fixed(x, 0)
        let negative = text.hasPrefix("-")
        return group(negative ? String(text.dropFirst()) : text, negative: negative)
    }

    /// A whole count for tables; counts beyond Int64 cannot occur, but the format is total anyway.
    package static func grouped(_ n: Int) -> String { grouped(Int64(n)) }

    private static func group(_ digits: String, negative: Bool) -> String {
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return negative && out != "0" ? "-" + out : out
    }
}
