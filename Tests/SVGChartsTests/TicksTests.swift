@testable import SVGCharts
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

    @Test func logDurationTicks() {
        let ticks = Ticks.logDuration(0.001, 600)
        #expect(ticks == [0.001, 0.01, 0.1, 1, 10, 60, 600])
        #expect(ticks.map(NumberFormat.duration) == ["1ms", "10ms", "100ms", "1s", "10s", "1m", "10m"])
    }

    @Test func resolvedLinearAxisLabels() {
        let axis = Axis(label: "rps").resolve(values: [0, 1400], pixelLength: 400, horizontal: false, fontSize: 12)
        #expect(axis.ticks.map(\.label) == ["0", "200", "400", "600", "800", "1k", "1.2k", "1.4k"])
        // Labels keep enough digits to stay distinct.
        let narrow = Axis(label: "").resolve(values: [100_000, 101_000], pixelLength: 300, horizontal: false,
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
        #expect(seconds.ticks.map(\.label) == ["0", "20s", "40s", "60s", "80s", "100s", "120s", "140s", "160s", "180s"])
        let minutes = Axis(label: "", format: .duration)
            .resolve(values: [0, 3600], pixelLength: 600, horizontal: true, fontSize: 12)
        #expect(minutes.ticks.map(\.label) == ["0", "10m", "20m", "30m", "40m", "50m", "60m"])
    }

    @Test func resolvedLogAxis() {
        let axis = Axis(label: "", scale: .log, format: .duration)
            .resolve(values: [0.0013, 540, 0, -2], pixelLength: 800, horizontal: true, fontSize: 12)
        #expect(axis.lo == 0.001)
        #expect(axis.hi == 600)
        #expect(axis.ticks.map(\.label) == ["1ms", "10ms", "100ms", "1s", "10s", "1m", "10m"])
        #expect(axis.fraction(0) == 0)
        #expect(axis.fraction(-5) == 0)
        let numbers = Axis(label: "", scale: .log).resolve(values: [0.001, 600], pixelLength: 800, horizontal: true,
                                                          fontSize: 12)
        #expect(numbers.ticks.map(\.label) == ["0.001", "0.01", "0.1", "1", "10", "100", "1k"])
    }

    @Test func degenerateRanges() {
        let empty = Axis(label: "").resolve(values: [], pixelLength: 300, horizontal: false, fontSize: 12)
        #expect(empty.lo == 0 && empty.hi == 1)
        let constant = Axis(label: "").resolve(values: [5, 5], pixelLength: 300, horizontal: false, fontSize: 12)
        #expect(constant.lo < 5 && constant.hi > 5)
        let zeros = Axis(label: "").resolve(values: [0, 0], pixelLength: 300, horizontal: false, fontSize: 12)
        #expect(zeros.lo == 0 && zeros.hi == 1)
        let logEmpty = Axis(label: "", scale: .log).resolve(values: [0, -1, .nan], pixelLength: 300,
                                                            horizontal: false, fontSize: 12)
        #expect(logEmpty.lo == 1 && logEmpty.hi == 10)
        let nanLength = Axis(label: "").resolve(values: [1, 2], pixelLength: .nan, horizontal: true, fontSize: 12)
        #expect(nanLength.ticks.count >= 2)
    }
}
