import RetryPolicy
import Testing

/// The rule that decides who goes when a concurrency slot frees, shared by RetryHost and the
/// simulator (`ConcurrencyLimit.wakeWaiters`): per lane, its limit less attempts in flight less
/// operations woken and not yet admitted; user-initiated first; each lane in arrival order.
struct SlotWakeTests {
    /// Lanes' queues of named waiters; a name starting with "~" stopped waiting (skipped).
    struct Queues {
        var userInitiated: [String]
        var background: [String]
        var woken: [String] = []

        mutating func wakeFirst(_ lane: Lane) -> Bool? {
            let name: String
            if lane == .userInitiated {
                guard !userInitiated.isEmpty else { return nil }
                name = userInitiated.removeFirst()
            } else {
                guard !background.isEmpty else { return nil }
                name = background.removeFirst()
            }
            if name.hasPrefix("~") { return false }
            woken.append(name)
            return true
        }
    }

    @Test("limit 4 (background 3), 1 in flight: all user-initiated waiters first, then background up to its share")
    func userInitiatedFirst() {
        var q = Queues(userInitiated: ["a"], background: ["x", "y", "z"])
        // user-initiated: 4 − 1 − 0 = 3 free, one waiter; background: 3 − 1 − 0 − 1 woken = 1 free.
        let n = ConcurrencyLimit(maxInFlight: 4, backgroundMaxInFlight: 3).wakeWaiters(inFlight: 1, pending: 0) { q.wakeFirst($0) }
        #expect(n == 2 && q.woken == ["a", "x"] && q.background == ["y", "z"])
    }

    @Test("a waiter that stopped waiting takes no slot; one woken earlier and not yet admitted holds one")
    func skippedAndPending() {
        var q = Queues(userInitiated: ["~gone", "a", "b", "c"], background: ["x"])
        // 3 − 0 − 1 pending = 2 free: "~gone" skipped, a and b woken; background 1 − 0 − 1 − 2 < 0.
        let n = ConcurrencyLimit(maxInFlight: 3, backgroundMaxInFlight: 1).wakeWaiters(inFlight: 0, pending: 1) { q.wakeFirst($0) }
        #expect(n == 2 && q.woken == ["a", "b"] && q.userInitiated == ["c"] && q.background == ["x"])
    }

    @Test("background at its share wakes nobody, however many slots the host has free")
    func backgroundShare() {
        var q = Queues(userInitiated: [], background: ["x", "y"])
        let n = ConcurrencyLimit(maxInFlight: 2, backgroundMaxInFlight: 1).wakeWaiters(inFlight: 1, pending: 0) { q.wakeFirst($0) }
        #expect(n == 0 && q.woken.isEmpty && q.background == ["x", "y"])
    }
}
