/// Tick placement: "nice" 1-2-5 steps on linear axes, powers of ten on log
/// axes (of the axis's unit on duration axes).
package enum Ticks {
    /// The 1-2-5 step closest (geometrically) to `span / count`, as in d3's
    /// `tickIncrement` (Bostock, d3-array): the raw step's mantissa is
    /// compared against √2, √10 and √50.
    package static func step(span: Double, count: Int) -> TickStep {
        let raw = span / Double(max(1, count))
        guard raw > 0, raw.isFinite else { return TickStep(mantissa: 1, exponent: 0) }
        let exponent = DecimalMath.decade(raw)
        let error = raw / DecimalMath.pow10(exponent)
        if error >= 7.0710678118654755 { return TickStep(mantissa: 1, exponent: exponent + 1) }
        if error >= 3.1622776601683795 { return TickStep(mantissa: 5, exponent: exponent) }
        if error >= 1.4142135623730951 { return TickStep(mantissa: 2, exponent: exponent) }
        return TickStep(mantissa: 1, exponent: exponent)
    }

    /// Extends `lo...hi` outwards to multiples of a 1-2-5 step (only on the
    /// sides that are free), repeating until the step is stable, like d3's
    /// `nice()`. Requires `lo < hi`, both finite.
    package static func nice(
        _ lo: Double, _ hi: Double, count: Int, extendLow: Bool = true, extendHigh: Bool = true
    ) -> (lo: Double, hi: Double, step: TickStep) {
        var low = lo
        var high = hi
        var current = step(span: hi - lo, count: count)
        for _ in 0..<4 {
            let s = current.value
            if extendLow { low = current.tick(DecimalMath.floor(lo / s + epsilon)) }
            if extendHigh { high = current.tick(DecimalMath.ceil(hi / s - epsilon)) }
            let next = step(span: high - low, count: count)
            if next == current { break }
            current = next
        }
        return (low, high, current)
    }

    /// Multiples of `step` inside `lo...hi` (with a relative tolerance, so a
    /// bound that is a multiple up to rounding is included).
    package static func values(_ lo: Double, _ hi: Double, step: TickStep) -> [Double] {
        let s = step.value
        guard s > 0, s.isFinite, lo <= hi else { return [] }
        let first = DecimalMath.ceil(lo / s - epsilon)
        let last = DecimalMath.floor(hi / s + epsilon)
        guard first <= last, last - first < 1000 else { return [] }
        var result: [Double] = []
        var i = first
        while i <= last {
            let v = step.tick(i)
            result.append(v == 0 ? 0 : v)
            i += 1
        }
        return result
    }

    /// Nice ticks covering `lo...hi`: `linear(0, 937, count: 5)` is
    /// `[0, 200, 400, 600, 800, 1000]`.
    package static func linear(_ lo: Double, _ hi: Double, count: Int) -> [Double] {
        let n = nice(lo, hi, count: count)
        return values(n.lo, n.hi, step: n.step)
    }

    /// Powers of ten spanning `lo...hi` (both > 0): `log(0.001, 600)` is
    /// `[0.001, 0.01, 0.1, 1, 10, 100, 1000]`. Always at least two.
    package static func log(_ lo: Double, _ hi: Double) -> [Double] {
        let (a, b) = decadeBounds(lo, hi)
        return (a...b).map { DecimalMath.pow10($0) }
    }

    /// Decade exponents whose powers enclose `lo...hi` (at least one decade).
    package static func decadeBounds(_ lo: Double, _ hi: Double) -> (Int, Int) {
        let a = DecimalMath.decade(lo)
        var b = DecimalMath.decade(hi)
        if DecimalMath.pow10(b) < hi { b += 1 }
        if b <= a { b = a + 1 }
        return (a, b)
    }

    /// Tolerance, in steps, for values that are multiples up to rounding.
    private static let epsilon = 1e-9
}

/// A labelled tick; an empty label draws the gridline only.
package struct Tick: Equatable {
    package var value: Double
    package var label: String
}

/// A tick interval `mantissa × 10^exponent` with mantissa 1, 2 or 5.
///
/// Kept in this exact form (not as a Double) so tick values and label
/// precision derive from integers: 3 × 0.1 would print 0.30000000000000004.
package struct TickStep: Equatable {
    package var mantissa: Int
    package var exponent: Int

    package init(mantissa: Int, exponent: Int) {
        self.mantissa = mantissa
        self.exponent = exponent
    }

    package var value: Double { Double(mantissa) * DecimalMath.pow10(exponent) }

    /// The tick `index × step`, computed as an integer times a power of ten
    /// (dividing for negative powers) so it is the double nearest the
    /// decimal value: index 3 of 0.1 is exactly `0.3`.
    package func tick(_ index: Double) -> Double {
        let units = index * Double(mantissa)
        return exponent >= 0 ? units * DecimalMath.pow10(exponent) : units / DecimalMath.pow10(-exponent)
    }
}
