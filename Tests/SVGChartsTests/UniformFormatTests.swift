import SVGCharts
import Testing

/// One unit and one precision per set of values (``UniformFormat``).
struct UniformFormatTests {
    @Test func neighboursStayDistinctInOneUnit() {
        // Each in its own unit these read "1.69min", "1.7min", "1.71min".
        let values = [101.2, 101.7, 102.4]
        #expect(values.map(NumberFormat.duration) == ["1.69min", "1.7min", "1.71min"])
        let format = UniformFormat.fitting(values, format: .duration)
        #expect(format.unit == .second)
        #expect(values.map(format.string) == ["101.2", "101.7", "102.4"])
        #expect(format.title("p99") == "p99 (s)")
        #expect(format.stringWithUnit(101.2) == "101.2 s")
        // Decimals stop growing after three extra digits.
        let close = UniformFormat.fitting([1, 1 + 1e-9], format: .number)
        #expect(close.number.precision == .decimals(5))
        let apart = UniformFormat.fitting([100.01, 100.02, 250], format: .number)
        #expect([100.01, 100.02, 250].map(apart.string) == ["100.01", "100.02", "250.00"])
    }

    @Test func oneUnitForAColumn() {
        let seconds = [0.0012, 0.25, 0.031]
        let format = UniformFormat.fitting(seconds, format: .duration)
        #expect(format.unit == .millisecond)
        #expect(seconds.map(format.string) == ["1", "250", "31"])
        #expect(format.title("") == "milliseconds")
        let minutes = UniformFormat.fitting([600, 5400, .nan], format: .duration)
        #expect(minutes.unit == .minute)
        #expect([600, 5400, .nan].map(minutes.string) == ["10.0", "90.0", "n/a"])
        let forced = UniformFormat.fitting([600, 5400], format: .duration, unit: .second)
        #expect(forced.string(5400) == "5400")
    }

    @Test func logSetsUseSignificantDigits() {
        let counts = [1.0, 12, 1234, 100_000, 999_999]
        let format = UniformFormat.fitting(counts, format: .number, scale: .log)
        #expect(counts.map(format.string) == ["1", "12", "1.23k", "100k", "1M"])
        let times = [0.001, 0.0123, 4.5, 600]
        let log = UniformFormat.fitting(times, format: .duration, scale: .log)
        #expect(log.unit == .second)
        #expect(times.map(log.string) == ["0.001", "0.0123", "4.5", "600"])
        let near = UniformFormat.fitting([1000, 1001, 5], format: .number, scale: .log)
        #expect([1000, 1001, 5].map(near.string) == ["1k", "1.001k", "5"])
    }

    @Test func percentagesAndSharedPrefixes() {
        let shares = [0.125, 0.5, 0.0]
        let format = UniformFormat.fitting(shares, format: .percent)
        #expect(shares.map(format.string) == ["12.5%", "50.0%", "0.0%"])
        #expect(format.title("wasted") == "wasted")
        let thousands = UniformFormat.fitting([1200, 45_000], format: .number)
        #expect([1200, 45_000].map(thousands.string) == ["1.2k", "45.0k"])
        let mixed = UniformFormat.fitting([12, 45_000], format: .number)
        #expect(mixed.string(12) == "12")
        let empty = UniformFormat.fitting([], format: .duration)
        #expect(empty.unit == .second && empty.string(1) == "1")
        let hostile = UniformFormat.fitting([.nan, .infinity, -1.7e308, 5e-324], format: .number, scale: .log)
        #expect(hostile.string(-1.7e308) == "-1.7×10³⁰⁸" && hostile.string(.infinity) == "∞")
    }
}
