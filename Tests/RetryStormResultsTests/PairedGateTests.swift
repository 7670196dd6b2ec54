import GSLSupport
import RetryStormResults
import RetryStormVocabulary
import Testing

/// Gates on a paired difference (`.vs(OTHER)`, `.minus(OTHER)`, issue 27): "my client's p99 is not
/// worse than full jitter's by more than 5%, with 95% confidence". Expected values are the
/// Student-t interval of the per-replication differences worked out by hand.
struct PairedGateTests {
    static let location = SourceLocation(origin: .option("--expect"))

    /// tts_p99_s of `mine` = 10, 12, 14 s and of `ref` = 10, 11, 12 s over replications 0, 1, 2:
    /// differences 0, 1, 2, mean 1, sd 1; t(0.975, 2) = 4.302652729911275 (any t table), so the
    /// 95% interval is 1 ± 4.302652729911275/√3 = [−1.484138, 3.484138] s. Relative to ref's mean,
    /// 11 s: mean 1/11 = 0.090909, interval [−0.134922, 0.316740].
    static func table(mine: [Double] = [10, 12, 14], ref: [Double] = [10, 11, 12]) -> MetricTable {
        BestMarksTests.table([.ttsP99: [mine, ref]], names: ["mine", "ref"])
    }

    static let half = 4.302652729911275 / 3.0.squareRoot()

    static func gate(_ text: String) throws -> RetryStormResults.Expectation {
        try RetryStormResults.Expectation.parse(text, at: location)
    }

    @Test(".minus judges the paired interval in the metric's unit; .vs the same divided by the reference's mean")
    func interval() throws {
        let table = Self.table()
        let minus = try Self.gate("mine:tts_p99_s.minus(ref).ci95_high<=3.5")
        #expect(minus.reference == RetryStormResults.Expectation.Reference(variant: "ref", relative: false))
        let o = try #require(minus.outcomes(in: table).first)
        #expect(abs(o.interval.mean - 1) < 1e-12)
        #expect(abs(o.interval.low - (1 - Self.half)) < 1e-9 && abs(o.interval.high - (1 + Self.half)) < 1e-9)
        #expect(o.interval.count == 3 && o.holds && o.verdict == .met)
        #expect(try Self.gate("mine:tts_p99_s.minus(ref).ci95_high<=3.4").failures(in: table).count == 1)

        let vs = try Self.gate("mine:tts_p99_s.vs(ref).ci95_high<=32%")
        #expect(vs.reference == RetryStormResults.Expectation.Reference(variant: "ref", relative: true) && vs.value == 0.32)
        let r = try #require(vs.outcomes(in: table).first)
        #expect(abs(r.interval.mean - 1.0 / 11) < 1e-12)
        #expect(abs(r.interval.low - (1 - Self.half) / 11) < 1e-9 && abs(r.interval.high - (1 + Self.half) / 11) < 1e-9)
        #expect(r.holds)
        let failing = try Self.gate("mine:tts_p99_s.vs(ref).ci95_high<=31%").failures(in: table)
        #expect(failing.count == 1)
        #expect(failing.first?.contains("mine − ref in tts_p99_s, relative to ref's mean 11.000 s has ci95_high +31.674%") == true)
        #expect(failing.first?.contains("(95% CI -13.492%…+31.674%, 3 pairs)") == true)
        // On the mean, 9.1% ≤ 10% holds, but the interval crosses the bound: within noise.
        let mean = try #require(try Self.gate("mine:tts_p99_s.vs(ref)<=10%").outcomes(in: table).first)
        #expect(mean.holds && mean.verdict == .withinNoise)
    }

    /// Common random numbers: mine = ref + 0.5 s in every replication. Each point's own interval
    /// is wide (10 ± 12.4 s over 9, 10, 11... here 8, 10, 12: sd 2, half 4.97 s) and they overlap,
    /// yet the paired interval is the single point 0.5 s: the noise they share cancels.
    @Test("a paired difference separates points whose own intervals overlap")
    func pairing() throws {
        let ref: [Double] = [8, 10, 12]
        let table = Self.table(mine: ref.map { $0 + 0.5 }, ref: ref)
        let own = try #require(table.interval("mine", .ttsP99))
        let other = try #require(table.interval("ref", .ttsP99))
        #expect(own.low < other.high)
        let o = try #require(try Self.gate("mine:tts_p99_s.minus(ref).ci95_low>=0.5").outcomes(in: table).first)
        #expect(o.interval.low == 0.5 && o.interval.high == 0.5 && o.holds)
        // 500ms reads as the metric's durations do.
        #expect(try Self.gate("mine:tts_p99_s.minus(ref).ci95_low>=500ms").value == 0.5)
    }

    @Test("without a variant, every point but the reference is judged")
    func everyOtherPoint() throws {
        let gate = try Self.gate("tts_p99_s.vs(ref).ci95_high<=32%")
        #expect(gate.outcomes(in: Self.table()).map(\.point) == ["mine"])
    }

    @Test("one replication gives no interval: the gate fails and says why")
    func onePair() throws {
        let table = Self.table(mine: [12], ref: [10])
        let gate = try Self.gate("mine:tts_p99_s.vs(ref).ci95_high<=50%")
        let o = try #require(gate.outcomes(in: table).first)
        #expect(!o.holds && o.verdict == .notMet)
        #expect(gate.failures(in: table).first?.contains("needs at least 2 replications of both (got 1 pair)") == true)
    }

    /// A time that never came is +∞ (the tables' "never"): both never → the pair differs by 0
    /// (``PairedDifference``), but has no relative value; one never → +∞, which fails `<=`.
    @Test("never: no relative difference from a reference that never recovered; +∞ from one that alone never did")
    func never() throws {
        let inf = Double.infinity
        let both = Self.table(mine: [inf, inf, inf], ref: [inf, inf, inf])
        #expect(try Self.gate("mine:tts_p99_s.minus(ref).ci95_high<=0").outcomes(in: both).first?.holds == true)
        let relative = try Self.gate("mine:tts_p99_s.vs(ref).ci95_high<=5%").failures(in: both)
        #expect(relative.first?.contains("no relative value: ref's mean is never") == true, "\(relative)")
        let one = Self.table(mine: [10, inf, 12], ref: [10, 11, 12])
        let failed = try Self.gate("mine:tts_p99_s.minus(ref).ci95_high<=5").failures(in: one)
        #expect(failed.first?.contains("is +∞: mine's tts_p99_s never came") == true)
    }

    @Test("a fraction's .minus bound in % is share points; .vs takes a fraction only")
    func bounds() throws {
        #expect(try Self.gate("a:gave_up_fraction.minus(b).ci95_high<=0.5%").value == 0.005)
        #expect(try Self.gate("a:tts_p99_s.vs(b).ci95_high<=0.05").value == 0.05)
        #expect(throws: ScenarioError.self) { try Self.gate("a:tts_p99_s.vs(b).ci95_high<=2s") }
    }

    @Test(
        "malformed differences are refused with the reason",
        arguments: [
            ("a:tts_p99_s.vs().ci95_high<=5%", "name the variant to compare with"),
            ("a:tts_p99_s.ci95_high.vs(b)<=5%", "before .ci95_low or .ci95_high"),
            ("a:tts_p99_s.vs(b<=5%", "a '(' is not closed")
        ])
    func malformed(text: String, reason: String) {
        #expect {
            try Self.gate(text)
        } throws: { error in
            (error as? ScenarioError)?.message.contains(reason) == true
        }
    }

    @Test("a reference the study lacks, or the variant itself, is refused before anything runs")
    func points() throws {
        #expect(throws: ScenarioError.self) { try Self.gate("mine:tts_p99_s.vs(other)<=5%").check(points: ["mine", "ref"]) }
        #expect(throws: ScenarioError.self) { try Self.gate("mine:tts_p99_s.vs(mine)<=5%").check(points: ["mine", "ref"]) }
        try Self.gate("mine:tts_p99_s.vs(ref)<=5%").check(points: ["mine", "ref"])
    }
}
