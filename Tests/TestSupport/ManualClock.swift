import Foundation

/// A test clock that records the sleeps of the code under test. With `autoAdvance` a sleep moves
/// time to its deadline at once, so a test sees the exact delays without waiting for them.
/// Without it a sleeper waits until the test moves time on (``step()``) or its task is cancelled:
/// a test that never steps checks that cancellation ends a sleep, and one that steps decides when
/// each sleeper wakes, so the order of wake-ups is the same on every run.
public final class ManualClock: Clock, @unchecked Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var recorded: [Duration] = []
    private var waiting: [Sleeper] = []
    private var nextID = 0
    public let autoAdvance: Bool
    private let witness: (@Sendable () -> Void)?

    /// - Parameter witness: called on every reading of the clock and every sleep, in the caller's
    ///   context: a test that runs the code under test on an executor of its own checks with it
    ///   that the code (an actor's methods read `now` too) ran nowhere else.
    public init(autoAdvance: Bool = true, witness: (@Sendable () -> Void)? = nil) {
        self.autoAdvance = autoAdvance
        self.witness = witness
    }

    public var now: Instant {
        witness?()
        return lock.withLock { current }
    }
    public var minimumResolution: Duration { .nanoseconds(1) }
    /// Every sleep so far, as the time from its start to its deadline.
    public var sleeps: [Duration] { lock.withLock { recorded } }
    /// Sleepers suspended right now (without `autoAdvance`).
    public var sleepers: Int { lock.withLock { waiting.count } }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await wait(until: deadline, record: true)
    }

    /// Sleeps `duration` like ``sleep(until:tolerance:)`` but leaves it out of ``sleeps``: time a
    /// test spends on the clock itself (a service it models) is not a sleep of the code under test.
    public func hold(for duration: Duration) async throws {
        try await wait(until: now.advanced(by: duration), record: false)
    }

    private func wait(until deadline: Instant, record: Bool) async throws {
        witness?()
        try Task.checkCancellation()
        let id: Int? = lock.withLock {
            if record { recorded.append(deadline.offset - current.offset) }
            if autoAdvance {
                if current < deadline { current = deadline }
                return nil
            }
            nextID += 1
            return nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                // The task may have been cancelled after the check above, its handler finding no sleeper to wake.
                let cancelled: Bool = lock.withLock {
                    if Task.isCancelled { return true }
                    waiting.append(Sleeper(id: id, deadline: deadline, continuation: c))
                    return false
                }
                if cancelled { c.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let c: CheckedContinuation<Void, any Error>? = lock.withLock {
                guard let i = waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return waiting.remove(at: i).continuation
            }
            c?.resume(throwing: CancellationError())
        }
    }

    /// Moves time to the earliest deadline and wakes the sleeper due first, ties in the order they
    /// fell asleep (as the engine orders its events); false if none sleeps. One sleeper a step, so
    /// that what the first does when it wakes comes before the next wakes, as in the engine.
    @discardableResult
    public func step() -> Bool {
        let due: CheckedContinuation<Void, any Error>? = lock.withLock {
            guard let i = waiting.indices.min(by: { (waiting[$0].deadline, waiting[$0].id) < (waiting[$1].deadline, waiting[$1].id) })
            else { return nil }
            if current < waiting[i].deadline { current = waiting[i].deadline }
            return waiting.remove(at: i).continuation
        }
        guard let due else { return false }
        due.resume()
        return true
    }
}
