import Foundation
import RetryPolicy
import Testing

/// The persisted schedule (offline-first chapter: "Persist the next eligible time … so app restarts
/// don't reset the schedule"; "Resetting retry state on app restart" as a pitfall).
struct RestartTests {
    @Test("an operation record and a host guard survive a JSON round trip unchanged")
    func codable() throws {
        var driver = Driver(.offlineFirst)
        var record = OperationRecord(lane: .background)
        driver.run([.http(503), .http(500)], record: &record)
        for _ in 0..<3 { driver.run([.http(503)]) }
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        #expect(try decoder.decode(OperationRecord.self, from: encoder.encode(record)) == record)
        #expect(try decoder.decode(HostGuard.self, from: encoder.encode(driver.host)) == driver.host)
        #expect(try decoder.decode(RetryPolicy.self, from: encoder.encode(RetryPolicy.offlineFirst)) == .offlineFirst)
        #expect(record.attemptCount == 2 && record.nextAttemptAt != nil && record.lastErrorClass == .serverError)
        var stopped = OperationRecord()
        var naive = Driver(.naiveImmediate)
        naive.run(Array(repeating: .http(404), count: 4), record: &stopped)
        #expect(stopped.phase == .stopped(.attemptsExhausted) && stopped.blockedReason == .attemptsExhausted)
        #expect(try decoder.decode(OperationRecord.self, from: encoder.encode(stopped)) == stopped)
    }

    /// 100 operations whose retries were spread over 0…60 s by jitter when the app is killed at t = 10 s.
    static func spreadOperations(_ p: RetryPolicy) -> [OperationRecord] {
        var host = HostGuard(policy: p)
        var random = SplitMix(seed: 7)
        return (0..<100).map { _ in
            var r = OperationRecord()
            _ = p.admit(record: &r, host: &host, now: 0, random: &random)
            p.attemptStarted(record: &r, host: &host, now: 0)
            _ = p.decide(after: .http(503), record: &r, host: &host, now: 0, random: &random)
            return r
        }
    }

    @Test("keep: after a restart the retries stay where the schedule put them; reset: all 100 are due at once (the storm)")
    func keepVersusReset() {
        var p = RetryPolicy(backoff: Backoff(kind: .constant, base: 60 * second, max: 60 * second, jitter: .full), maxAttempts: 5)
        var kept = Self.spreadOperations(p)
        let scheduled = kept.map { $0.nextAttemptAt! }
        let due = kept.indices.map { p.restart(record: &kept[$0], now: 10 * second)! }
        #expect(due == scheduled.map { max($0, 10 * second) })
        #expect(Set(due).count > 50)
        #expect(kept.allSatisfy { $0.attemptCount == 1 })

        p.onRestart = .reset
        var reset = Self.spreadOperations(p)
        let dueAfterReset = reset.indices.map { p.restart(record: &reset[$0], now: 10 * second)! }
        #expect(Set(dueAfterReset) == [10 * second])
        #expect(reset.allSatisfy { $0.attemptCount == 0 && $0.nextAttemptAt == nil })
    }

    @Test("keep: an attempt in flight when the app died has an unknown outcome and is due now")
    func inFlightAtRestart() {
        let p = RetryPolicy.offlineFirst
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.5)
        var record = OperationRecord()
        _ = p.admit(record: &record, host: &host, now: 0, random: &random)
        p.attemptStarted(record: &record, host: &host, now: 0)
        #expect(p.restart(record: &record, now: 5 * second) == 5 * second)
        #expect(record.phase == .unknown && record.attemptCount == 1)
        p.restart(host: &host)
        #expect(host.inFlight == 0)
    }

    @Test("keep: a half-open breaker whose probe died with the app lets a new probe through")
    func probeLostInRestart() {
        let p = RetryPolicy(backoff: .immediate, maxAttempts: 1, breaker: .offlineFirst)
        var driver = Driver(p)
        for _ in 0..<5 { driver.run([.http(503)]) }
        var probe = OperationRecord()
        #expect(p.admit(record: &probe, host: &driver.host, now: 30 * second, random: &driver.random) == .proceed)
        p.attemptStarted(record: &probe, host: &driver.host, now: 30 * second)
        var other = OperationRecord()
        #expect(p.admit(record: &other, host: &driver.host, now: 31 * second, random: &driver.random) == .wait(until: 60 * second))
        p.restart(host: &driver.host)
        #expect(p.admit(record: &other, host: &driver.host, now: 31 * second, random: &driver.random) == .proceed)
    }

    @Test("host state: keep keeps the quota and the breaker; reset forgets them")
    func hostState() {
        var p = RetryPolicy.awsStandard
        p.breaker = .offlineFirst
        p.onRestart = .keep
        var driver = Driver(p)
        for _ in 0..<5 { driver.run([.http(503), .http(503)]) }
        #expect(driver.host.breaker.stage == .open)
        let tokens = driver.host.budget.tokens
        var kept = driver.host
        p.restart(host: &kept)
        #expect(kept.budget.tokens == tokens && kept.breaker.stage == .open)
        p.onRestart = .reset
        var reset = driver.host
        p.restart(host: &reset)
        #expect(reset == HostGuard(policy: p))
    }

    @Test("a record persisted on one clock epoch is shifted onto another")
    func shift() {
        var record = OperationRecord()
        record.firstAttemptAt = 5 * second
        record.nextAttemptAt = 9 * second
        record.shift(by: -4 * second)
        #expect(record.firstAttemptAt == second && record.nextAttemptAt == 5 * second && record.lastAttemptAt == nil)
    }
}
