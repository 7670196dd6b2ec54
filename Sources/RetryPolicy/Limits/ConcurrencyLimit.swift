/// A per-host limit on attempts in flight (Envoy `max_requests`, resilience4j `Bulkhead`, the
/// chapter's "only run a few at a time"), with a smaller share for background work.
///
/// An attempt may start while fewer than `maxInFlight` attempts of the host are in flight — fewer
/// than `backgroundMaxInFlight` for background work, which also waits while user-initiated work
/// waits. When it may not, it waits for a slot (``Admission/waitForSlot``) or fails
/// (``StopReason/concurrencyLimited``).
///
/// ```swift
/// // 6 attempts of a host at once, at most 2 of them background work; the rest queue.
/// var policy = RetryPolicy.offlineFirst
/// policy.concurrency = ConcurrencyLimit(maxInFlight: 6, backgroundMaxInFlight: 2)
/// ```
public struct ConcurrencyLimit: Sendable, Hashable, Codable {
    /// What an attempt does when its lane has no free slot.
    public enum WhenFull: UInt8, Sendable, Hashable, Codable {
        /// Wait until an attempt of the host ends (a bulkhead with a wait, the chapter's scheduler).
        case wait
        /// Fail the operation at once (Envoy's overflow, resilience4j's `maxWaitDuration` 0).
        case reject
    }

    /// At most this many attempts of the host in flight, both lanes together (≥ 1).
    public var maxInFlight: Int
    /// At most this many background attempts in flight (≤ `maxInFlight`).
    public var backgroundMaxInFlight: Int
    /// Wait for a slot (the default) or fail the operation at once.
    public var whenFull: WhenFull

    /// A limit of `maxInFlight` attempts (values below 1 become 1), `backgroundMaxInFlight` of them
    /// for background work (default: the same; clamped to 1…`maxInFlight`).
    public init(maxInFlight: Int, backgroundMaxInFlight: Int? = nil, whenFull: WhenFull = .wait) {
        self.maxInFlight = Swift.max(1, maxInFlight)
        self.backgroundMaxInFlight = Swift.min(self.maxInFlight, Swift.max(1, backgroundMaxInFlight ?? maxInFlight))
        self.whenFull = whenFull
    }

    /// The limit for `lane`.
    @inlinable public func limit(_ lane: Lane) -> Int32 {
        Int32(clamping: lane == .userInitiated ? maxInFlight : backgroundMaxInFlight)
    }
}
