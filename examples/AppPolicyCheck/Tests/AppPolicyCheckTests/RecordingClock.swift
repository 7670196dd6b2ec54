import Foundation

/// A clock on which every sleep returns at once, its deadline becoming the time, and is recorded:
/// the executor's delays are then read exactly, with no real waiting. Its instants are
/// `ContinuousClock`'s, starting at the real now, moved only by sleeps.
final class RecordingClock: Clock, @unchecked Sendable {
    typealias Instant = ContinuousClock.Instant

    // The executor sleeps from its own task; the lock keeps the record whole for the test's reads.
    private let lock = NSLock()
    private var time = ContinuousClock.now
    private var recorded: [Duration] = []

    var now: Instant { lock.withLock { time } }
    var minimumResolution: Duration { .nanoseconds(1) }
    /// Every sleep so far: from when it started to its deadline.
    var sleeps: [Duration] { lock.withLock { recorded } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        lock.withLock {
            recorded.append(time.duration(to: deadline))
            time = max(time, deadline)
        }
    }
}
