import SVGCharts
import Testing

struct TicksTests {
    @Test func linearNiceTicks() {
        #expect(Ticks.linear(0, 937, count: 5) == [0, 200, 400, 600, 800, 1000])
        #expect(Ticks.linear(0, 1, count: 5) == [0, 0.2, 0.4, 0.6, 0.8, 1])
        #expect(Ticks.linear(0, 100, count: 5) == [0, 20, 40, 60, 80, 100])
        #expect(Ticks.linear(0, 11, count: 5) == [0, 2, 4, 6, 8, 10, 12])
        #expect(Ticks.linear(-3.2, 7.9, count: 5) == [-4, -2, 0, 2, 4, 6, 8])
        #expect(Ticks.linear(0.1, 0.7, count: 6) == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])
        #expect(Ticks.linear(1e9, 5e9, count: 4) == [1e9, 2e9, 3e9, 4e9, 5e9])
    }

    @Test func stepsAreOneTwoFive() {
        #expect(Ticks.step(span: 937, count: 5) == TickStep(mantissa: 2, exponent: 2))
        #expect(Ticks.step(span: 1, count: 5) == TickStep(mantissa: 2, exponent: -1))
        #expect(Ticks.step(span: 40, count: 10) == TickStep(mantissa: 5, exponent: 0))
        #expect(Ticks.step(span: 8, count: 1) == TickStep(mantissa: 1, exponent: 1))
        #expect(TickStep(mantissa: 1, exponent: -1).tick(3) == 0.3)
    }

    @Test func logTicksArePowersOfTen() {
        #expect(Ticks.log(0.001, 600) == [0.001, 0.01, 0.1, 1, 10, 100, 1000])
        #expect(Ticks.log(1, 1000) == [1, 10, 100, 1000])
        #expect(Ticks.log(2, 8) == [1, 10])
        #expect(Ticks.log(5, 5) == [1, 10])
    }

    @Test func durationUnitForAWholeAxis() {
        #expect(DurationUnit.forLinear(maxMagnitude: 0.25) == .millisecond)
        #expect(DurationUnit.forLinear(maxMagnitude: 180) == .second)
        #expect(DurationUnit.forLinear(maxMagnitude: 3600) == .minute)
        #expect(DurationUnit.forLinear(maxMagnitude: 86400) == .hour)
        #expect(DurationUnit.forLinear(maxMagnitude: .nan) == .second)
        // Log: the unit whose powers of ten print narrowest.
        #expect(DurationUnit.forLog(lo: 0.001, hi: 600) == .second)
        #expect(DurationUnit.forLog(lo: 1e-5, hi: 0.1) == .millisecond)
        #expect(DurationUnit.forLog(lo: 2e-8, hi: 3e-6) == .microsecond)
        #expect(DurationUnit.forLog(lo: 2e-9, hi: 3e-8) == .nanosecond)
        #expect(DurationUnit.forLog(lo: 1, hi: 1) == .second)
        #expect(DurationUnit.all.map(\.symbol) == ["ns", "µs", "ms", "s", "min", "h", "d"])
    }

    @Test func resolvedLinearAxisLabels() {
        let axis = Axis(label: "rps").resolve(values: [0, 1400], pixelLength: 400, horizontal: false, fontSize: 12)
        #expect(axis.ticks.map(\.label) == ["0", "200", "400", "600", "800", "1k", "1.2k", "1.4k"])
        // Labels keep enough digits to stay distinct.
        let narrow = Axis(label: "").resolve(
            values: [100_000, 101_000], pixelLength: 300, horizontal: false,
            fontSize: 12)
        #expect(Set(narrow.ticks.map(\.label)).count == narrow.ticks.count)
        #expect(narrow.ticks.first?.label == "100k")
        #expect(narrow.ticks[1].label == "100.2k")
    }

    @Test func resolvedPercentAndDurationAxes() {
        let percent = Axis(label: "", format: .percent)
            .resolve(values: [], pixelLength: 300, horizontal: false, fontSize: 12, forcedDomain: (0, 1))
        #expect(percent.ticks.map(\.label) == ["0", "20%", "40%", "60%", "80%", "100%"])
        let seconds = Axis(label: "", format: .duration)
            .resolve(values: [0, 180], pixelLength: 800, horizontal: true, fontSize: 12)
        #expect(seconds.ticks.map(\.label) == ["0", "20", "40", "60", "80", "100", "120", "140", "160", "180"])
        #expect(seconds.title("time") == "time (s)")
        let minutes = Axis(label: "", format: .duration)
            .resolve(values: [0, 3600], pixelLength: 600, horizontal: true, fontSize: 12)
        #expect(minutes.ticks.map(\.label) == ["0", "10", "20", "30", "40", "50", "60"])
        #expect(minutes.ticks.last?.value == 3600)
        #expect(minutes.title("") == "minutes")
        let millis = Axis(label: "", format: .duration)
            .resolve(values: [0, 0.25], pixelLength: 300, horizontal: false, fontSize: 12)
        #expect(millis.ticks.map(\.label) == ["0", "50", "100", "150", "200", "250"])
        #expect(millis.title("delay") == "delay (ms)")
        let forced = Axis(label: "", format: .duration)
            .resolve(values: [0, 0.25], pixelLength: 300, horizontal: false, fontSize: 12, unit: .second)
        #expect(forced.ticks.map(\.label) == ["0", "0.05", "0.1", "0.15", "0.2", "0.25"])
        #expect(
            Axis(label: "n").resolve(values: [0, 1], pixelLength: 300, horizontal: false, fontSize: 12)
                .title("n") == "n")
    }

    @Test func resolvedLogAxis() {
        let axis = Axis(label: "", scale: .log, format: .duration)
            .resolve(values: [0.0013, 540, 0, -2], pixelLength: 800, horizontal: true, fontSize: 12)
        // One unit for the whole axis, named in the title: no "1ms … 10m" mix.
        #expect(axis.lo == 0.001)
        #expect(axis.hi == 1000)
        #expect(axis.ticks.map(\.label) == ["0.001", "0.01", "0.1", "1", "10", "100", "1000"])
        #expect(axis.title("time to success") == "time to success (s)")
        let minutes = Axis(label: "", scale: .log, format: .duration)
            .resolve(values: [90, 1800], pixelLength: 800, horizontal: true, fontSize: 12)
        #expect(minutes.unit == .minute)
        #expect(minutes.ticks.map(\.value) == [60, 600, 6000])
        #expect(minutes.ticks.map(\.label) == ["1", "10", "100"])
        #expect(minutes.minorTicks.first == 120)
        #expect(axis.fraction(0) == 0)
        #expect(axis.fraction(-5) == 0)
        let numbers = Axis(label: "", scale: .log).resolve(
            values: [0.001, 600], pixelLength: 800, horizontal: true,
            fontSize: 12)
        #expect(numbers.ticks.map(\.label) == ["0.001", "0.01", "0.1", "1", "10", "100", "1k"])
        #expect(numbers.unit == nil)
    }

    @Test func tailPercentileAxis() {
        let axis = Axis(label: "percentile", scale: .tailPercentile)
            .resolve(values: [50, 90, 99, 99.9], pixelLength: 600, horizontal: true, fontSize: 12)
        #expect(axis.ticks.map(\.label) == ["p50", "p90", "p99", "p99.9"])
        // 3% of the span beyond each end keeps end marks off the plot edge.
        #expect(abs(axis.fraction(50) - 0.03 / 1.06) < 1e-9)
        #expect(abs(axis.fraction(99.9) - 1.03 / 1.06) < 1e-9)
        // −log10(1 − q): each nine takes the same room; p50 is log10(2) from p0.
        let p90 = axis.fraction(90)
        let p99 = axis.fraction(99)
        #expect(abs((p99 - p90) - (axis.fraction(99.9) - p99)) < 1e-9)
        #expect(abs((p90 - axis.fraction(50)) / (p99 - p90) - (1 - 0.30102999566398120)) < 1e-9)
        #expect(axis.fraction(100) > 1 && axis.fraction(100).isFinite)
        #expect(axis.fraction(.infinity) == 1 && axis.fraction(-.infinity) == 0)
        // The domain goes out to the enclosing ticks; a fixed bound wins.
        let inner = Axis(label: "", scale: .tailPercentile)
            .resolve(values: [75, 99.5], pixelLength: 600, horizontal: true, fontSize: 12)
        #expect(inner.ticks.map(\.value) == [50, 90, 99, 99.9])
        let fixed = Axis(label: "", scale: .tailPercentile, min: 90)
            .resolve(values: [50, 99.99], pixelLength: 600, horizontal: true, fontSize: 12)
        #expect(fixed.ticks.map(\.label) == ["p90", "p99", "p99.9", "p99.99"])
        #expect(fixed.lo == 90 && fixed.fraction(90) == 0)
        let empty = Axis(label: "", scale: .tailPercentile)
            .resolve(values: [.nan], pixelLength: 600, horizontal: true, fontSize: 12)
        #expect(empty.ticks.map(\.value) == [50, 90, 99, 99.9])
        let single = Axis(label: "", scale: .tailPercentile)
            .resolve(values: [99, 99], pixelLength: 600, horizontal: true, fontSize: 12)
        #expect(single.ticks.map(\.value) == [90, 99])
        let tight = Axis(label: "", scale: .tailPercentile)
            .resolve(values: [0, 99.9999], pixelLength: 60, horizontal: true, fontSize: 12)
        #expect(tight.ticks.filter { !$0.label.isEmpty }.count < tight.ticks.count)
    }

    @Test func degenerateRanges() {
        let empty = Axis(label: "").resolve(values: [], pixelLength: 300, horizontal: false, fontSize: 12)
        #expect(empty.lo == 0 && empty.hi == 1)
        let constant = Axis(label: "").resolve(values: [5, 5], pixelLength: 300, horizontal: false, fontSize: 12)
        #expect(constant.lo < 5 && constant.hi > 5)
        let zeros = Axis(label: "").resolve(values: [0, 0], pixelLength: 300, horizontal: false, fontSize: 12)
        #expect(zeros.lo == 0 && zeros.hi == 1)
        let logEmpty = Axis(label: "", scale: .log).resolve(
            values: [0, -1, .nan], pixelLength: 300,
            horizontal: false, fontSize: 12)
        #expect(logEmpty.lo == 1 && logEmpty.hi == 10)
        let nanLength = Axis(label: "").resolve(values: [1, 2], pixelLength: .nan, horizontal: true, fontSize: 12)
        #expect(nanLength.ticks.count >= 2)
    }
}
