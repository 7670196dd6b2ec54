import RetryPolicy

/// A caller's own retry code for ``Scenario/customPolicy``: the policy value and the entry that
/// simulates with it, made where its type is known.
///
/// Every client runs it through ``CallerPolicy``, the one wrapper type the event loop is
/// specialised for when the engine is compiled: the loop is static code, only the policy's own
/// calls are dynamic, and it runs as fast as the loop for the library's ``RetryPolicy`` within
/// noise (`make bench`, `policy-custom` against `policy-library`). No other module needs the
/// engine's generic code, so the package builds without cross-module optimisation.
package struct CustomPolicy: Sendable {
    /// The policy, for what describes a run.
    package let policy: any ClientPolicy
    /// Simulates a replication with every client running ``policy``.
    let simulate: @Sendable (Scenario, Int, EngineOptions, SimulationProgress?) -> ReplicationResult

    package init<Policy: ClientPolicy>(_ policy: Policy) {
        self.policy = policy
        simulate = { scenario, replication, options, progress in
            Simulator.run(scenario, custom: policy, replication: replication, options: options, progress: progress)
        }
    }
}
