/// How a write whose outcome is unknown is retried: a response timeout after the request was
/// sent, or a connection reset after bytes were written (the offline-first chapter's "ambiguous
/// outcomes"; gRPC never retries a committed RPC; urllib3 retries read errors only for idempotent
/// methods).
public enum Idempotency: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Every attempt carries the operation's idempotency key (IETF `Idempotency-Key`, AWS client
    /// tokens): the server applies it at most once, so retrying is safe.
    case key
    /// No key, retried anyway: if the failed attempt was applied, the retry applies the write a
    /// second time (the simulator counts these duplicates).
    case none
    /// No key, and ambiguous failures are not retried: the operation stops as
    /// ``StopReason/ambiguousOutcome`` (unless reconciliation settles it).
    case notRetried
}
