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

    /// Relative luminance in 0…1 as WCAG 2.x defines it: each sRGB channel
    /// c = C/255 is linearised (c/12.92 up to 0.04045, else
    /// ((c + 0.055)/1.055)^2.4) and weighted 0.2126 R + 0.7152 G + 0.0722 B.
    /// (WCAG 2.x prints the threshold as 0.03928, from an older sRGB draft;
    /// no 8-bit channel falls between the two.)
    public var relativeLuminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let c = Double(channel) / 255
            return c <= 0.04045 ? c / 12.92 : DecimalMath.pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2.x contrast ratio with `other`, (L₁ + 0.05) / (L₂ + 0.05) for
    /// the lighter L₁ and darker L₂: 1 (same colour) to 21 (black on white).
    /// Lines and marks need at least 3 (success criterion 1.4.11), text 4.5.
    public func contrastRatio(with other: Color) -> Double {
        let a = relativeLuminance
        let b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    public static let white = Color(hex: 0xFFFFFF)
    public static let black = Color(hex: 0x000000)
}
