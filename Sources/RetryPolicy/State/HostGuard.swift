/// The state a client keeps per host (or endpoint) across operations: its retry budget, its
/// circuit breaker, its adaptive throttle, its attempts in flight and waiting for a slot. The
/// matching configuration lives in ``RetryPolicy``; only the parts it enables change.
///
/// A plain value of fixed size (no references, no allocation), so the simulator keeps one per
/// simulated client in a raw buffer and an app persists it with `Codable`.
///
/// - Warning: A value type with no locking: an app keeps one per host inside an actor
///   (``RetryHost``) or a mutex; the simulator keeps one per simulated client and host.
public struct HostGuard: Sendable, Hashable, Codable {
    /// The retry budget's tokens, stamps and window (``RetryPolicy/budget``).
    public var budget: RetryBudgetState
    /// The circuit breaker's phase, epoch and trips (``RetryPolicy/breaker``); stays closed and
    /// unused without a breaker.
    public var breaker: CircuitBreakerState
    /// The adaptive throttle's request and accept counts (``RetryPolicy/throttle``); unused without one.
    public var throttle: AdaptiveThrottleState
    /// Attempts started and not yet ended.
    public var inFlight: Int32 = 0
    /// User-initiated operations waiting for a concurrency slot.
    public var waitingUserInitiated: Int32 = 0
    /// Background operations waiting for a concurrency slot.
    public var waitingBackground: Int32 = 0

    /// The state a client starts with under `policy`: its budget full (or empty where it counts
    /// up), the breaker closed, the throttle's counts empty, nothing in flight or waiting. The same
    /// as ``RetryPolicy/makeHostGuard()``.
    public init(policy: RetryPolicy) {
        budget = RetryBudgetState(policy.budget)
        breaker = CircuitBreakerState()
        throttle = AdaptiveThrottleState()
    }

    /// The state of a host whose policy keeps no budget, breaker or throttle (a ``ClientPolicy``'s
    /// default).
    public init() {
        budget = RetryBudgetState(.unlimited)
        breaker = CircuitBreakerState()
        throttle = AdaptiveThrottleState()
    }

    /// Operations waiting for a slot, both lanes.
    @inlinable public var waiting: Int32 { waitingUserInitiated &+ waitingBackground }

    /// Whether an attempt in `lane` may take a slot now: under the lane's limit, and for
    /// background work, no user-initiated work waiting.
    @inlinable public func hasSlot(_ limit: ConcurrencyLimit, lane: Lane) -> Bool {
        inFlight < limit.limit(lane) && (lane == .userInitiated || waitingUserInitiated == 0)
    }

    @inlinable mutating func joinSlotQueue(_ lane: Lane) {
        if lane == .userInitiated { waitingUserInitiated &+= 1 } else { waitingBackground &+= 1 }
    }

    @inlinable mutating func leaveSlotQueue(_ lane: Lane) {
        if lane == .userInitiated {
            waitingUserInitiated = Swift.max(0, waitingUserInitiated &- 1)
        } else {
            waitingBackground = Swift.max(0, waitingBackground &- 1)
        }
    }
}
