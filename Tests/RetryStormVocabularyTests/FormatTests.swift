import RetryStormVocabulary
import Testing

/// The one number format of the deterministic outputs.
struct FormatTests {
    @Test(
        "fixed decimals, half to even, no exponent, negative zero printed as zero",
        arguments: [
            (0.0, 3, "0.000"), (1.5, 0, "2"), (2.5, 0, "2"), (0.0005, 3, "0.000"), (0.0015, 3, "0.002"), (-0.0, 3, "0.000"),
            (-1.25, 1, "-1.2"), (1234567.891, 2, "1234567.89"), (1e-9, 6, "0.000000"), (600, 6, "600.000000")
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

/// Every double formats, however large: no conversion that can trap.
struct FormatTotalityTests {
    @Test(
        "huge values print all their integer digits, exactly (2^63, 2^64, 10^20, the largest double)",
        arguments: [
            (9_223_372_036_854_775_808.0, 0, "9223372036854775808"),
            (18_446_744_073_709_551_616.0, 2, "18446744073709551616.00"),
            (1e20, 3, "100000000000000000000.000"),
            (-1e20, 0, "-100000000000000000000"),
            // 2^33 + 0.5 rounds half to even at 0 decimals; 2^33 + 1.5 rounds up.
            (8_589_934_592.5, 0, "8589934592"), (8_589_934_593.5, 0, "8589934594"),
            // 2^40 + 1/4 at 9 decimals takes the exact path (the scaled value passes 9·10^18).
            (1_099_511_627_776.25, 9, "1099511627776.250000000")
        ])
    func huge(x: Double, decimals: Int, text: String) {
        #expect(Format.fixed(x, decimals) == text)
    }

    @Test("the largest double has 309 digits and the table format groups them")
    func largest() {
        let text = Format.fixed(.greatestFiniteMagnitude, 0)
        #expect(text.count == 309 && text.hasPrefix("17976931348623157") && text.allSatisfy(\.isNumber))
        #expect(Format.grouped(1e20) == "100,000,000,000,000,000,000")
        #expect(Format.grouped(Double.nan) == "nan" && Format.grouped(-Double.infinity) == "-inf")
        #expect(Format.grouped(-0.4) == "0")
    }
}
