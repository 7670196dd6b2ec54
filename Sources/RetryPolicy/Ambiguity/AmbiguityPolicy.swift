/// What the policy does with ambiguous failures.
public struct AmbiguityPolicy: Sendable, Hashable, Codable {
    /// Whether attempts carry an idempotency key, and so whether an ambiguous failure may be retried
    /// safely, blindly, or not at all (``Idempotency``). Default ``Idempotency/key``.
    public var idempotency: Idempotency
    /// Ask the server whether the operation took effect before retrying it (the chapter's status
    /// reconciliation): ``RetryDecision/reconcile(at:)``.
    public var reconcile: Bool
    /// How long after the failure to ask, in nanoseconds (0: at once). Read only when `reconcile`.
    public var reconcileDelay: Nanoseconds

    /// A policy for ambiguous failures; with no arguments it is ``keyed``.
    ///
    /// - Parameters:
    ///   - idempotency: keys (the default), none (``blind``), or no retry of ambiguous failures.
    ///   - reconcile: ask the server before retrying an ambiguous failure (default false).
    ///   - reconcileDelay: nanoseconds between the failure and the query (default 0).
    ///
    /// ```swift
    /// // Idempotency keys, and a status query 2 s after an ambiguous failure (the offline-first
    /// // preset asks at once).
    /// let ambiguity = AmbiguityPolicy(idempotency: .key, reconcile: true, reconcileDelay: .seconds(2))
    /// ```
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

    /// No keys, retried anyway: a retry after an ambiguous failure may apply the write twice.
    public static let blind = AmbiguityPolicy(idempotency: .none)
}

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
