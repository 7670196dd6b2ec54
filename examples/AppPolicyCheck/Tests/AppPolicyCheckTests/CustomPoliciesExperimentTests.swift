import Foundation
import PolicyExperiments
import RetryStormKit
import Testing

/// The app's own policies through experiments/custom-policies.yaml, beside the presets: the
/// numbers of results/custom-policies (made by the `custom-policies` executable) come back byte
/// for byte, and what they say holds with its intervals.
@Suite(.serialized)
struct CustomPoliciesExperimentTests {
    static let results = Result { try CustomPoliciesExperiment.experiment().compare(CustomPoliciesExperiment.options) }

    @Test("the experiment reproduces the committed results/custom-policies, file for file")
    func reproducesCommittedResults() throws {
        let results = try Self.results.get()
        #expect(results.variants == ["naive-immediate", "urllib3", "offline-first", "seed-network-client", "retry-bang"])
        for (name, contents) in results.files {
            let committed = try String(contentsOf: CustomPoliciesExperiment.results.appendingPathComponent(name), encoding: .utf8)
            #expect(contents == committed, "\(name) differs from results/custom-policies: run scripts/make-results.sh")
        }
    }

    @Test("Retry! is urllib3's default (Retry(3), Retry-After replaces the backoff of 0) to the bit through this incident")
    func retryBangIsUrllib3() throws {
        let results = try Self.results.get()
        // The only failures here are 503s with Retry-After 2 s and timeouts: both retry the first
        // at once, wait exactly 2 s after the second, and stop after the fourth attempt.
        let bits = { (v: String) in results.summaries(v).map { $0.values.map(\.bitPattern) } }
        #expect(bits("retry-bang") == bits("urllib3"))
    }

    @Test("the seed's client, which does not retry timeouts, peaks clearly lower than naive-immediate and gives up as often (within noise)")
    func seedClientAgainstPreset() throws {
        let results = try Self.results.get()
        // Paired differences against the baseline naive-immediate (compare.csv): peak load
        // −1.34× capacity (95% CI −1.69 … −0.99), gave_up_fraction −0.22 points (−0.82 … +0.38).
        let peak = try #require(results.estimate(.peakLoadRatio, variant: "seed-network-client")?.difference)
        #expect(peak.high < 0)
        let gaveUp = try #require(results.estimate(.gaveUpFraction, variant: "seed-network-client")?.difference)
        #expect(gaveUp.low < 0 && gaveUp.high > 0)
        // And the release gate the app would set, on the upper end of the interval, fails for both
        // naive clients: a fifth of the operations are lost in the brownout.
        let gate = try results.check(["seed-network-client:gave_up_fraction.ci95_high<=1%", "offline-first:gave_up_fraction.ci95_high<=1%"])
        #expect(gate.verdicts.map(\.passed) == [false, true])
    }
}
