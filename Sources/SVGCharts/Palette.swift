/// An opaque sRGB colour with 8-bit channels.
public struct Color: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `Color(hex: 0x0072B2)`.
    public init(hex: UInt32) {
        self.init(red: UInt8((hex >> 16) & 0xFF), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF))
    }

    /// Lower-case `#rrggbb`.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for channel in [red, green, blue] {
            text.append(digits[Int(channel >> 4)])
            text.append(digits[Int(channel & 0xF)])
        }
        return text
    }

    /// Relative luminance in 0...1 with a linear approximation of the sRGB
    /// curve; only used to choose black or white text on a cell.
    var approximateLuminance: Double {
        (0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)) / 255
    }
}

/// Series colours and dash patterns.
///
/// Colours follow Okabe & Ito, "Color Universal Design" (2008): eight hues
/// distinguishable under the common forms of colour blindness.
public enum Palette {
    /// Okabe–Ito in their published order: blue, orange, green, purple,
    /// vermillion, sky blue, yellow, black.
    public static let okabeIto: [Color] = [
        Color(hex: 0x0072B2), Color(hex: 0xE69F00), Color(hex: 0x009E73), Color(hex: 0xCC79A7),
        Color(hex: 0xD55E00), Color(hex: 0x56B4E9), Color(hex: 0xF0E442), Color(hex: 0x000000),
    ]

    /// Dash patterns (SVG `stroke-dasharray`, in px) used when a chart has
    /// more than four series, so lines differ by more than hue. Empty = solid.
    public static let dashPatterns: [String] = ["", "8 4", "2 3", "10 3 2 3"]

    /// The pattern the user asks for with ``Series/Style/dashed``.
    static let userDash = "7 4"

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
