/// Powers, logarithms and rounding in pure Swift, without libm.
///
/// The standard library has no `log10`, and importing Glibc/Darwin would tie
/// the output to each platform's libm, whose last-ulp results differ between
/// machines. These functions use only IEEE-754 `+ - * /` and integer
/// conversion, which are exact or correctly rounded everywhere, so the same
/// input gives the same bytes on every machine. Even `Double.rounded(_:)`
/// is avoided: on Linux it calls libm's `floor`/`round`, which an executable
/// that imports neither Foundation nor Glibc does not link.
package enum DecimalMath {
    /// `10^k` computed by repeated multiplication (exact for `|k| <= 22`).
    ///
    /// Negative powers divide once at the end so `pow10(-3)` is the double
    /// nearest to 0.001, the same value as the literal `0.001`.
    package static func pow10(_ k: Int) -> Double {
        // 10^309 overflows, so very negative powers are taken in two steps.
        if k < -300 { return pow10(k + 300) * pow10(-300) }
        var result = 1.0
        for _ in 0..<min(abs(k), 400) { result *= 10 }
        return k >= 0 ? result : 1 / result
    }

    /// Base-10 logarithm of a positive finite `x`; `-Double.infinity`-free:
    /// non-positive or non-finite inputs return 0 (callers clip before).
    ///
    /// Reduces `x = m * 2^e` with `m` in [1/√2, √2), then sums the series
    /// ln(m) = 2 * atanh((m - 1) / (m + 1)); |z| < 0.172, so 14 terms reach
    /// well below one ulp.
    package static func log10(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return 0 }
        var e = Double(x.exponent)
        var m = x.significand
        if m > 1.4142135623730951 {
            m /= 2
            e += 1
        }
        let z = (m - 1) / (m + 1)
        let z2 = z * z
        var term = z
        var sum = 0.0
        var n = 1.0
        for _ in 0..<14 {
            sum += term / n
            term *= z2
            n += 2
        }
        let ln = 2 * sum + e * 0.6931471805599453
        return ln * 0.4342944819032518
    }

    /// Natural logarithm of a positive finite `x` (0 otherwise), from ``log10(_:)``.
    package static func ln(_ x: Double) -> Double {
        log10(x) * 2.302585092994046
    }

    /// `e^x`; 0 below −745 and +∞ above 709 (the double range).
    ///
    /// Reduces `x = k·ln 2 + r` with |r| ≤ ln 2 / 2 (ln 2 split in a high
    /// part exact in k·ln2_hi and a low part, after Cody & Waite), sums the
    /// Taylor series of `e^r` (22 terms reach below one ulp) and scales by
    /// `2^k` exactly.
    package static func exp(_ x: Double) -> Double {
        guard x.isFinite else { return x > 0 ? x : 0 }
        if x > 709.8 { return .infinity }
        if x < -745.2 { return 0 }
        let k = floor(x / 0.6931471805599453 + 0.5)
        let r = (x - k * 0.6931471803691238) - k * 1.9082149292705877e-10
        var term = 1.0
        var sum = 1.0
        for n in 1...22 {
            term *= r / Double(n)
            sum += term
        }
        // k is within ±1075, so Int(k) cannot trap; scaling by 2 is exact.
        var scale = Int(k)
        while scale > 0 {
            sum *= 2
            scale -= 1
        }
        while scale < 0 {
            sum /= 2
            scale += 1
        }
        return sum
    }

    /// `base^exponent` for a positive `base` (0 for `base` ≤ 0), as
    /// `exp(exponent · ln base)`: within a few ulps, the same on every machine.
    package static func pow(_ base: Double, _ exponent: Double) -> Double {
        guard base > 0 else { return 0 }
        return exp(exponent * ln(base))
    }

    /// Largest integral value ≤ `x`; non-finite `x` is returned unchanged.
    package static func floor(_ x: Double) -> Double {
        // From 2^52 on every double is an integer.
        guard x.isFinite, abs(x) < 4_503_599_627_370_496 else { return x }
        let truncated = Double(Int64(x))
        return truncated > x ? truncated - 1 : truncated
    }

    /// Smallest integral value ≥ `x`; non-finite `x` is returned unchanged.
    package static func ceil(_ x: Double) -> Double {
        let result = -floor(-x)
        return result == 0 ? 0 : result
    }

    /// `x` rounded to the nearest integer, halves away from zero.
    package static func round(_ x: Double) -> Double {
        guard x.isFinite, abs(x) < 4_503_599_627_370_496 else { return x }
        let truncated = Double(Int64(x))
        // Exact: the fractional part of a finite double is representable.
        let fraction = x - truncated
        if fraction >= 0.5 { return truncated + 1 }
        if fraction <= -0.5 { return truncated - 1 }
        return truncated
    }

    /// The integer `k` with `10^k <= x < 10^(k+1)` for positive finite `x`.
    ///
    /// The logarithm gives a first guess; comparisons against exact powers
    /// correct it, so `decade(1000) == 3` despite rounding in `log10`.
    package static func decade(_ x: Double) -> Int {
        guard x > 0, x.isFinite else { return 0 }
        var k = Int(floor(log10(x)))
        while k > -400, pow10(k) > x { k -= 1 }
        while k < 400, pow10(k + 1) <= x { k += 1 }
        return k
    }
}
