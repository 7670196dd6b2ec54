import SVGCharts
import Testing

/// Exact strings of the people's number formatter (``HumanNumber``).
struct HumanNumberTests {
    @Test(arguments: [
        // Ties go to the even digit of the decimal value, not of the binary one.
        (46.05, "46.0"), (46.15, "46.2"), (46.25, "46.2"), (46.35, "46.4"), (-46.05, "-46.0"),
        (0.05, "0.0"), (0.15, "0.2"), (9.95, "10.0"), (99.95, "100.0"), (0.1 + 0.2, "0.3"),
        // Negative zero and values that round to zero print without a sign.
        (0.0, "0.0"), (-0.0, "0.0"), (-0.04, "0.0"), (-0.05, "0.0"), (-0.06, "-0.1"),
        (1e-17, "0.0"), (-1e-17, "0.0"), (Double.leastNonzeroMagnitude, "0.0"),
        (123_456_789_012_345.6, "123456789012345.6"),
        // From 10^15 on: scientific with the shortest digits.
        (1e15, "1×10¹⁵"), (1e300, "1×10³⁰⁰"), (-1e300, "-1×10³⁰⁰"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157×10³⁰⁸"),
        (Double.nan, "n/a"), (Double.infinity, "∞"), (-Double.infinity, "-∞")
    ])
    func oneDecimal(value: Double, expected: String) {
        #expect(HumanNumber(.decimals(1)).format(value) == expected)
    }

    @Test(arguments: [
        (2.675, "2.68"), (0.125, "0.12"), (0.135, "0.14"), (1.005, "1.00"), (1.015, "1.02"),
        (9.995, "10.00"), (-9.995, "-10.00"), (0.005, "0.00"), (0.015, "0.02"), (1234.5, "1234.50")
    ])
    func twoDecimals(value: Double, expected: String) {
        #expect(HumanNumber(.decimals(2)).format(value) == expected)
    }

    @Test(arguments: [
        (0.5, "0"), (1.5, "2"), (2.5, "2"), (3.5, "4"), (-2.5, "-2"), (-0.5, "0"), (1e20, "1×10²⁰"),
        (999_999_999_999_999.0, "999999999999999"), (999_999_999_999_999.5, "1×10¹⁵")
    ])
    func noDecimals(value: Double, expected: String) {
        #expect(HumanNumber(.decimals(0)).format(value) == expected)
    }

    @Test(arguments: [
        (0.0012345, "0.00123"), (98765.0, "98800"), (1.5, "1.50"), (999.5, "1000"), (999.4, "999"),
        (0.0001, "0.000100"), (0.00001, "1.00×10⁻⁵"), (1e-17, "1.00×10⁻¹⁷"), (-1e-17, "-1.00×10⁻¹⁷"),
        (1e300, "1.00×10³⁰⁰"), (123_456_789_012_345_680_000.0, "1.23×10²⁰"),
        (999_999_999_999_999.0, "1.00×10¹⁵"), (Double.leastNonzeroMagnitude, "5.00×10⁻³²⁴"),
        (0.0, "0"), (-0.0, "0"), (101.25, "101"), (101.5, "102"), (Double.nan, "n/a")
    ])
    func threeSignificant(value: Double, expected: String) {
        #expect(HumanNumber(.significant(3)).format(value) == expected)
    }

    @Test func signsAndOptions() {
        let diff = HumanNumber(.decimals(1), sign: .always)
        #expect(diff.format(46.05) == "+46.0")
        #expect(diff.format(-46.05) == "-46.0")
        #expect(diff.format(0.04) == "0.0")
        #expect(diff.format(-0.0) == "0.0")
        #expect(diff.format(.infinity) == "∞")
        let trimmed = HumanNumber(.decimals(3), trimsTrailingZeros: true)
        #expect(trimmed.format(1.5) == "1.5")
        #expect(trimmed.format(2.0) == "2")
        #expect(trimmed.format(2.0004) == "2")
        #expect(HumanNumber(.significant(3), trimsTrailingZeros: true).format(1e-17) == "1×10⁻¹⁷")
        let grouped = HumanNumber(.decimals(1), groupsThousands: true)
        #expect(grouped.format(1_234_567.89) == "1,234,567.9")
        #expect(grouped.format(-999.94) == "-999.9")
        #expect(grouped.format(100_000) == "100,000.0")
        #expect(HumanNumber(.decimals(-3)).format(2.5) == "2")
        #expect(HumanNumber(.decimals(99)).format(0.1) == "0." + "1" + String(repeating: "0", count: 29))
        #expect(HumanNumber(.significant(0)).format(46.05) == "50")
        #expect(HumanNumber.format(46.05, decimals: 1) == HumanNumber(.decimals(1)).format(46.05))
        #expect(HumanNumber.format(0.0012345, significant: 2) == "0.0012")
    }

    /// Tables and charts agree: a value printed with the same precision is
    /// the same string, whether or not a sign is asked for.
    @Test func sameValueSameDigits() {
        for i in 0..<2000 {
            let x = Double(i) * 0.05 - 50
            let plain = HumanNumber(.decimals(1)).format(x)
            let signed = HumanNumber(.decimals(1), sign: .always).format(x)
            #expect(signed == plain || signed == "+" + plain, "\(x)")
        }
    }

    /// Every finite double (a deterministic sweep of bit patterns, subnormals
    /// and the extremes included) formats in every mode without trapping, as
    /// plain digits or `m×10ⁿ`, never "nan", "inf" or an "e" exponent.
    @Test func everyDoubleFormats() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var values: [Double] = [
            .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            .ulpOfOne, 1 - .ulpOfOne / 2, 0.5, 9.5, 2.5e-308, 4.9e-324
        ]
        for _ in 0..<5000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let x = Double(bitPattern: state)
            if x.isFinite { values.append(x) }
        }
        let formats: [HumanNumber] = [
            HumanNumber(.decimals(0)), HumanNumber(.decimals(3), sign: .always), HumanNumber(.decimals(30)),
            HumanNumber(.significant(1)), HumanNumber(.significant(17), groupsThousands: true),
            HumanNumber(.significant(3), trimsTrailingZeros: true)
        ]
        for x in values {
            for f in formats {
                let text = f.format(x)
                #expect(
                    !text.isEmpty && !text.contains("e") && !text.contains("n/a") && !text.contains("∞"),
                    "\(x): \(text)")
            }
        }
    }
}
