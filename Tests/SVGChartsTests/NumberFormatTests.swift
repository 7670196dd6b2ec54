import SVGCharts
import Testing

struct NumberFormatTests {
    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (1.0, "1"), (-1.5, "-1.5"), (1.234, "1.23"), (1.235, "1.24"),
        (1.005, "1"),  // the double nearest 1.005 is 1.00499999999999989…
        (0.125, "0.13"), (-0.125, "-0.13"), (-0.004, "0"), (-0.005, "-0.01"), (0.1 + 0.2, "0.3"),
        (960.0, "960"), (123_456_789.0, "123456789"), (1e15, "1000000000000000"),
        (1e20, "100000000000000000000"), (-2.5e21, "-2500000000000000000000"),
        (Double.nan, "0"), (Double.infinity, "0"), (-Double.infinity, "0"), (Double.leastNonzeroMagnitude, "0")
    ])
    func fixedTwoDecimals(value: Double, expected: String) {
        #expect(NumberFormat.fixed(value) == expected)
    }

    @Test func fixedOtherPrecisions() {
        #expect(NumberFormat.fixed(2.5, maxFractionDigits: 0) == "3")
        #expect(NumberFormat.fixed(-2.5, maxFractionDigits: 0) == "-3")
        #expect(NumberFormat.fixed(0.000123, maxFractionDigits: 6) == "0.000123")
        #expect(NumberFormat.fixed(1.5, maxFractionDigits: -4) == "2")
    }

    @Test func fixedNeverUsesExponentNotation() {
        for k in -30...300 {
            let text = NumberFormat.fixed(1.7 * DecimalMath.pow10(k))
            #expect(!text.contains("e") && !text.contains("E"), "k = \(k): \(text)")
        }
        #expect(NumberFormat.fixed(.greatestFiniteMagnitude).count == 309)
    }

    @Test(arguments: [
        (1500.0, "1.5k"), (2_000_000.0, "2M"), (0.25, "0.25"), (0.0, "0"), (-0.0, "0"), (999.0, "999"),
        (1000.0, "1k"), (1234.0, "1.23k"), (12_345.0, "12.3k"), (123_456.0, "123k"), (999_999.0, "1M"),
        (999.95, "1k"), (-1500.0, "-1.5k"), (3e9, "3G"), (4.2e12, "4.2T"), (0.001, "0.001"),
        (0.00012345, "0.000123"), (0.00005, "50µ"), (2.5e-9, "2.5n"), (1.0 / 3.0, "0.333"),
        (3e21, "3Z"), (2.5e30, "2.5×10³⁰"), (-1.7e308, "-1.7×10³⁰⁸"), (9.996e30, "1×10³¹"),
        (1e-30, "1×10⁻³⁰"), (Double.leastNonzeroMagnitude, "5×10⁻³²⁴"),  // its shortest decimal is 5e-324
        (1.235, "1.24"), (1.245, "1.24"),  // ties to even on the decimal value
        (Double.nan, "–"), (Double.infinity, "–")
    ])
    func compact(value: Double, expected: String) {
        #expect(NumberFormat.compact(value) == expected)
    }

    @Test(arguments: [
        (0.001, "1ms"), (0.01, "10ms"), (0.1, "100ms"), (1.0, "1s"), (10.0, "10s"), (60.0, "1min"),
        (600.0, "10min"), (0.25, "250ms"), (1.5, "1.5s"), (90.0, "1.5min"), (5400.0, "1.5h"), (86400.0, "1d"),
        (59.9999, "1min"), (0.000002, "2µs"), (3e-9, "3ns"), (0.0, "0"), (-0.5, "-500ms"), (Double.nan, "–"),
        (0.0012345, "1.23ms"), (0.9995, "1s"), (101.25, "1.69min")
    ])
    func duration(seconds: Double, expected: String) {
        #expect(NumberFormat.duration(seconds) == expected)
    }

    @Test func percent() {
        #expect(NumberFormat.percent(0.25) == "25%")
        #expect(NumberFormat.percent(0.999) == "99.9%")
        #expect(NumberFormat.percent(1) == "100%")
        // The point moves exactly: 0.0125 × 100 in binary is 1.2500000000000002.
        #expect(NumberFormat.percent(0.0125) == "1.2%")
        #expect(NumberFormat.percent(-0.0001) == "0%")
        #expect(NumberFormat.percent(.infinity) == "–")
    }

    @Test func minutesAreNeverABareM() {
        for seconds in stride(from: 60.0, to: 6 * 3600, by: 37) {
            let text = NumberFormat.duration(seconds)
            #expect(!text.hasSuffix("m") || text.hasSuffix("min"), "\(seconds): \(text)")
        }
    }

    @Test func decimalMath() {
        #expect(DecimalMath.pow10(-3) == 0.001)
        #expect(DecimalMath.pow10(22) == 1e22)
        #expect(DecimalMath.decade(1000) == 3)
        #expect(DecimalMath.decade(999.999) == 2)
        #expect(DecimalMath.decade(0.001) == -3)
        #expect(DecimalMath.decade(0.00099) == -4)
        for k in -20...20 {
            #expect(abs(DecimalMath.log10(DecimalMath.pow10(k)) - Double(k)) < 1e-12)
        }
        #expect(abs(DecimalMath.log10(2) - 0.30102999566398120) < 1e-15)
        #expect(abs(DecimalMath.log10(600) - 2.7781512503836436) < 1e-14)
    }
}
