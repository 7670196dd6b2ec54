import RetryPolicy
import RetryStormEngine

/// Your retry code in the simulator: the scenario's server, workload and fleet from its keys, the
/// policy as a Swift value.
///
/// ```swift
/// struct ThreeImmediateRetries: ClientPolicy {
///     func decide<R: UniformSource & ~Copyable>(after failure: NormalizedError, record: inout OperationRecord,
///                                               host: inout HostGuard, now: Nanoseconds, random: inout R) -> RetryDecision {
///         record.attemptCount < 4 ? record.retry(at: now) : record.stop(.attemptsExhausted)
///     }
/// }
/// let results = try Experiment(contentsOf: url)
///     .adding(variant: "ours", running: ThreeImmediateRetries())
///     .compare(ExperimentOptions(replications: 5))
/// ```
///
/// The engine runs the custom policy exactly where it runs the library's ``RetryPolicy`` (which is
/// itself a ``ClientPolicy``), with an event loop specialised for its type.
extension Experiment {
    /// This experiment with every client of the base scenario and of every variant running
    /// `policy` in place of the scenario's `policy:` keys (which then only size the run's resource
    /// check). Variants added with ``adding(variant:running:)`` keep their own.
    public func running(_ policy: some ClientPolicy) -> Experiment {
        var copy = self
        copy.customPolicy = CustomPolicy(policy)
        return copy
    }

    /// This experiment with one more variant for ``compare(_:baseline:)``, after the scenario's
    /// own: the base scenario (the file's keys and overrides, no variant's) with every client
    /// running `policy`. A scenario that declares no variants runs its own policy first, as the
    /// point `base`: the baseline the added variants are paired with unless another is named, so
    /// a test compares its policy with the one the scenario ships.
    /// - Throws: ``ScenarioError`` for a name that is not a variant name or is already taken
    ///   (`base` too, for a scenario without variants).
    public func adding(variant name: String, running policy: some ClientPolicy) throws(ScenarioError) -> Experiment {
        let taken = variants.map(\.name) + customVariants.map(\.name) + (variants.isEmpty ? ["base"] : [])
        try Self.checkVariantName(name, at: SourceLocation(origin: .option("variant")), taken: taken)
        var copy = self
        copy.customVariants.append(CustomVariant(name: name, policy: CustomPolicy(policy)))
        return copy
    }

    /// `scenario` with ``customPolicy`` in place of its own, if one is set.
    func running(_ scenario: Scenario) -> Scenario {
        guard let customPolicy else { return scenario }
        var s = scenario
        s.customPolicy = customPolicy
        return s
    }

    /// Refuses a custom policy in a scenario with populations: each population may set its own
    /// `policy.*` keys, which the custom policy would silently replace.
    static func checkCustomPolicies(_ study: Study) throws(ScenarioError) {
        for point in study.points where point.scenario.customPolicy != nil && !point.scenario.populations.isEmpty {
            throw ScenarioError(
                SourceLocation(origin: .option("variant \(point.name)")), field: "populations",
                "a custom policy runs every client, so it cannot run with populations, whose policies differ: remove `populations:` from the scenario"
            )
        }
    }
}
