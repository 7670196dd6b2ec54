import Testing
import RetryStormKit

/// The one number format of the deterministic outputs.
struct FormatTests {
    @Test("fixed decimals, half to even, no exponent, negative zero printed as zero", arguments: [
        (0.0, 3, "0.000"), (1.5, 0, "2"), (2.5, 0, "2"), (0.0005, 3, "0.000"), (0.0015, 3, "0.002"), (-0.0, 3, "0.000"),
        (-1.25, 1, "-1.2"), (1234567.891, 2, "1234567.89"), (1e-9, 6, "0.000000"), (600, 6, "600.000000"),
    ])
    func fixed(x: Double, decimals: Int, text: String) {
        #expect(Format.fixed(x, decimals) == text)
    }

    @Test("nan and infinities are spelled out")
    func special() {
        #expect(Format.fixed(.nan, 3) == "nan")
        #expect(Format.fixed(.infinity, 3) == "inf")
        #expect(Format.fixed(-.infinity, 3) == "-inf")
    }

    @Test("durations for people")
    func durations() {
        #expect(Format.duration(250_000_000) == "250ms")
        #expect(Format.duration(2_000_000_000) == "2s")
        #expect(Format.duration(1_500_000_000) == "1.5s")
        #expect(Format.duration(300_000_000_000) == "5m")
        #expect(Format.duration(3_600_000_000_000) == "1h")
    }

    @Test("grouped thousands")
    func grouped() {
        #expect(Format.grouped(1_234_567) == "1,234,567")
        #expect(Format.grouped(-1000) == "-1,000")
        #expect(Format.grouped(999) == "999")
    }
}
