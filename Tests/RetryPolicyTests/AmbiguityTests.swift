import RetryPolicy
import Testing

/// Ambiguous outcomes (the offline-first chapter's "Handling ambiguous outcomes safely"; gRPC's
/// committed RPCs, urllib3's method allowlist, the IETF Idempotency-Key draft — reference §9.1, §12).
struct AmbiguityTests {
    static func policy(_ idempotency: Idempotency, reconcile: Bool = false) -> RetryPolicy {
        RetryPolicy(backoff: Backoff(kind: .constant, base: second, max: second), maxAttempts: 3,
                    ambiguity: AmbiguityPolicy(idempotency: idempotency, reconcile: reconcile, reconcileDelay: 100 * ms))
    }

    @Test("with an idempotency key a response timeout is retried; the record shows the outcome as unknown meanwhile")
    func keyed() {
        var driver = Driver(Self.policy(.key))
        var record = OperationRecord()
        #expect(driver.run([.timedOut(.response)], record: &record) == [.retry(at: second)])
        #expect(record.phase == .unknown)
    }

    @Test("without a key it is retried too (the simulator counts the duplicates); no-retry stops it as ambiguousOutcome (blocked, not given up)")
    func unkeyed() {
        var blind = Driver(Self.policy(.none))
        #expect(blind.run([.timedOut(.response)]) == [.retry(at: second)])
        var careful = Driver(Self.policy(.notRetried))
        #expect(careful.run([.timedOut(.response)]) == [.stop(.ambiguousOutcome)])
        #expect(!StopReason.ambiguousOutcome.isGiveUp)
        // Unambiguous failures are retried as usual: a connect timeout sent nothing, a shed 503 was not processed.
        #expect(careful.run([.timedOut(.connect)]) == [.retry(at: second)])
        #expect(careful.run([.http(503, unprocessed: true)]) == [.retry(at: 2 * second)])  // the driver's clock is at 1 s
    }

    @Test("reconciliation: ask first; applied → confirmed (no second write); not applied → retry with backoff")
    func reconcile() {
        let p = Self.policy(.notRetried, reconcile: true)
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.5)
        var record = OperationRecord()
        _ = p.admit(record: &record, host: &host, now: 0, random: &random)
        p.attemptStarted(record: &record, host: &host, now: 0)
        #expect(p.decide(after: .timedOut(.response), record: &record, host: &host, now: 2 * second, random: &random)
                == .reconcile(at: 2 * second + 100 * ms))
        #expect(record.phase == .unknown)
        var applied = record
        #expect(p.reconciled(.applied, record: &applied, host: &host, now: 3 * second, random: &random) == .confirmed)
        #expect(applied.phase == .succeeded)
        var notApplied = record
        #expect(p.reconciled(.notApplied, record: &notApplied, host: &host, now: 3 * second, random: &random) == .retry(at: 4 * second))
        #expect(notApplied.phase == .willRetry)
    }

    @Test("reconciliation that cannot tell asks again after a backoff, until the attempts run out")
    func unknown() {
        let p = Self.policy(.key, reconcile: true)
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.5)
        var record = OperationRecord()
        _ = p.admit(record: &record, host: &host, now: 0, random: &random)
        p.attemptStarted(record: &record, host: &host, now: 0)
        _ = p.decide(after: .timedOut(.response), record: &record, host: &host, now: 0, random: &random)
        #expect(p.reconciled(.unknown, record: &record, host: &host, now: 100 * ms, random: &random) == .reconcile(at: 1100 * ms))
        #expect(p.reconciled(.unknown, record: &record, host: &host, now: 1100 * ms, random: &random) == .stop(.ambiguousOutcome))
    }
}
