import AppRetry
import Foundation
import RetryStormKit

/// experiments/custom-policies.yaml with the app's two policies added as variants: the experiment
/// behind results/custom-policies (written by the `custom-policies` executable, checked by the
/// tests).
public enum CustomPoliciesExperiment {
    /// The repository's root, from this file's place in it.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The scenario file: the presets to compare with, as its `variants:`.
    public static let scenario = root.appendingPathComponent("experiments/custom-policies.yaml")

    /// Where its results are committed.
    public static let results = root.appendingPathComponent("results/custom-policies")

    /// Replications per variant (intervals need at least 2).
    public static let options = ExperimentOptions(replications: 3)

    /// The scenario's variants (presets) followed by the app's policies, run by every client.
    public static func experiment() throws -> Experiment {
        try Experiment(contentsOf: scenario)
            .adding(variant: "seed-network-client", running: SeedNetworkClientPolicy())
            .adding(variant: "retry-bang", running: RetryBangPolicy())
    }
}
