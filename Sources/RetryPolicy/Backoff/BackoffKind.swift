/// The shape of the wait before each retry, before jitter.
public enum BackoffKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// No wait at all: retry immediately (the naive baseline).
    case none
    /// `base` before every retry.
    case constant
    /// `base · n` before retry `n` (Polly's linear: `(a + 1) · Delay`).
    case linear
    /// `base · multiplier^(n − 1 + exponentOffset)` before retry `n`.
    case exponential
}
