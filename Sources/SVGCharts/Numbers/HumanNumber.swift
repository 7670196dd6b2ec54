/// The one way numbers are written for people, in charts and in tables.
///
/// The rule, so that the same value prints the same everywhere:
/// 1. A finite value is first taken as its shortest round-trip decimal
///    (46.05 is 46.05, `0.1 + 0.2` is 0.30000000000000004), then rounded on
///    that decimal, ties to the even digit: with one decimal 46.05 → "46.0",
///    46.15 → "46.2", 46.25 → "46.2"; with two, 2.675 → "2.68", 0.125 → "0.12".
/// 2. ``Precision/decimals(_:)`` keeps exactly that many places (0…30);
///    ``Precision/significant(_:)`` keeps that many significant digits (1…17),
///    so 0.0012345 → "0.00123" and 98765 → "98800".
/// 3. Trailing zeros are kept ("46.0", "1.50": the precision is part of the
///    value) unless ``trimsTrailingZeros`` ("46", "1.5", for tick labels).
/// 4. Plain notation while the rounded magnitude is below 10¹⁵ (and, for
///    significant digits, at least 10⁻⁴); beyond, `m×10ⁿ` with the same
///    digits: 1e300 → "1×10³⁰⁰", 1e-17 with 3 significant → "1.00×10⁻¹⁷".
///    Below 10⁻⁴ with fixed decimals the value simply rounds: 1e-17 → "0.0".
/// 5. A value that rounds to zero prints without a sign ("0.0", never "-0.0"
///    or "+0.0"); otherwise "-" for negatives and, with ``Sign/always``, "+"
///    for positives (differences: "+46.0").
/// 6. NaN prints "n/a", infinities "∞" and "-∞".
///
/// Every double formats without trapping: the digits are handled as
/// decimal text (``DecimalDigits``), never through `Int(_:)` of a double.
public struct HumanNumber: Sendable, Equatable {
    public enum Precision: Sendable, Equatable {
        /// Places after the decimal point, clamped to 0…30.
        case decimals(Int)
        /// Significant digits, clamped to 1…17 (a double holds about 17).
        case significant(Int)
    }

    public enum Sign: Sendable, Equatable {
        /// "-" for negative values only.
        case negativeOnly
        /// "+" for positive values too, for differences.
        case always
    }

    public var precision: Precision
    public var sign: Sign
    /// Drop zeros at the end of the fraction (and a bare point).
    public var trimsTrailingZeros: Bool
    /// Separate thousands with commas in plain notation: "12,345.6".
    public var groupsThousands: Bool

    public init(
        _ precision: Precision, sign: Sign = .negativeOnly, trimsTrailingZeros: Bool = false,
        groupsThousands: Bool = false
    ) {
        self.precision = precision
        self.sign = sign
        self.trimsTrailingZeros = trimsTrailingZeros
        self.groupsThousands = groupsThousands
    }

    /// Magnitudes from 10¹⁵ on print in scientific notation: a double has no
    /// more than about 16 meaningful digits to show in plain notation.
    package static let plainDigitLimit = 15
    /// Significant-digit values below 10⁻⁴ print in scientific notation.
    package static let smallestPlainPoint = -3

    /// `x` written by the rule above.
    public func format(_ x: Double) -> String {
        if x.isNaN { return "n/a" }
        if x.isInfinite { return x > 0 ? "∞" : "-∞" }
        return format(DecimalDigits(x))
    }

    /// `exact` written by the rule above; callers that scale by a power of
    /// ten (percentages, milliseconds) shift the point instead of
    /// multiplying, so no binary rounding creeps in.
    package func format(_ exact: DecimalDigits) -> String {
        let rounded: DecimalDigits
        var decimals: Int
        var scientific: Bool
        var mantissaDigits: Int
        switch precision {
        case .decimals(let places):
            decimals = min(30, max(0, places))
            rounded = exact.rounded(decimals: decimals)
            scientific = rounded.point > Self.plainDigitLimit
            mantissaDigits = rounded.digits.count
        case .significant(let count):
            let significant = min(17, max(1, count))
            rounded = exact.rounded(significant: significant)
            decimals = max(0, significant - rounded.point)
            scientific = rounded.point > Self.plainDigitLimit || rounded.point < Self.smallestPlainPoint
            mantissaDigits = significant
        }
        if rounded.isZero {
            scientific = false
            if case .significant = precision { decimals = 0 }
        }
        let body: String
        if scientific {
            let shown = trimsTrailingZeros ? rounded.digits.count : max(mantissaDigits, rounded.digits.count)
            let mantissa = DecimalDigits(isNegative: false, digits: rounded.digits, point: 1)
            var text = mantissa.integerPart(grouped: false)
            if shown > 1 { text += "." + mantissa.fractionPart(shown - 1) }
            body = text + "×10" + NumberFormat.superscript(rounded.point - 1)
        } else {
            if trimsTrailingZeros { decimals = min(decimals, rounded.fractionDigitCount) }
            var text = rounded.integerPart(grouped: groupsThousands)
            if decimals > 0 { text += "." + rounded.fractionPart(decimals) }
            body = text
        }
        if rounded.isZero { return body }
        if rounded.isNegative { return "-" + body }
        return sign == .always ? "+" + body : body
    }

    /// `HumanNumber(.decimals(places)).format(x)`.
    public static func format(_ x: Double, decimals places: Int) -> String {
        HumanNumber(.decimals(places)).format(x)
    }

    /// `HumanNumber(.significant(count)).format(x)`.
    public static func format(_ x: Double, significant count: Int) -> String {
        HumanNumber(.significant(count)).format(x)
    }
}
