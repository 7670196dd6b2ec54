import Foundation
import RetryStormKit
import Testing

/// A caller's own policy through `Experiment`: `adding(variant:running:)` puts it beside the
/// file's variants, `running(_:)` under every point; both give what the engine gives for the same
/// behaviour written as a `RetryPolicy`, and what cannot be meant is refused with a located error.
struct CustomPolicyExperimentTests {
    /// `RetryPolicy.naiveImmediate` written by hand: every failure retried at once, four failures
    /// give up (failures, as the library counts them), writes sent blind.
    struct Naive: ClientPolicy {
        var ambiguity: AmbiguityPolicy { .blind }
        func decide<R: UniformSource & ~Copyable>(
            after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard,
            now: Nanoseconds, random: inout R
        ) -> RetryDecision {
            record.cycleFailures &+= 1
            return record.cycleFailures < 4 ? record.retry(at: now) : record.stop(.attemptsExhausted)
        }
    }

    /// experiments/custom-policies.yaml at a tenth of the fleet: its variants are presets,
    /// naive-immediate first.
    static func experiment() throws -> Experiment {
        try ExperimentTests.experiment("custom-policies", overrides: ["clients.count=1000"])
    }

    static let options = ExperimentOptions(replications: 2, jobs: 2)

    @Test("an added variant runs after the file's and gives the preset it was written as, row for row")
    func addedVariant() throws {
        let results = try Self.experiment().adding(variant: "by-hand", running: Naive()).compare(Self.options)
        #expect(results.variants == ["naive-immediate", "urllib3", "offline-first", "by-hand"])
        let strip = { (rows: [SummaryRecord]) in rows.map { $0.values.map(\.bitPattern) } }
        #expect(strip(results.summaries("by-hand")) == strip(results.summaries("naive-immediate")))
        #expect(results.summaries("by-hand")[0].values[1] > 0)
        // The baseline may be the added variant: the preset's paired difference to it is then 0.
        let paired = try Self.experiment().adding(variant: "by-hand", running: Naive()).compare(Self.options, baseline: "by-hand")
        let d = try #require(paired.estimate(.peakLoadRatio, variant: "naive-immediate")?.difference)
        #expect(d.mean == 0 && d.low == 0 && d.high == 0)
    }

    @Test("running(_:) puts the policy under every point: each variant's own policy keys are replaced")
    func runningEverywhere() throws {
        let results = try Self.experiment().running(Naive()).compare(Self.options)
        let strip = { (v: String) in results.summaries(v).map { $0.values.map(\.bitPattern) } }
        // urllib3's and offline-first's keys no longer count: all three run Naive on the same streams.
        #expect(strip("urllib3") == strip("naive-immediate") && strip("offline-first") == strip("naive-immediate"))
        let base = try Self.experiment().running(Naive()).run(Self.options)
        let plain = try ExperimentTests.experiment("custom-policies", overrides: ["clients.count=1000", "policy.preset=naive-immediate"])
            .run(Self.options)
        #expect(base.study.summaries == plain.study.summaries)
    }

    /// quickstart declares no variants: its own policy (6 attempts, full-jitter backoff) runs
    /// first as `base`, the baseline, and `base` is then not a free name. The added variants are
    /// paired with it: Naive retries at once, so its paired difference of amplification from
    /// base is the difference of the two points' means, replication by replication.
    @Test("a file without variants compares the added ones with its own policy, run first as base, the baseline")
    func ownPolicyAsBaseline() throws {
        let file = try ExperimentTests.experiment("quickstart", overrides: ["clients.count=500"])
        let results = try file.adding(variant: "a", running: Naive()).adding(variant: "b", running: Naive()).compare(Self.options)
        #expect(results.variants == ["base", "a", "b"])
        let plain = try file.run(Self.options)
        // Bit for bit (a NaN column, such as a recovery that was never needed, equals itself so).
        let bits = { (rows: [SummaryRecord]) in rows.map { $0.values.map(\.bitPattern) } }
        #expect(bits(results.summaries("base")) == bits(plain.summaries("base")), "base is the scenario as run")
        let d = try #require(results.estimate(.amplification, variant: "a")?.difference)
        let a = results.summaries("a").compactMap { $0.value(.amplification) }
        let base = results.summaries("base").compactMap { $0.value(.amplification) }
        #expect(a.count == 2 && abs(d.mean - zip(a, base).map { $0 - $1 }.reduce(0, +) / Double(a.count)) < 1e-5, "\(d.mean)")
        #expect(throws: ScenarioError.self) { _ = try file.adding(variant: "base", running: Naive()) }
        #expect(throws: ScenarioError.self) { try file.compare(Self.options) }
    }

    @Test("refused: a name taken or not a variant name, an unknown baseline, a custom policy with populations")
    func refused() throws {
        let experiment = try Self.experiment()
        #expect(throws: ScenarioError.self) { _ = try experiment.adding(variant: "urllib3", running: Naive()) }
        #expect(throws: ScenarioError.self) { _ = try experiment.adding(variant: "a b", running: Naive()) }
        #expect(throws: ScenarioError.self) { _ = try experiment.adding(variant: "x", running: Naive()).adding(variant: "x", running: Naive()) }
        do {
            _ = try experiment.adding(variant: "by-hand", running: Naive()).compare(Self.options, baseline: "by-hnad")
            Issue.record("an unknown baseline was accepted")
        } catch {
            #expect(error.description.contains("Did you mean 'by-hand'?"))
        }
        let populated = try ExperimentTests.experiment("staged-rollout", overrides: ["clients.count=1000"])
        do {
            _ = try populated.running(Naive()).run(Self.options)
            Issue.record("a custom policy with populations was accepted")
        } catch {
            #expect(error.field == "populations")
        }
    }

    /// "My client is not worse than full jitter by more than 5%, with 95% confidence" as a test
    /// writes it. `by-hand` is naive-immediate written out, so every replication's difference is 0
    /// and the paired interval is exactly [0, 0]: `.vs(naive-immediate).ci95_high<=0%` holds at its
    /// bound and `< 0` cannot. On experiments/jitter-comparison.yaml (2,000 clients, 3 replications)
    /// the judged value is the upper end of the Student-t interval of the per-replication
    /// differences (t(0.975, 2) = 4.302652729911275) over full jitter's mean, recomputed here from
    /// the unrounded values the gates read: decorrelated jitter's p99 is lower (the CLI measures
    /// −25.5%…−13.1%), retrying at once peaks far higher.
    @Test("a gate on a paired difference between two variants: exact at zero, the paired t interval otherwise")
    func pairedGate() throws {
        let options = ExperimentOptions(replications: 3, jobs: 2)
        let same = try Self.experiment().adding(variant: "by-hand", running: Naive()).compare(options)
        try same.require(["by-hand:peak_load_ratio.vs(naive-immediate).ci95_high<=0%"])
        let strict = try same.check(["by-hand:peak_load_ratio.vs(naive-immediate).ci95_high<0"])
        #expect(!strict.passed && strict.verdicts[0].outcomes.map(\.interval.high) == [0])

        let results = try ExperimentTests.experiment("jitter-comparison", overrides: ["clients.count=2000"]).compare(options)
        func upper(_ variant: String, _ metric: Metric) throws -> Double {
            let mine = try #require(results.metrics.cell(variant, metric)).values
            let other = try #require(results.metrics.cell("full-jitter", metric)).values
            let d = zip(mine, other).map { $0 - $1 }
            let mean = d.reduce(0, +) / 3
            let sd = (d.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 2).squareRoot()
            return (mean + 4.302652729911275 * sd / 3.0.squareRoot()) / (other.reduce(0, +) / 3)
        }
        let faster = try results.check(["decorrelated:tts_p99_s.vs(full-jitter).ci95_high<=5%"])
        let p99 = try upper("decorrelated", .ttsP99)
        #expect(abs(try #require(faster.verdicts.first?.outcomes.first).value - p99) < 1e-9)
        #expect(faster.passed && p99 < 0)

        let gate = "no-backoff:peak_load_ratio.vs(full-jitter).ci95_high<=5%"
        let report = try results.check([gate])
        let peak = try upper("no-backoff", .peakLoadRatio)
        #expect(abs(try #require(report.verdicts.first?.outcomes.first).value - peak) < 1e-9 * peak)
        #expect(!report.passed && peak > 0.05)
        #expect(throws: ExpectationFailure.self) { try results.require([gate]) }
        #expect(report.failures.first?.contains("no-backoff − full-jitter in peak_load_ratio, relative to full-jitter's mean") == true)
    }
}
