import RetryPolicy
import TestSupport
import Testing

/// The async executor on a manual clock: the exact sleeps, stops, cancellation, shared host state.
struct ExecutorTests {
    struct Flaky: NormalizedErrorConvertible {
        var normalizedError: NormalizedError
    }

    /// An operation that fails with `errors` in turn, then returns the attempt number.
    final class Script: @unchecked Sendable {
        var errors: [any Error]
        var attempts: [Attempt] = []
        init(_ errors: [any Error]) { self.errors = errors }
        func run(_ a: Attempt) throws -> Int {
            attempts.append(a)
            if !errors.isEmpty { throw errors.removeFirst() }
            return a.number
        }
    }

    /// Runs `script` through a fresh host on an auto-advancing manual clock; returns its result and record.
    static func run(
        _ p: RetryPolicy, _ script: Script, refresh: (() async throws -> Void)? = nil,
        reconcile: ((Attempt) async throws -> Int?)? = nil
    ) async throws -> (Int, OperationRecord) {
        let host = RetryHost(policy: p, clock: ManualClock())
        var record = OperationRecord()
        var random = FixedUniformSource(0.5)
        let v = try await retrying(host: host, record: &record, random: &random, refreshCredentials: refresh, reconcile: reconcile) {
            try script.run($0)
        }
        return (v, record)
    }

    static let exponential = RetryPolicy(
        backoff: Backoff(kind: .exponential, base: second, max: 60 * second, jitter: .none), maxAttempts: 4)

    @Test("three failures, then success: sleeps of exactly 1 s, 2 s, 4 s, and attempts numbered 1…4")
    func exactSleeps() async throws {
        let clock = ManualClock()
        let script = Script([NormalizedError.http(503), Flaky(normalizedError: .timedOut(.response)), NormalizedError.http(502)])
        let value = try await retrying(Self.exponential, clock: clock) { try script.run($0) }
        #expect(value == 4)
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
        #expect(script.attempts.map(\.number) == [1, 2, 3, 4])
        #expect(script.attempts.map(\.isRetry) == [false, true, true, true])
        #expect(script.attempts[1].previousFailure == .serverError && script.attempts[2].previousFailure == .timeout)
        #expect(script.attempts.allSatisfy { $0.sendsIdempotencyKey })
    }

    @Test("Retry-After 10 s: the executor sleeps 10 s, never sooner")
    func retryAfter() async throws {
        let clock = ManualClock()
        let script = Script([NormalizedError.http(429, retryAfter: 10 * second)])
        _ = try await retrying(Self.exponential, clock: clock) { try script.run($0) }
        #expect(clock.sleeps == [.seconds(10)])
    }

    @Test("a 404 stops at once with needsFix and the operation's error; no sleep")
    func stop() async throws {
        let clock = ManualClock()
        let script = Script([NormalizedError.http(404)])
        do {
            _ = try await retrying(Self.exponential, clock: clock) { try script.run($0) }
            Issue.record("expected RetryStopped")
        } catch let stopped as RetryStopped {
            #expect(stopped.reason == .needsFix)
            #expect((stopped.lastError as? NormalizedError) == .http(404))
            #expect(stopped.record.attemptCount == 1)
        }
        #expect(clock.sleeps.isEmpty)
    }

    @Test("attempts run out: RetryStopped(attemptsExhausted) after 4 attempts and 3 sleeps")
    func exhausted() async throws {
        let clock = ManualClock()
        let script = Script(Array(repeating: NormalizedError.http(500), count: 10))
        await #expect(throws: RetryStopped.self) { _ = try await retrying(Self.exponential, clock: clock) { try script.run($0) } }
        #expect(script.attempts.count == 4)
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test("cancellation during a backoff sleep ends the sleep and throws CancellationError; the host is left clean")
    func cancellation() async throws {
        let clock = ManualClock(autoAdvance: false)
        let host = RetryHost(policy: Self.exponential, clock: clock)
        let script = Script(Array(repeating: NormalizedError.http(503), count: 10))
        let task = Task {
            var record = OperationRecord()
            var random = FixedUniformSource(0.5)
            return try await retrying(host: host, record: &record, random: &random) { try script.run($0) }
        }
        for _ in 0..<10_000 where clock.sleepers == 0 { await Task.yield() }
        #expect(clock.sleepers == 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(script.attempts.count == 1)
        #expect(clock.sleeps == [.seconds(1)])
        #expect(await host.state.inFlight == 0)
    }

    @Test("a shared RetryHost shares the budget: per-run 2 retries across two calls")
    func sharedBudget() async throws {
        var p = Self.exponential
        p.budget = .perRun(retries: 2)
        let clock = ManualClock()
        let host = RetryHost(policy: p, clock: clock)
        var random = FixedUniformSource(0.5)
        var firstRecord = OperationRecord()
        let a = Script([NormalizedError.http(503), NormalizedError.http(503)])
        #expect(try await retrying(host: host, record: &firstRecord, random: &random) { try a.run($0) } == 3)
        var secondRecord = OperationRecord()
        let b = Script([NormalizedError.http(503)])
        do {
            _ = try await retrying(host: host, record: &secondRecord, random: &random) { try b.run($0) }
            Issue.record("expected RetryStopped")
        } catch let stopped as RetryStopped {
            #expect(stopped.reason == .budgetExhausted)
        }
        // Times are the host's: the second call's failure came after the first call's 3 s of sleep.
        #expect(secondRecord.lastAttemptAt == 3 * second)
    }

    @Test("401: credentials are refreshed before the retry, once")
    func refresh() async throws {
        let refreshes = Script([])
        let (v, _) = try await Self.run(
            .offlineFirst, Script([NormalizedError.http(401)]),
            refresh: {
                _ = try refreshes.run(Attempt(number: 1, previousFailure: nil, sendsIdempotencyKey: false))
            })
        #expect(v == 2 && refreshes.attempts.count == 1)
    }

    @Test("an ambiguous timeout is reconciled: the server applied it, so its result is returned without a second write")
    func reconcile() async throws {
        let script = Script([NormalizedError.timedOut(.response)])
        let (v, record) = try await Self.run(.offlineFirst, script, reconcile: { _ in 99 })
        #expect(v == 99)
        #expect(script.attempts.count == 1)
        #expect(record.phase == .succeeded)
    }

    @Test("any other error type is an unknown transport failure (retried); CancellationError from the operation is not")
    func normalizer() async throws {
        struct Opaque: Error {}
        let clock = ManualClock()
        let script = Script([Opaque()])
        #expect(try await retrying(Self.exponential, clock: clock) { try script.run($0) } == 2)
        let cancelling = Script([CancellationError()])
        await #expect(throws: CancellationError.self) { _ = try await retrying(Self.exponential, clock: clock) { try cancelling.run($0) } }
        #expect(cancelling.attempts.count == 1)
    }

    /// An async gate the test opens.
    actor Gate {
        var open = false
        var log: [String] = []
        func note(_ s: String) { log.append(s) }
        func wait() async { while !open { await Task.yield() } }
        func release() { open = true }
    }

    @Test("concurrency limit 1: the second call waits for the first attempt to end")
    func waitsForSlot() async throws {
        let p = RetryPolicy(backoff: .immediate, maxAttempts: 1, concurrency: ConcurrencyLimit(maxInFlight: 1))
        let host = RetryHost(policy: p, clock: ManualClock())
        let gate = Gate()
        let first = Task {
            var record = OperationRecord()
            var random = FixedUniformSource(0.5)
            return try await retrying(host: host, record: &record, random: &random) { _ in
                await gate.note("first started")
                await gate.wait()
                await gate.note("first done")
                return 1
            }
        }
        for _ in 0..<10_000 where await gate.log.isEmpty { await Task.yield() }
        let second = Task {
            var record = OperationRecord()
            var random = FixedUniformSource(0.5)
            return try await retrying(host: host, record: &record, random: &random) { _ in
                await gate.note("second started")
                return 2
            }
        }
        for _ in 0..<10_000 where await host.state.waiting == 0 { await Task.yield() }
        #expect(await host.state.waiting == 1)
        await gate.release()
        #expect(try await first.value == 1)
        #expect(try await second.value == 2)
        #expect(await gate.log == ["first started", "first done", "second started"])
    }

    @Test("background share 1 of 2: background waiters keep their arrival order (the host wakes by the simulator's rule)")
    func backgroundKeepsOrder() async throws {
        // Two user-initiated calls hold both slots; two background calls wait. When the first ends,
        // background is at its share (1 in flight of 1): nobody is woken — waking one would only
        // send it to the back of the queue when admit refused it, behind the later one.
        let p = RetryPolicy(
            backoff: .immediate, maxAttempts: 1,
            concurrency: ConcurrencyLimit(maxInFlight: 2, backgroundMaxInFlight: 1))
        let host = RetryHost(policy: p, clock: ManualClock())
        let log = Gate()
        let holds = [Gate(), Gate()]
        func call(_ name: String, lane: Lane, hold: Gate?) -> Task<Void, any Error> {
            Task {
                var record = OperationRecord(lane: lane)
                var random = FixedUniformSource(0.5)
                _ = try await retrying(host: host, record: &record, random: &random) { _ in
                    await log.note(name)
                    if let hold { await hold.wait() }
                    return 0
                }
            }
        }
        let u1 = call("u1", lane: .userInitiated, hold: holds[0])
        let u2 = call("u2", lane: .userInitiated, hold: holds[1])
        for _ in 0..<10_000 where await host.state.inFlight < 2 { await Task.yield() }
        let b1 = call("b1", lane: .background, hold: nil)
        for _ in 0..<10_000 where await host.state.waiting < 1 { await Task.yield() }
        let b2 = call("b2", lane: .background, hold: nil)
        for _ in 0..<10_000 where await host.state.waiting < 2 { await Task.yield() }
        await holds[0].release()
        try await u1.value
        await holds[1].release()
        try await u2.value
        try await b1.value
        try await b2.value
        #expect(await log.log == ["u1", "u2", "b1", "b2"])
    }
}
