/// Number-to-text conversions of the module.
///
/// ``fixed(_:maxFractionDigits:)`` writes SVG coordinates and sizes. The
/// others write numbers people read (tick labels, cell values, legend text)
/// and follow ``HumanNumber``'s rule: rounding on the shortest decimal, ties
/// to even, so a value prints the same here as in a table. Output is
/// byte-identical across machines: no locale, no exponent notation in
/// coordinates, no `-0`.
public enum NumberFormat {
    /// `x` rounded half away from zero to at most `maxFractionDigits`
    /// decimals, trailing zeros removed: `fixed(1.5) == "1.5"`,
    /// `fixed(2.0) == "2"`, `fixed(-0.001) == "0"`, `fixed(1e20) == "100000000000000000000"`.
    ///
    /// For coordinates: rounding applies to the binary value, so
    /// `fixed(1.005)` is "1" (the double nearest 1.005 is below it). Numbers
    /// for people go through ``HumanNumber`` instead. Non-finite input
    /// prints "0". `maxFractionDigits` is clamped to 0...12.
    public static func fixed(_ x: Double, maxFractionDigits: Int = 2) -> String {
        guard x.isFinite else { return "0" }
        let digits = max(0, min(12, maxFractionDigits))
        // From 1e15 on, a double has no meaningful fraction digits to show.
        let fractionDigits = abs(x) >= 1e15 ? 0 : digits
        let scaled = DecimalMath.round(x * DecimalMath.pow10(fractionDigits))
        if scaled == 0 { return "0" }
        var text = integerDigits(abs(scaled))
        if fractionDigits > 0 {
            if text.count <= fractionDigits {
                text = String(repeating: "0", count: fractionDigits - text.count + 1) + text
            }
            var intPart = text
            var fraction = String(intPart.suffix(fractionDigits))
            intPart.removeLast(fractionDigits)
            while fraction.last == "0" { fraction.removeLast() }
            text = fraction.isEmpty ? intPart : intPart + "." + fraction
        }
        return scaled < 0 ? "-" + text : text
    }

    /// A short human label with at most three significant digits and an SI
    /// suffix: `1500 -> "1.5k"`, `2_000_000 -> "2M"`, `0.25 -> "0.25"`,
    /// `0.00005 -> "50µ"`. Non-finite input prints "–".
    ///
    /// Beyond the SI prefixes (from 1e27, below 1e-24) it falls back to
    /// scientific notation with superscript digits, `2.5×10³⁰`, since hundreds
    /// of digits would help nobody.
    public static func compact(_ x: Double) -> String {
        guard x.isFinite else { return "–" }
        if x == 0 { return "0" }
        let magnitude = abs(x)
        if needsScientific(magnitude) { return scientific(x, maxFractionDigits: 2) }
        let exact = DecimalDigits(magnitude)
        let three = HumanNumber(.significant(3), trimsTrailingZeros: true)
        var index = suffixIndex(for: magnitude)
        var scaled = exact.shifted(by: -suffixes[index].exponent)
        // Rounding can carry into the next suffix: 999_999 -> "1M", not "1000k".
        if scaled.rounded(significant: 3).point > 3, index > 0, suffixes[index - 1].scale > suffixes[index].scale {
            index -= 1
            scaled = exact.shifted(by: -suffixes[index].exponent)
        }
        let sign = x < 0 ? "-" : ""
        return sign + three.format(scaled) + suffixes[index].symbol
    }

    /// `m×10ⁿ` with `1 ≤ |m| < 10` and at most `maxFractionDigits` decimals
    /// in `m` (rounded on the shortest decimal, ties to even), e.g.
    /// `scientific(2.5e30) == "2.5×10³⁰"`.
    public static func scientific(_ x: Double, maxFractionDigits: Int = 2) -> String {
        guard x.isFinite else { return "–" }
        if x == 0 { return "0" }
        let rounded = DecimalDigits(x).rounded(significant: 1 + max(0, min(12, maxFractionDigits)))
        let mantissa = DecimalDigits(isNegative: false, digits: rounded.digits, point: 1)
        var text = mantissa.integerPart(grouped: false)
        if mantissa.fractionDigitCount > 0 { text += "." + mantissa.fractionPart(mantissa.fractionDigitCount) }
        return (x < 0 ? "-" : "") + text + "×10" + superscript(rounded.point - 1)
    }

    /// A duration given in seconds, in the largest unit that keeps the value
    /// at or above one, with at most three significant digits:
    /// `0.001 -> "1ms"`, `1.5 -> "1.5s"`, `60 -> "1min"`, `600 -> "10min"`,
    /// `5400 -> "1.5h"`. Non-finite input prints "–".
    ///
    /// For one value on its own (a subtitle, a marker); values that are
    /// compared (an axis, a column, a heatmap) share one unit through
    /// ``UniformFormat``.
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "–" }
        if seconds == 0 { return "0" }
        let magnitude = abs(seconds)
        var unit = DurationUnit.forValue(magnitude)
        var value = unit.digits(magnitude)
        if let next = unit.next, value.rounded(significant: 3).magnitude * unit.seconds >= next.seconds * (1 - 1e-12) {
            unit = next
            value = unit.digits(magnitude)
        }
        let sign = seconds < 0 ? "-" : ""
        return sign + HumanNumber(.significant(3), trimsTrailingZeros: true).format(value) + unit.symbol
    }

    /// A fraction as a percentage with at most `maxFractionDigits` decimals:
    /// `0.25 -> "25%"`, `0.999 -> "99.9%"`. Non-finite input prints "–".
    public static func percent(_ fraction: Double, maxFractionDigits: Int = 1) -> String {
        guard fraction.isFinite else { return "–" }
        let number = HumanNumber(.decimals(maxFractionDigits), trimsTrailingZeros: true)
        return number.format(DecimalDigits(fraction).shifted(by: 2)) + "%"
    }

    // MARK: - Internals shared with tick labelling

    /// Magnitudes outside the SI prefixes this formatter uses.
    package static func needsScientific(_ magnitude: Double) -> Bool {
        magnitude >= 1e27 || (magnitude > 0 && magnitude < 1e-24)
    }

    package static func superscript(_ n: Int) -> String {
        let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        var text = ""
        for c in String(abs(n)) {
            text.append(digits[Int(c.asciiValue! - 48)])
        }
        return n < 0 ? "⁻" + text : text
    }

    package struct Suffix {
        package let scale: Double
        package let exponent: Int
        package let symbol: String
    }

    /// Largest first; `compact` picks the first whose scale fits the value.
    package static let suffixes: [Suffix] = [
        Suffix(scale: 1e24, exponent: 24, symbol: "Y"),
        Suffix(scale: 1e21, exponent: 21, symbol: "Z"),
        Suffix(scale: 1e18, exponent: 18, symbol: "E"),
        Suffix(scale: 1e15, exponent: 15, symbol: "P"),
        Suffix(scale: 1e12, exponent: 12, symbol: "T"),
        Suffix(scale: 1e9, exponent: 9, symbol: "G"),
        Suffix(scale: 1e6, exponent: 6, symbol: "M"),
        Suffix(scale: 1e3, exponent: 3, symbol: "k"),
        // Plain decimals down to 0.0001 read better than "100µ".
        Suffix(scale: 1, exponent: 0, symbol: ""),
        Suffix(scale: 1e-6, exponent: -6, symbol: "µ"),
        Suffix(scale: 1e-9, exponent: -9, symbol: "n"),
        Suffix(scale: 1e-12, exponent: -12, symbol: "p"),
        Suffix(scale: 1e-15, exponent: -15, symbol: "f"),
        Suffix(scale: 1e-18, exponent: -18, symbol: "a"),
        Suffix(scale: 1e-21, exponent: -21, symbol: "z"),
        Suffix(scale: 1e-24, exponent: -24, symbol: "y")
    ]

    package static func suffixIndex(for magnitude: Double) -> Int {
        let plain = suffixes.firstIndex { $0.exponent == 0 } ?? 0
        if magnitude >= 1000 {
            return suffixes.firstIndex { magnitude >= $0.scale } ?? plain
        }
        if magnitude >= 1e-4 || magnitude == 0 { return plain }
        return suffixes.indices.first { $0 > plain && magnitude >= suffixes[$0].scale } ?? suffixes.count - 1
    }

    /// Exact decimal digits of a non-negative integral double of any size.
    ///
    /// Below 2^63 this is `Int64`'s description; above, the double is an
    /// integer `significand * 2^e` and is doubled `e` times in base 1e9 limbs
    /// (no exponent notation, unlike `Double.description`).
    package static func integerDigits(_ value: Double) -> String {
        if value < 9.2e18 { return String(Int64(value)) }
        let exponent = Int(value.exponent) - 52
        var limbs: [UInt64] = []  // little-endian, base 1e9
        var significand = value.significandBitPattern | (1 << 52)
        while significand > 0 {
            limbs.append(significand % 1_000_000_000)
            significand /= 1_000_000_000
        }
        for _ in 0..<max(0, exponent) {
            var carry: UInt64 = 0
            for i in limbs.indices {
                let doubled = limbs[i] * 2 + carry
                limbs[i] = doubled % 1_000_000_000
                carry = doubled / 1_000_000_000
            }
            if carry > 0 { limbs.append(carry) }
        }
        var text = String(limbs.last ?? 0)
        for limb in limbs.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}
