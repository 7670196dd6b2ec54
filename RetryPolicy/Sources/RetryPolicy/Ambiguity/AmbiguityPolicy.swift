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

    /// No keys, retried anyway: a retry after an ambiguous failure may apply the write twice.
    public static let blind = AmbiguityPolicy(idempotency: .none)
}
