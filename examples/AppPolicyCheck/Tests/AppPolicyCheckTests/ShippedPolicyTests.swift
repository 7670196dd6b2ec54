import Foundation
import RetryPolicy
import Testing

/// The policy the app ships is the one it simulated. Fixtures/backoff-jitter.json was made by
///
///     .build/release/retrystorm policy export experiments/metastable.yaml --variant backoff-jitter
///
/// (the policy of metastable's `backoff-jitter` variant: up to 5 attempts, full-jitter exponential
/// backoff from 2 s, at most 60 s); the app decodes it and runs it with RetryPolicy's executor.
struct ShippedPolicyTests {
    static func policy() throws -> RetryPolicy {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/backoff-jitter", withExtension: "json"))
        return try JSONDecoder().decode(RetryPolicyFile.self, from: Data(contentsOf: url)).policy
    }

    /// Runs `failures` then a success (or failures only) through the executor on a recording
    /// clock, every jitter draw pinned at 0.5; returns the result or how it stopped, and the clock.
    static func run(_ failures: [NormalizedError], succeed: Bool) async throws -> (Result<Int, RetryStopped>, RecordingClock) {
        let clock = RecordingClock()
        let host = RetryHost(policy: try policy(), clock: clock)
        var record = OperationRecord()
        var random = FixedUniformSource(0.5)
        var left = failures
        do {
            let value = try await retrying(host: host, record: &record, random: &random) { attempt in
                if !left.isEmpty || !succeed { throw left.isEmpty ? NormalizedError.http(503) : left.removeFirst() }
                return attempt.number
            }
            return (.success(value), clock)
        } catch let stopped as RetryStopped {
            return (.failure(stopped), clock)
        }
    }

    @Test("the file decodes to the simulated policy: 5 attempts, exponential 2 s … 60 s, full jitter")
    func decoded() throws {
        let p = try Self.policy()
        #expect(p.maxAttempts == 5)
        #expect(p.backoff.kind == .exponential && p.backoff.jitter == .full)
        #expect(p.backoff.base == 2_000_000_000 && p.backoff.max == 60_000_000_000)
    }

    @Test("503 every time: sleeps of 1, 2, 4, 8 s (draw 0.5 of U[0, 2^(n−1) · 2 s)), then it gives up after 5 attempts")
    func exhausted() async throws {
        let (result, clock) = try await Self.run([], succeed: false)
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4), .seconds(8)])
        guard case .failure(let stopped) = result else {
            Issue.record("a 503 every time succeeded")
            return
        }
        #expect(stopped.reason == .attemptsExhausted)
        #expect(stopped.record.attemptCount == 5)
    }

    @Test("a timeout and a 502, then success: the third attempt's value after sleeps of 1 s and 2 s")
    func recovers() async throws {
        let (result, clock) = try await Self.run([.timedOut(.response), .http(502)], succeed: true)
        #expect(clock.sleeps == [.seconds(1), .seconds(2)])
        #expect(try result.get() == 3)
    }

    @Test("a 404 is not retried: it stops at once, needing a fix, without sleeping")
    func notRetried() async throws {
        let (result, clock) = try await Self.run([.http(404)], succeed: true)
        #expect(clock.sleeps.isEmpty)
        guard case .failure(let stopped) = result else {
            Issue.record("a 404 was retried")
            return
        }
        #expect(stopped.reason == .needsFix)
    }
}
