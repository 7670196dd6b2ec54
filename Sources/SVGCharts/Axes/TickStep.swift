/// A tick interval `mantissa × 10^exponent` with mantissa 1, 2 or 5.
///
/// Kept in this exact form (not as a Double) so tick values and label
/// precision derive from integers: 3 × 0.1 would print 0.30000000000000004.
struct TickStep: Equatable {
    var mantissa: Int
    var exponent: Int

    var value: Double { Double(mantissa) * DecimalMath.pow10(exponent) }

    /// The tick `index × step`, computed as an integer times a power of ten
    /// (dividing for negative powers) so it is the double nearest the
    /// decimal value: index 3 of 0.1 is exactly `0.3`.
    func tick(_ index: Double) -> Double {
        let units = index * Double(mantissa)
        return exponent >= 0 ? units * DecimalMath.pow10(exponent) : units / DecimalMath.pow10(-exponent)
    }
}
