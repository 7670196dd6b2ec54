/// Series colours and dash patterns.
///
/// Colours follow Okabe & Ito, "Color Universal Design" (2008), in their
/// published order and hue families, adjusted so that every entry reaches
/// WCAG's 3:1 against the white background that lines are drawn on.
public enum Palette {
    /// Okabe–Ito as published: blue, orange, bluish green, reddish purple,
    /// vermillion, sky blue, yellow, black. Orange (2.3:1), sky blue (2.3:1)
    /// and yellow (1.3:1) are too light for lines on white; kept for
    /// reference and for fills.
    public static let okabeItoPublished: [Color] = [
        Color(hex: 0x0072B2), Color(hex: 0xE69F00), Color(hex: 0x009E73), Color(hex: 0xCC79A7),
        Color(hex: 0xD55E00), Color(hex: 0x56B4E9), Color(hex: 0xF0E442), Color(hex: 0x000000)
    ]

    /// The series colours: Okabe–Ito with every entry at least 3:1 on white
    /// (blue 5.2, amber 3.1, bluish green 3.4, pink 3.1, vermillion 4.4,
    /// sky blue 3.1, olive 4.4, black 21).
    ///
    /// Blue, bluish green and black are the published values. Orange, sky
    /// blue and yellow were darkened in OKLCH (hue kept; yellow, which has
    /// no dark form, became olive) until they reached 3:1. Darkening orange
    /// brings it close to reddish purple and vermillion for colour-blind
    /// eyes, so those two were moved (purple to a stronger pink, vermillion
    /// redder). Under simulated protanopia, deuteranopia and tritanopia
    /// (Machado, Oliveira & Fernandes 2009, severity 1) every pair stays at
    /// least 6.0 apart in OKLab ×100 (the published set: 7.6, with three
    /// entries too light). ``okabeIto`` keeps its name and order so that
    /// callers choosing "vermillion" by index still get it.
    public static let okabeIto: [Color] = [
        Color(hex: 0x0072B2), Color(hex: 0xC48700), Color(hex: 0x009E73), Color(hex: 0xF45C9A),
        Color(hex: 0xD8440F), Color(hex: 0x1B99EA), Color(hex: 0x737E3D), Color(hex: 0x000000)
    ]

    /// Dash patterns (SVG `stroke-dasharray`, in px) used when a chart has
    /// more than four series, so lines differ by more than hue. Empty = solid.
    public static let dashPatterns: [String] = ["", "8 4", "2 3", "10 3 2 3"]

    /// The pattern the user asks for with ``Series/Style/dashed``.
    package static let userDash = "7 4"

    /// Colour for the series at `index` (cycles after eight).
    public static func color(at index: Int) -> Color {
        okabeIto[((index % okabeIto.count) + okabeIto.count) % okabeIto.count]
    }

    /// Dash pattern for the series at `index` of `count`: solid up to four
    /// series; beyond, patterns cycle and shift every eight series so that
    /// colour and dash never repeat together before 32 series.
    public static func dash(at index: Int, of count: Int) -> String {
        guard count > 4, index >= 0 else { return "" }
        return dashPatterns[(index + index / okabeIto.count) % dashPatterns.count]
    }
}
