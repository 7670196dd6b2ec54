import RetryPolicy
import RetryStormEngine

/// A variant added in Swift: the experiment's base scenario with every client running the
/// caller's retry code (``Experiment/adding(variant:running:)``).
struct CustomVariant: Sendable {
    var name: String
    var policy: CustomPolicy

    /// The variant's scenario: `base` (the file's keys, no variant's) running ``policy``.
    func scenario(_ base: Scenario) -> Scenario {
        var scenario = base
        scenario.customPolicy = policy
        return scenario
    }
}
