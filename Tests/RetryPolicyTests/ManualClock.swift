import Foundation

/// A test clock that records every sleep and either advances time to its deadline at once
/// (`autoAdvance`) or suspends the sleeper until the task is cancelled.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var recorded: [Duration] = []
    private var waiting = 0
    let autoAdvance: Bool

    init(autoAdvance: Bool = true) { self.autoAdvance = autoAdvance }

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .nanoseconds(1) }
    /// Every sleep so far, as the time from its start to its deadline.
    var sleeps: [Duration] { lock.withLock { recorded } }
    /// Sleepers suspended right now (suspending mode).
    var sleepers: Int { lock.withLock { waiting } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let suspend: Bool = lock.withLock {
            recorded.append(deadline.offset - current.offset)
            if autoAdvance {
                if current < deadline { current = deadline }
                return false
            }
            waiting += 1
            return true
        }
        guard suspend else { return }
        defer { lock.withLock { waiting -= 1 } }
        // Suspended until cancelled: `retrying` must notice cancellation while it sleeps.
        let stream = AsyncStream<Never> { _ in }
        for await _ in stream {}
        throw CancellationError()
    }
}
