import RetryPolicy

/// The named starting points of `policy.preset`.
enum PolicyPresets {
    static let names = ["none"]

    /// `none`: the scenario format's own defaults (exponential backoff, base 1 s, max 60 s, full
    /// jitter, 6 attempts, Retry-After honoured as a minimum, no budget).
    static func policy(named name: String) -> RetryPolicy {
        RetryPolicy(
            backoff: Backoff(kind: .exponential, base: 1_000_000_000, max: 60_000_000_000, multiplier: 2, jitter: .full),
            maxAttempts: 6)
    }
}
