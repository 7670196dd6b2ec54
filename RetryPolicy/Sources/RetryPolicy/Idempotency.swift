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

/// What the policy does with ambiguous failures.
public struct AmbiguityPolicy: Sendable, Hashable, Codable {
    public var idempotency: Idempotency
    /// Ask the server whether the operation took effect before retrying it (the chapter's status
    /// reconciliation): ``RetryDecision/reconcile(at:)``.
    public var reconcile: Bool
    /// How long after the failure to ask.
    public var reconcileDelay: Nanoseconds

    public init(idempotency: Idempotency = .key, reconcile: Bool = false, reconcileDelay: Nanoseconds = 0) {
        self.idempotency = idempotency
        self.reconcile = reconcile
        self.reconcileDelay = reconcileDelay
    }

    /// The same with the reconciliation delay as a `Duration` (truncated to whole nanoseconds).
    @_disfavoredOverload
    public init(idempotency: Idempotency = .key, reconcile: Bool = false, reconcileDelay: Duration) {
        self.init(idempotency: idempotency, reconcile: reconcile, reconcileDelay: Time.nanoseconds(reconcileDelay))
    }

    /// Idempotency keys, no reconciliation.
    public static let keyed = AmbiguityPolicy()
}

/// The server's answer to a reconciliation query.
public enum ReconcileResult: UInt8, Sendable, Hashable, Codable {
    /// The operation took effect: it succeeded.
    case applied
    /// It did not: retry it.
    case notApplied
    /// The query failed too: ask again later.
    case unknown
}

/// What a client does with its persisted retry state when the app restarts.
public enum RestartSchedule: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Keep the persisted records (attempt counts, `nextAttemptAt`) and host state: the chapter's
    /// advice ("on app resume … do not reset nextAttemptAt").
    case keep
    /// Forget them: every operation starts over at attempt 1, immediately — the pitfall that
    /// turns force-quits into retry storms.
    case reset
}
