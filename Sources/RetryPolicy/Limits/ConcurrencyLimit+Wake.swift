/// Who goes when a slot frees: one rule for an app's ``RetryHost`` and the simulator, so an app and
/// its simulation wake the same operations in the same order.
extension ConcurrencyLimit {
    /// Wakes operations waiting for a slot of a host one of whose attempts just ended: in each
    /// lane as many as it has free slots — its ``limit(_:)`` less the attempts in flight and the
    /// operations already woken but not yet admitted again (each holds a free slot) —
    /// user-initiated first, then background, each lane in arrival order. A woken operation asks
    /// `admit` again, which has the last word.
    /// - Parameters:
    ///   - inFlight: the host's attempts in flight (``HostGuard/inFlight``).
    ///   - pending: operations woken before this call and not yet admitted again.
    ///   - wakeFirst: takes the first waiter of the lane off its queue and wakes it: true; false
    ///     if it had stopped waiting (skipped: it takes no slot); nil when the lane has no waiter.
    /// - Returns: how many it woke, for the caller's count of pending operations.
    @inlinable
    public func wakeWaiters(inFlight: Int32, pending: Int32, _ wakeFirst: (Lane) -> Bool?) -> Int32 {
        var woken: Int32 = 0
        // Lanes in priority order, without an array: this runs after every attempt of a limited host.
        for raw in Lane.userInitiated.rawValue...Lane.background.rawValue {
            let lane = Lane(rawValue: raw).unsafelyUnwrapped
            var free = limit(lane) &- inFlight &- pending &- woken
            while free > 0, let woke = wakeFirst(lane) {
                if woke {
                    free &-= 1
                    woken &+= 1
                }
            }
        }
        return woken
    }
}
