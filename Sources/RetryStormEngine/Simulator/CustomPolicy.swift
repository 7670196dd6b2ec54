import RetryPolicy

/// A caller's own retry code for ``Scenario/customPolicy``: the policy value and the entry that
/// simulates with it, made where its type is known.
///
/// The engine is built with cross-module optimisation, so its generic code is available to other
/// modules: `CustomPolicy(myPolicy)` in an app's module specialises the whole event loop for the
/// app's type there, with static, inlinable calls — as fast as the loop specialised for the
/// library's ``RetryPolicy`` (`make bench`, `policy-custom` against `policy-library`). Only the
/// choice of entry is dynamic, once per replication.
public struct CustomPolicy: Sendable {
    /// The policy, for what describes a run.
    public let policy: any ClientPolicy
    /// Simulates a replication with every client running ``policy``.
    let simulate: @Sendable (Scenario, Int, EngineOptions, SimulationProgress?) -> ReplicationResult

    public init<Policy: ClientPolicy>(_ policy: Policy) {
        self.policy = policy
        simulate = { scenario, replication, options, progress in
            Simulator.run(scenario, custom: policy, replication: replication, options: options, progress: progress)
        }
    }
}
