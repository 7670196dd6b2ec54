import GSLSupport
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import TestSupport
import Testing

/// How the report and the terminal tables write a metric's values: one unit per column, three
/// significant digits per value by HumanNumber's rule (shortest decimal, ties to even), counts
/// whole, intervals as ± or as their ends where the metric's range cut them.
struct ColumnFormatTests {
    static func ci(_ mean: Double, _ low: Double, _ high: Double, count: Int = 3) -> ConfidenceInterval {
        ConfidenceInterval(mean: mean, low: low, high: high, count: count)
    }

    @Test("one unit per column, from its largest value: ms beside ms, never a bare m for minutes")
    func oneUnitPerColumn() {
        let small = ColumnFormat(metric: .ttsP50, values: [Self.ci(0.0641, 0.0568, 0.0714), Self.ci(0.05, 0.04, 0.06)])
        #expect(small.unitSymbol == "ms")
        #expect(small.text(0.0641) == "64.1 ms")
        let large = ColumnFormat(metric: .ttsP99, values: [Self.ci(1.712, 1.708, 1.716), Self.ci(150.725, 140, 160)])
        #expect(large.unitSymbol == "s")
        // 150.725 s reads 151 in the column's unit and 1.712 s reads 1.71: one column, each value
        // at its own three digits (one precision for both would print 151.000 or 2).
        #expect(large.number(150.725) == "151" && large.number(1.712) == "1.71")
        let minutes = ColumnFormat(metric: .recovery, values: [Self.ci(3600, 3600, 3600)])
        #expect(minutes.unitSymbol == "min" && minutes.text(5400) == "90.0 min")
    }

    /// 46.05 rounds to the even digit on its shortest decimal, "46.0" (HumanNumber), where binary
    /// rounding of 46.05 × 10 would give 460.5 → 461 in one place and 460 in another.
    @Test("the same value prints the same: 46.05 s is 46.0 in a cell, a sentence and a difference")
    func sameValueSameText() {
        let f = ColumnFormat(metric: .ttsP99, values: [Self.ci(46.05, 40, 52)])
        #expect(f.number(46.05) == "46.0")
        #expect(f.text(46.05) == "46.0 s")
        #expect(f.signed(46.05) == "+46.0 s")
    }

    @Test("counts are whole, grouped; percentages move the point exactly; ratios keep their unit")
    func kinds() {
        let count = ColumnFormat(metric: .operations, values: [])
        #expect(count.number(1_612_880.6) == "1,612,881")
        #expect(count.cell(Self.ci(390.0, 367.4, 412.6)) == "390 ±23")
        // One operation lost in three replications is a mean of 0.333 (tune-delays' base 10 s,
        // max 80.7 s): not "0", which must mean none (0.5 too: ties go to the even digit); above
        // 0.5 a mean rounds to a whole number. The interval's ends are counts, whole.
        let gaveUp = ColumnFormat(metric: .gaveUp, values: [])
        #expect(gaveUp.number(1.0 / 3) == "0.3")
        #expect(gaveUp.cell(Self.ci(1.0 / 3, 0, 1.767551)) == "0.3 [0, 2]")
        #expect(gaveUp.number(0.004) == "0.004")
        #expect(gaveUp.number(0) == "0")
        #expect(gaveUp.number(0.5) == "0.5" && gaveUp.number(2.0 / 3) == "1" && gaveUp.number(-0.2) == "-0.2")
        let share = ColumnFormat(metric: .gaveUpFraction, values: [])
        #expect(share.text(0.0069) == "0.690%")
        #expect(share.text(0.239) == "23.9%")
        #expect(share.text(0) == "0%")
        #expect(ColumnFormat(metric: .peakLoadRatio, values: []).text(2.02) == "2.02×")
    }

    @Test("intervals: ± when the mean is in the middle, the ends where the range cut it, never ±0.00")
    func intervals() {
        let f = ColumnFormat(metric: .ttsP99, values: [Self.ci(18.5, 18.2, 18.8)])
        #expect(f.cell(Self.ci(18.478, 18.178, 18.778)) == "18.5 ±0.3")
        // The gave-up share of the compare fixture's no-jitter: 2.58% [0, 8.35] (the t interval
        // goes below 0, which a share cannot).
        let share = ColumnFormat(metric: .gaveUpFraction, values: [])
        #expect(share.cell(Self.ci(0.025833, 0, 0.083508)) == "2.58 [0.00, 8.35]")
        // A half-width too small for the mean's three digits gets its own first digit.
        #expect(f.cell(Self.ci(1.712, 1.708, 1.716)) == "1.71 ±0.004")
        #expect(f.spread(Self.ci(1.712, 1.712, 1.712)) == nil)
        #expect(f.spread(Self.ci(1.712, 1.0, 2.0, count: 1)) == nil)
    }

    @Test("paired differences share the places of their farthest end; bounds print as written")
    func differencesAndBounds() {
        let f = ColumnFormat(metric: .ttsP99, values: [Self.ci(13.6, 13.1, 14.1)])
        #expect(f.difference(Self.ci(5.699597, -1.365314, 12.764507)) == "+5.7 s (95% CI [-1.4, 12.8])")
        #expect(f.difference(Self.ci(-28.254, -31.289, -25.218)) == "-28.3 s (95% CI [-31.3, -25.2])")
        #expect(f.difference(Self.ci(2.5, 2.5, 2.5, count: 1)) == "+2.50 s")
        #expect(ColumnFormat(metric: .peakLoadRatio, values: []).exact(4) == "4×")
        #expect(ColumnFormat(metric: .gaveUpFraction, values: []).exact(0.0015) == "0.15%")
    }

    @Test("no value and no end: n/a, never, ∞")
    func special() {
        let f = ColumnFormat(metric: .recovery, values: [])
        #expect(f.text(.nan) == "n/a")
        #expect(f.text(.infinity) == "never")
        #expect(ColumnFormat(metric: .peakLoadRatio, values: []).number(.infinity) == "∞")
    }
}
