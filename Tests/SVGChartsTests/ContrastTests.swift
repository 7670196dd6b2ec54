import Foundation
import SVGCharts
import Testing

/// Series colours must be visible on the white chart background.
///
/// WCAG 2.x (W3C, "Web Content Accessibility Guidelines 2.1", definitions of
/// *relative luminance* and *contrast ratio*): L = 0.2126 R + 0.7152 G +
/// 0.0722 B over linearised sRGB channels (c/12.92 for c ≤ 0.04045, else
/// ((c + 0.055)/1.055)^2.4, c = channel/255), and the contrast ratio
/// (L₁ + 0.05)/(L₂ + 0.05) with L₁ the lighter. Success criterion 1.4.11
/// (non-text contrast) asks 3:1 for the graphical objects needed to
/// understand content — here, lines and marks.
struct ContrastTests {
    /// The formula written out with Foundation's `pow`, independently of
    /// ``Color/relativeLuminance``.
    static func wcagRatio(_ c: Color, _ d: Color) -> Double {
        func luminance(_ color: Color) -> Double {
            func linear(_ v: UInt8) -> Double {
                let x = Double(v) / 255
                return x <= 0.04045 ? x / 12.92 : Foundation.pow((x + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
        }
        let (a, b) = (luminance(c), luminance(d))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    @Test(arguments: Array(Palette.okabeIto.indices))
    func everySeriesColourHasThreeToOneOnWhite(index: Int) {
        let color = Palette.okabeIto[index]
        let ratio = Self.wcagRatio(color, .white)
        #expect(ratio >= 3, "\(color.hex) is \(ratio):1 on white")
        #expect(abs(color.contrastRatio(with: .white) - ratio) < 1e-12)
    }

    /// Every series colour's ratio on white, computed by the formula above (to three places):
    /// blue 5.185, amber 3.082, bluish green 3.421, pink 3.068, vermillion 4.418, sky blue 3.092,
    /// olive 4.393, black 21. Lines 9–16 reuse these colours (with other dashes), so every line of
    /// a 16-line chart has at least 3:1.
    @Test func everyPaletteEntryRatioOnWhite() {
        let ratios = Palette.okabeIto.map { (Self.wcagRatio($0, .white) * 1000).rounded() / 1000 }
        #expect(ratios == [5.185, 3.082, 3.421, 3.068, 4.418, 3.092, 4.393, 21])
        #expect((0..<16).allSatisfy { Palette.color(at: $0).contrastRatio(with: .white) >= 3 })
    }

    /// The published yellow, orange and sky blue fail: the reason for the change.
    @Test func publishedOkabeItoFailsOnWhite() {
        let failing = Palette.okabeItoPublished.filter { Self.wcagRatio($0, .white) < 3 }.map(\.hex)
        #expect(failing == ["#e69f00", "#56b4e9", "#f0e442"])
    }

    /// Known values: black on white is 21:1; #767676 is the lightest grey
    /// with 4.5:1 on white (4.54), #777777 just misses it (4.48).
    @Test func luminanceMatchesTheFormula() {
        #expect(abs(Color.black.contrastRatio(with: .white) - 21) < 1e-12)
        #expect(Color.white.contrastRatio(with: .white) == 1)
        #expect(abs(Color(hex: 0x767676).contrastRatio(with: .white) - 4.54) < 0.005)
        #expect(abs(Color(hex: 0x777777).contrastRatio(with: .white) - 4.48) < 0.005)
        for v in stride(from: 0, through: 255, by: 5) {
            let grey = Color(red: UInt8(v), green: UInt8(v), blue: UInt8(v))
            #expect(abs(grey.contrastRatio(with: .white) - Self.wcagRatio(grey, .white)) < 1e-12, "\(v)")
        }
        for x in [-3.0, -0.5, 0, 0.1, 1, 2.4, 10, 700] {
            #expect(abs(DecimalMath.exp(x) / Foundation.exp(x) - 1) < 1e-14, "\(x)")
        }
        #expect(DecimalMath.exp(800) == .infinity && DecimalMath.exp(-800) == 0)
    }

    /// Colour-blind safety is kept: simulated protanopia, deuteranopia and
    /// tritanopia (Machado, Oliveira & Fernandes 2009, severity 1.0, on
    /// linear RGB) leave every pair of series colours at least 5.5 apart
    /// in OKLab × 100 (Ottosson 2020), about three just-noticeable steps.
    @Test func seriesColoursStayApartForColourBlindEyes() {
        let simulations: [[[Double]]] = [
            [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
            [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
            [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
            [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
        ]
        func linear(_ v: UInt8) -> Double {
            let x = Double(v) / 255
            return x <= 0.04045 ? x / 12.92 : Foundation.pow((x + 0.055) / 1.055, 2.4)
        }
        func oklab(_ rgb: [Double]) -> [Double] {
            let l = cbrt(0.4122214708 * rgb[0] + 0.5363325363 * rgb[1] + 0.0514459929 * rgb[2])
            let m = cbrt(0.2119034982 * rgb[0] + 0.6806995451 * rgb[1] + 0.1073969566 * rgb[2])
            let s = cbrt(0.0883024619 * rgb[0] + 0.2817188376 * rgb[1] + 0.6299787005 * rgb[2])
            return [
                0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
                1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
            ]
        }
        func seen(_ c: Color, _ matrix: [[Double]]) -> [Double] {
            let rgb = [linear(c.red), linear(c.green), linear(c.blue)]
            return oklab(matrix.map { row in min(1, max(0, zip(row, rgb).map(*).reduce(0, +))) })
        }
        var closest = Double.infinity
        for matrix in simulations {
            for i in Palette.okabeIto.indices {
                for j in Palette.okabeIto.indices where j > i {
                    let a = seen(Palette.okabeIto[i], matrix)
                    let b = seen(Palette.okabeIto[j], matrix)
                    let distance = 100 * sqrt(zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +))
                    closest = min(closest, distance)
                }
            }
        }
        #expect(closest >= 5.5, "closest pair \(closest)")
    }
}
