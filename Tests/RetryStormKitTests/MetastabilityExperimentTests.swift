import Foundation
import RetryStormKit
import TestSupport
import Testing

/// The metastability experiments of docs/models.md ("Metastability experiments"): a published
/// outcome reproduced, and the sustain law's "recovery needs less load than you think" against
/// the simulator.
@Suite("Metastability experiments")
struct MetastabilityExperimentTests {
    static func experiment(_ name: String) throws -> Experiment {
        try Experiment(contentsOf: Repository.root.appendingPathComponent("experiments/\(name).yaml"))
    }

    /// Huang et al., "Metastable Failures in the Wild" (OSDI 2022), retry case: of four CPU cuts
    /// only (b), 10 s at 20%, leaves the server in a metastable failure; (a) at 22.5%, (c) for 9 s
    /// and (d) with the rate cut by 25% recover (the artifact's Retry_Metastability README). The
    /// capacity was fitted on (a) and (b) alone, so (c) and (d) are predictions; `explain` must
    /// give the same four verdicts without simulating.
    @Test("osdi22-retry: (b) stuck in every replication, (a), (c) and (d) in none, as published; explain's laws say the same")
    func osdi22() throws {
        let experiment = try Self.experiment("osdi22-retry")
        let published = ["a-22.5%-10s": false, "b-20%-10s": true, "c-20%-9s": false, "d-20%-10s-rate-75%": false]
        #expect(Set(experiment.variants.map(\.name)) == Set(published.keys))
        for (name, scenario) in experiment.variants {
            let law = try #require(Explainer.explain(scenario).services.first?.trigger)
            #expect(law.tips == published[name], "\(name): explain says tips \(law.tips)")
        }
        let results = try experiment.compare(ExperimentOptions(replications: 5, jobs: 2))
        for (name, metastable) in published {
            let stuck = results.summaries(name).filter { $0.value(.stuck) == 1 }.count
            #expect(stuck == (metastable ? 5 : 0), "\(name): \(stuck) of 5 stuck")
        }
    }

    /// experiments/recovery-load.yaml: tipped at 210/s, the load cut at 60 s. The sustain law puts
    /// the boundary at 142.8/s of first attempts (714.2/s served at the critical backlog over 5
    /// attempts, docs/models.md). Cuts 12% or more above it stay stuck in every replication; cuts
    /// at or below 98% of it recover in every one (the simulator's own boundary lies between 145
    /// and 150/s, 2–5% above the law's, inside the tolerance "away from the boundary" allows).
    @Test("recovery-load: stuck at every cut ≥ 1.12 × the sustain law's 142.8/s, recovered at every cut ≤ 0.98 ×")
    func recoveryLoad() throws {
        let experiment = try Self.experiment("recovery-load")
        let sustain = try #require(Explainer.explain(experiment.base).services.first?.sustain)
        #expect(abs(sustain.maxFirstAttemptLoad - 142.8) < 0.1, "\(sustain.maxFirstAttemptLoad)")
        let results = try experiment.compare(ExperimentOptions(replications: 5, jobs: 2))
        for (name, load) in [("cut-to-200/s", 200.0), ("cut-to-160/s", 160), ("cut-to-140/s", 140), ("cut-to-130/s", 130), ("cut-to-100/s", 100)] {
            let ratio = load / sustain.maxFirstAttemptLoad
            let stuck = results.summaries(name).filter { $0.value(.stuck) == 1 }.count
            if ratio >= 1.12 { #expect(stuck == 5, "\(name): \(stuck) of 5 stuck") }
            if ratio <= 0.98 { #expect(stuck == 0, "\(name): \(stuck) of 5 stuck") }
        }
    }
}
