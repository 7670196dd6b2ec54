/// A client-side limit on retries across operations to one host: a budget refuses a retry that
/// would push the client's retry traffic past its share, so retries cannot multiply an overload.
public enum RetryBudget: Sendable, Hashable, Codable {
    /// No limit beyond each operation's own attempts.
    case unlimited
    /// At most `retries` retries per run (a sync session, an app launch): the offline-first
    /// chapter's "retry budget per sync run".
    case perRun(retries: Int)
}

/// The mutable side of a ``RetryBudget`` for one client and host.
public struct RetryBudgetState: Sendable, Hashable, Codable {
    /// Remaining retries of a `perRun` budget.
    public var remaining: Int

    public init(_ budget: RetryBudget) {
        switch budget {
        case .unlimited: remaining = .max
        case .perRun(let n): remaining = n
        }
    }

    /// Takes one retry from the budget; false when none is left. Returns the cost taken through `cost`.
    @inlinable public mutating func tryAcquire(_ budget: RetryBudget, failure: FailureClass, now: Nanoseconds, cost: inout Int32) -> Bool {
        switch budget {
        case .unlimited:
            cost = 0
            return true
        case .perRun:
            guard remaining > 0 else { return false }
            remaining -= 1
            cost = 1
            return true
        }
    }
}
