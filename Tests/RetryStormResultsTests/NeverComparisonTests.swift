import GSLSupport
import RetryStormResults
import Testing

/// How "never" (+∞: a time to success that did not come, issue 26) compares across replications:
/// worse than any finite time, equal to another never, and never a silent NaN.
struct NeverComparisonTests {
    static let reps = [0, 1, 2]

    @Test("a mean over replications with one never is never, its interval [never, never]")
    func meanWithNever() {
        let ci = Statistics.confidenceInterval95([12, .infinity, 30])
        #expect(ci.mean == .infinity && ci.low == .infinity && ci.high == .infinity && ci.count == 3)
    }

    /// Per replication: never − never = 0 (the same infinity), never − finite = +∞, finite − never = −∞.
    @Test("paired differences: never minus never is 0; never minus a finite time is clearly above 0, the reverse clearly below")
    func pairedNever() {
        let never: [Double] = [.infinity, .infinity, .infinity]
        let both = PairedDifference(never, replications: Self.reps, minus: never, replications: Self.reps)
        #expect(both.interval.mean == 0 && both.interval.low == 0 && both.interval.high == 0 && both.indistinguishable)
        // Differences +∞, 0, +∞: the mean is +∞ and so is the whole interval.
        let worse = PairedDifference([.infinity, 5, .infinity], replications: Self.reps, minus: [4, 5, 6], replications: Self.reps)
        #expect(worse.interval.mean == .infinity && worse.interval.low == .infinity && worse.clearlyAbove)
        let better = PairedDifference([4, 5, 6], replications: Self.reps, minus: [.infinity, 5, .infinity], replications: Self.reps)
        #expect(better.interval.mean == -.infinity && !better.clearlyAbove && !better.indistinguishable)
    }
}
