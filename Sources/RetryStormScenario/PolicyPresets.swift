import RetryPolicy

/// The named starting points of `policy.preset`: the scenario format's own `none` and the policy
/// library's thirteen presets (``RetryPolicy/presets``), so the simulator runs exactly what apps ship.
enum PolicyPresets {
    static let names = ["none"] + RetryPolicy.presets.map(\.name)

    /// `none`: the scenario format's own defaults (exponential backoff, base 1 s, max 60 s, full
    /// jitter, 6 attempts, Retry-After honoured as a minimum, no budget, breaker or limit).
    static let none = RetryPolicy(
        backoff: Backoff(kind: .exponential, base: 1_000_000_000, max: 60_000_000_000, multiplier: 2, jitter: .full),
        maxAttempts: 6)

    static func policy(named name: String) -> RetryPolicy {
        RetryPolicy.preset(named: name) ?? none
    }
}
