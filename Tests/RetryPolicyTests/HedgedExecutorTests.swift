import Foundation
import RetryPolicy
import TestSupport
import Testing

/// `hedging(host:…)`, the executor an app runs a hedged policy with, on a manual clock: the copies
/// it starts, the first success winning and cancelling the others, failures starting the next copy
/// at once, the stop, and cancellation leaving the host clean. The same state machines as the
/// simulator's (`HedgingPolicyTests` pins their arithmetic).
struct HedgedExecutorTests {
    /// The attempts an operation saw and which of its runs were cancelled, across its concurrent copies.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [Attempt] = []
        private var cancelledNumbers: [Int] = []
        var attempts: [Attempt] { lock.withLock { seen } }
        var cancelled: [Int] { lock.withLock { cancelledNumbers } }
        func started(_ a: Attempt) { lock.withLock { seen.append(a) } }
        func wasCancelled(_ a: Attempt) { lock.withLock { cancelledNumbers.append(a.number) } }
    }

    static func policy(delay: Nanoseconds, copies: Int) -> RetryPolicy {
        var p = RetryPolicy(backoff: .immediate, maxAttempts: 1)
        p.hedging = Hedging(delay: .fixed(delay), maxAttempts: copies)
        return p
    }

    /// Copy 1 hangs; 50 ms later (the clock's one sleep) copy 2 starts and answers 2, which is
    /// returned; copy 1's task is cancelled. Two copies at most: no timer after the second.
    @Test("the first success wins: copy 2 answers while copy 1 hangs, and copy 1 is cancelled")
    func firstSuccessWins() async throws {
        let clock = ManualClock()
        let host = RetryHost(policy: Self.policy(delay: 50_000_000, copies: 2), clock: clock)
        let log = Log()
        var record = OperationRecord()
        var random = FixedUniformSource(0.5)
        let value = try await hedging(host: host, record: &record, random: &random) { attempt in
            log.started(attempt)
            guard attempt.number == 2 else {
                do { try await Task.sleep(for: .seconds(3600)) } catch { log.wasCancelled(attempt) }
                throw CancellationError()
            }
            return attempt.number
        }
        #expect(value == 2)
        #expect(log.attempts.map(\.number).sorted() == [1, 2])
        #expect(log.cancelled == [1])
        #expect(clock.sleeps == [.milliseconds(50)])
        #expect(record.attemptCount == 2 && record.phase == .succeeded)
        #expect(await host.state.inFlight == 0)
    }

    /// Every copy fails with a retryable 503, and the 10 s delay never comes (the clock suspends
    /// sleepers): each failure starts the next copy at once, 3 in all, and the third's failure
    /// stops the operation (attempts exhausted). Each of the first two copies started a timer.
    @Test("a retryable failure starts the next copy at once; the last copy's failure stops it")
    func failuresSendNext() async throws {
        let clock = ManualClock(autoAdvance: false)
        let host = RetryHost(policy: Self.policy(delay: 10_000_000_000, copies: 3), clock: clock)
        let log = Log()
        var record = OperationRecord()
        var random = FixedUniformSource(0.5)
        do {
            _ = try await hedging(host: host, record: &record, random: &random) { attempt -> Int in
                log.started(attempt)
                throw NormalizedError.http(503)
            }
            Issue.record("expected RetryStopped")
        } catch let stopped as RetryStopped {
            #expect(stopped.reason == .attemptsExhausted)
            #expect((stopped.lastError as? NormalizedError) == .http(503))
        }
        #expect(log.attempts.map(\.number) == [1, 2, 3])
        #expect(log.attempts.map(\.previousFailure) == [nil, .serverError, .serverError])
        #expect(clock.sleeps == [.seconds(10), .seconds(10)])
        #expect(await host.state.inFlight == 0)
    }

    /// A failure the classifier does not retry (404) ends the operation at its first copy.
    @Test("a fatal failure stops at once with its reason")
    func fatalStops() async throws {
        let host = RetryHost(policy: Self.policy(delay: 10_000_000_000, copies: 3), clock: ManualClock(autoAdvance: false))
        var record = OperationRecord()
        var random = FixedUniformSource(0.5)
        await #expect(throws: RetryStopped.self) {
            _ = try await hedging(host: host, record: &record, random: &random) { _ -> Int in throw NormalizedError.http(404) }
        }
        #expect(record.attemptCount == 1)
        #expect(await host.state.inFlight == 0)
    }

    /// The task is cancelled while both copies hang: CancellationError, both copies' tasks
    /// cancelled, the host holds nothing in flight, and the record stops as cancelled.
    @Test("cancelling the task cancels every copy and leaves the host clean")
    func cancellation() async throws {
        let clock = ManualClock()
        let host = RetryHost(policy: Self.policy(delay: 1_000_000, copies: 2), clock: clock)
        let log = Log()
        let task = Task {
            var record = OperationRecord()
            var random = FixedUniformSource(0.5)
            do {
                return try await hedging(host: host, record: &record, random: &random) { attempt -> Int in
                    log.started(attempt)
                    do { try await Task.sleep(for: .seconds(3600)) } catch { log.wasCancelled(attempt) }
                    throw CancellationError()
                }
            } catch {
                #expect(record.phase == .stopped(.cancelled))
                throw error
            }
        }
        for _ in 0..<100_000 where log.attempts.count < 2 { await Task.yield() }
        #expect(log.attempts.count == 2)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(log.cancelled.sorted() == [1, 2])
        #expect(await host.state.inFlight == 0)
    }

    /// A policy without hedging runs as `retrying`: the backoff's exact sleeps.
    @Test("without hedging it is retrying: sleeps of 1 s and 2 s, attempts one at a time")
    func withoutHedging() async throws {
        let clock = ManualClock()
        let p = RetryPolicy(backoff: Backoff(kind: .exponential, base: second, max: 60 * second, jitter: .none), maxAttempts: 4)
        let host = RetryHost(policy: p, clock: clock)
        let log = Log()
        var record = OperationRecord()
        var random = FixedUniformSource(0.5)
        let value = try await hedging(host: host, record: &record, random: &random) { attempt -> Int in
            log.started(attempt)
            if attempt.number < 3 { throw NormalizedError.http(503) }
            return attempt.number
        }
        #expect(value == 3)
        #expect(clock.sleeps == [.seconds(1), .seconds(2)])
    }
}
