/// A finite double as the shortest decimal that reads back as the same
/// double, with digit-exact rounding: what ``HumanNumber`` rounds.
///
/// The digits come from `Double.description`, which the Swift runtime
/// computes itself (the shortest round-trip digits, SwiftDtoa), with no
/// locale and no C library, so they are the same on every platform. Rounding
/// then works on those decimal digits, never on the binary value: 46.05 is
/// the decimal 46.05 here, although the nearest double is 46.04999…
/// All arithmetic is on small integer arrays, so no double is ever converted
/// to an integer type (nothing can trap, whatever the magnitude).
package struct DecimalDigits: Equatable {
    package var isNegative: Bool
    /// Significant digits, each 0…9, without leading or trailing zeros;
    /// empty for zero.
    package var digits: [UInt8]
    /// The value is `0.d₁d₂d₃… × 10^point`: `point` digits stand before
    /// the decimal point (negative when zeros follow the point first).
    package var point: Int

    package var isZero: Bool { digits.isEmpty }

    /// The shortest round-trip decimal of a finite `x` (non-finite gives zero).
    package init(_ x: Double) {
        isNegative = x.sign == .minus
        digits = []
        point = 0
        guard x.isFinite, x != 0 else { return }
        // `description` is "46.05", "1e-05", "1.2345678901234568e+17", …
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        var seenPoint = false
        var integerDigits = 0
        var raw: [UInt8] = []
        for byte in x.description.utf8 {
            switch byte {
            case UInt8(ascii: "-") where inExponent: exponentSign = -1
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let d = byte - UInt8(ascii: "0")
                if inExponent {
                    exponent = min(10_000, exponent * 10 + Int(d))
                } else {
                    raw.append(d)
                    if !seenPoint { integerDigits += 1 }
                }
            default: break
            }
        }
        var leading = 0
        while leading < raw.count, raw[leading] == 0 { leading += 1 }
        digits = Array(raw[leading...])
        point = integerDigits - leading + exponentSign * exponent
        trimTrailingZeros()
    }

    package init(isNegative: Bool, digits: [UInt8], point: Int) {
        self.isNegative = isNegative
        self.digits = digits
        self.point = point
        trimTrailingZeros()
    }

    /// The same digits times `10^k` (exact: only the point moves).
    package func shifted(by k: Int) -> DecimalDigits {
        DecimalDigits(isNegative: isNegative, digits: digits, point: isZero ? 0 : point + k)
    }

    /// The magnitude as a double, close enough to compare with small
    /// thresholds (60, 1000); not correctly rounded for long digit strings.
    package var magnitude: Double {
        var value = 0.0
        for d in digits.prefix(17) { value = value * 10 + Double(d) }
        let exponent = point - min(17, digits.count)
        return exponent >= 0 ? value * DecimalMath.pow10(exponent) : value / DecimalMath.pow10(-exponent)
    }

    /// Rounded to `decimals` places after the point, ties to the even digit.
    package func rounded(decimals: Int) -> DecimalDigits {
        rounded(keeping: point + decimals)
    }

    /// Rounded to `count` significant digits, ties to the even digit.
    package func rounded(significant count: Int) -> DecimalDigits {
        rounded(keeping: max(1, count))
    }

    /// Keeps the first `keep` digits (the unit of rounding is the place of
    /// digit `keep`), rounding the rest half to even.
    private func rounded(keeping keep: Int) -> DecimalDigits {
        guard !isZero, keep < digits.count else { return self }
        // keep < 0: the value is below a tenth of the rounding unit.
        guard keep >= 0 else { return DecimalDigits(isNegative: isNegative, digits: [], point: 0) }
        let first = digits[keep]
        let restIsZero = digits[(keep + 1)...].allSatisfy { $0 == 0 }
        let lastKept = keep > 0 ? digits[keep - 1] : 0
        let up = first > 5 || (first == 5 && (!restIsZero || lastKept % 2 == 1))
        var kept = Array(digits[..<keep])
        var newPoint = point
        if up {
            var i = kept.count - 1
            while i >= 0, kept[i] == 9 {
                kept[i] = 0
                i -= 1
            }
            if i >= 0 {
                kept[i] += 1
            } else {
                // Carried out of the first digit: 9.96 → 10.0.
                kept.insert(1, at: 0)
                newPoint += 1
            }
        }
        return DecimalDigits(isNegative: isNegative, digits: kept, point: newPoint)
    }

    /// Digits before the point ("0" when there are none), optionally in
    /// groups of three separated by commas.
    package func integerPart(grouped: Bool) -> String {
        guard point > 0 else { return "0" }
        var text = ""
        text.reserveCapacity(point + point / 3)
        for i in 0..<point {
            if grouped, i > 0, (point - i) % 3 == 0 { text.append(",") }
            text.append(character(at: i))
        }
        return text
    }

    /// Exactly `count` digits after the point (zeros beyond the stored digits).
    package func fractionPart(_ count: Int) -> String {
        var text = ""
        for i in 0..<max(0, count) { text.append(character(at: point + i)) }
        return text
    }

    /// Digits after the point that are not trailing zeros.
    package var fractionDigitCount: Int { max(0, digits.count - point) }

    private func character(at index: Int) -> Character {
        let d = index >= 0 && index < digits.count ? digits[index] : 0
        return Character(Unicode.Scalar(UInt8(ascii: "0") + d))
    }

    private mutating func trimTrailingZeros() {
        while digits.last == 0 { digits.removeLast() }
        if digits.isEmpty { point = 0 }
    }
}
