import GSLSupport
import RetryStormResults
import RetryStormVocabulary
import Testing

/// A constraint's verdict with confidence (`ConstraintVerdict`): met when the whole 95% interval
/// satisfies the bound, not met when none of it does, within noise when it crosses the bound.
/// The expected verdicts follow from the definitions alone, for intervals built by hand.
struct ConstraintVerdictTests {
    static let location = SourceLocation(origin: .option("--constraint"))

    static func verdict(_ text: String, _ ci: ConfidenceInterval) throws -> ConstraintVerdict {
        ConstraintVerdict(try Expectation.parse(text, at: location), ci)
    }

    /// The issue's case: "peak ≤ 1.5×" at 1.41× ±0.10, the interval [1.31, 1.51], crosses 1.5.
    @Test("a mean inside the bound whose interval crosses it is within noise, not met")
    func issueCase() throws {
        let ci = ConfidenceInterval(mean: 1.41, low: 1.31, high: 1.51, count: 3)
        #expect(try Self.verdict("peak_load_ratio<=1.5", ci) == .withinNoise)
        // The same mean with a narrower interval, [1.36, 1.46], lies inside: met.
        #expect(try Self.verdict("peak_load_ratio<=1.5", ConfidenceInterval(mean: 1.41, low: 1.36, high: 1.46, count: 3)) == .met)
        // Wholly above it: not met.
        #expect(try Self.verdict("peak_load_ratio<=1.5", ConfidenceInterval(mean: 1.7, low: 1.6, high: 1.8, count: 3)) == .notMet)
    }

    /// The interval [1, 3] (mean 2) against bounds at its ends and its middle: an end on the bound
    /// satisfies `<=`/`>=` there and fails `<`/`>`, so an operator at equality moves the verdict.
    static let interval = ConfidenceInterval(mean: 2, low: 1, high: 3, count: 5)
    static let cases: [(String, ConstraintVerdict)] = [
        ("<=3", .met), ("<3", .withinNoise), ("<=1", .withinNoise), ("<1", .notMet), ("<=0.5", .notMet), ("<=2", .withinNoise),
        (">=1", .met), (">1", .withinNoise), (">=3", .withinNoise), (">3", .notMet), (">=4", .notMet), (">0.5", .met),
        ("==2", .withinNoise), ("==4", .notMet), ("==1", .withinNoise), ("!=4", .met), ("!=2", .withinNoise), ("!=3", .withinNoise)
    ]

    @Test("every operator at the interval's ends, inside it and beyond it", arguments: cases)
    func operators(bound: String, expected: ConstraintVerdict) throws {
        #expect(try Self.verdict("peak_load_ratio" + bound, Self.interval) == expected)
    }

    /// With no spread (every replication the same, or one replication) the interval is the value:
    /// the verdict is met or not met, and `==` can be met.
    @Test("an interval of one value is met or not met, never within noise", arguments: ["<=2", "<2", ">=2", ">2", "==2", "!=2"])
    func pointInterval(bound: String) throws {
        let ci = ConfidenceInterval(mean: 2, low: 2, high: 2, count: 3)
        let holds = try Expectation.parse("peak_load_ratio" + bound, at: Self.location).op.holds(2, 2)
        #expect(try Self.verdict("peak_load_ratio" + bound, ci) == (holds ? .met : .notMet))
    }

    /// An expectation on an end of the interval already asks for confidence: it is judged on that end.
    @Test("ci95_high and ci95_low are judged on their end alone, at equality too")
    func ends() throws {
        #expect(try Self.verdict("peak_load_ratio.ci95_high<=3", Self.interval) == .met)
        #expect(try Self.verdict("peak_load_ratio.ci95_high<3", Self.interval) == .notMet)
        #expect(try Self.verdict("peak_load_ratio.ci95_low>=1", Self.interval) == .met)
        #expect(try Self.verdict("peak_load_ratio.ci95_low>1", Self.interval) == .notMet)
    }

    @Test("a metric with no value is not met")
    func noValue() throws {
        #expect(try Self.verdict("recovery_s<=10", ConfidenceInterval(mean: .nan, low: .nan, high: .nan, count: 3)) == .notMet)
        // A "never" upper end (recovery not reached in some replication) crosses any finite bound.
        #expect(try Self.verdict("recovery_s<=10", ConfidenceInterval(mean: 8, low: 5, high: .infinity, count: 3)) == .withinNoise)
    }

    /// The table of `ExpectationTests`: gave_up_fraction 0 and 1 in two replications, mean 0.5,
    /// interval cut to [0, 1]. What tune and the gates read through `Expectation.outcomes`.
    @Test("outcomes carry the verdict of the whole interval beside the mean's pass or fail")
    func outcomes() throws {
        let table = try ExpectationTests.table()
        let gate = try Expectation.parse("gave_up_fraction<=0.6", at: Self.location)
        let o = try #require(gate.outcomes(in: table).first)
        #expect(o.holds && o.verdict == .withinNoise, "0.5 ≤ 0.6 on the mean, but [0, 1] crosses 0.6")
        let wide = try Expectation.parse("gave_up_fraction<=1", at: Self.location)
        #expect(wide.outcomes(in: table).first?.verdict == .met, "[0, 1] ≤ 1 at equality")
    }
}
