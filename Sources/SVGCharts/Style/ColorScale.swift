/// A sequential, colour-blind-safe colour scale (viridis) for heatmaps.
///
/// Viridis (van der Walt & Smith, matplotlib 2.0) is perceptually uniform
/// and readable in greyscale. It is stored as eleven samples at
/// t = 0, 0.1, …, 1 (matplotlib's `viridis(t)` rounded to 8 bits) and
/// interpolated linearly per channel, so the same `t` gives the same colour
/// on every machine.
public enum ColorScale {
    public static let viridisStops: [Color] = [
        Color(hex: 0x440154), Color(hex: 0x482475), Color(hex: 0x414487), Color(hex: 0x355F8D),
        Color(hex: 0x2A788E), Color(hex: 0x21918C), Color(hex: 0x22A884), Color(hex: 0x44BF70),
        Color(hex: 0x7AD151), Color(hex: 0xBDDF26), Color(hex: 0xFDE725)
    ]

    /// Viridis at `t` in 0...1 (clamped; non-finite maps to 0): dark purple
    /// at 0, teal at 0.5, yellow at 1. Channels round half away from zero.
    public static func viridis(_ t: Double) -> Color {
        let clamped = t.isFinite ? min(1, max(0, t)) : 0
        let position = clamped * Double(viridisStops.count - 1)
        let lower = min(viridisStops.count - 2, Int(DecimalMath.floor(position)))
        let fraction = position - Double(lower)
        let a = viridisStops[lower]
        let b = viridisStops[lower + 1]
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 {
            let value = Double(x) + (Double(y) - Double(x)) * fraction
            return UInt8(min(255, max(0, DecimalMath.round(value))))
        }
        return Color(red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue))
    }
}
