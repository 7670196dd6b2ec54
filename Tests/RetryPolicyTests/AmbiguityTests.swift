import RetryPolicy
import Testing

/// Ambiguous outcomes (the offline-first chapter's "Handling ambiguous outcomes safely"; gRPC's
/// committed RPCs in `A6-client-retries.md`, urllib3's `allowed_methods` in
/// `src/urllib3/util/retry.py`, RFC 9110 §9.2.2 on idempotent methods, and the IETF draft
/// `draft-ietf-httpapi-idempotency-key-header`).
struct AmbiguityTests {
    static func policy(_ idempotency: Idempotency, reconcile: Bool = false) -> RetryPolicy {
        RetryPolicy(
            backoff: Backoff(kind: .constant, base: second, max: second), maxAttempts: 3,
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
        var driver = Driver(Self.policy(.notRetried, reconcile: true))
        var record = OperationRecord()
        driver.start(&record)
        driver.now = 2 * second
        #expect(driver.fail(&record, .timedOut(.response)) == .reconcile(at: 2 * second + 100 * ms))
        #expect(record.phase == .unknown)
        var applied = record
        #expect(driver.policy.reconciled(.applied, record: &applied, host: &driver.host, now: 3 * second, random: &driver.random) == .confirmed)
        #expect(applied.phase == .succeeded)
        var notApplied = record
        #expect(
            driver.policy.reconciled(.notApplied, record: &notApplied, host: &driver.host, now: 3 * second, random: &driver.random)
                == .retry(at: 4 * second))
        #expect(notApplied.phase == .willRetry)
    }

    @Test("reconciliation that cannot tell asks again after a backoff, until the attempts run out")
    func unknown() {
        var driver = Driver(Self.policy(.key, reconcile: true))
        let p = driver.policy
        var record = OperationRecord()
        driver.start(&record)
        _ = driver.fail(&record, .timedOut(.response))
        var host = driver.host
        var random = driver.random
        #expect(p.reconciled(.unknown, record: &record, host: &host, now: 100 * ms, random: &random) == .reconcile(at: 1100 * ms))
        #expect(p.reconciled(.unknown, record: &record, host: &host, now: 1100 * ms, random: &random) == .stop(.ambiguousOutcome))
    }
}
