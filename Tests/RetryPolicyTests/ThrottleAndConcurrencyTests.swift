import RetryPolicy
import Testing

/// The SRE book's client-side adaptive throttling (*Site Reliability Engineering*, ch. 21,
/// "Handling Overload") and per-host concurrency limits with priority lanes (offline-first chapter;
/// Envoy's per-priority thresholds, `api/envoy/config/cluster/v3/circuit_breaker.proto`).
struct ThrottleAndConcurrencyTests {
    @Test("adaptive throttling: while the backend accepts, nothing is rejected and no random is drawn")
    func accepting() {
        let p = RetryPolicy(backoff: .immediate, maxAttempts: 1, throttle: .sreBook)
        var driver = Driver(p, r: 0)
        for _ in 0..<100 { driver.run([nil]) }
        var record = OperationRecord()
        #expect(p.admit(record: &record, host: &driver.host, now: 0, random: &driver.random) == .proceed)
    }

    @Test("adaptive throttling: 100 requests, none accepted → p = 100/101 > 0.99: rejected locally (the rejection counts as a request)")
    func rejecting() {
        let p = RetryPolicy(backoff: .immediate, maxAttempts: 1, throttle: .sreBook)
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.99)
        // Request k (0-based) meets p = k/(k + 1) ≤ 0.99 for k ≤ 99: all 100 go out, and the server refuses them.
        for _ in 0..<100 {
            var record = OperationRecord()
            #expect(p.admit(record: &record, host: &host, now: 0, random: &random) == .proceed)
            p.attemptStarted(record: &record, host: &host, now: 0)
            _ = p.decide(after: .http(503, unprocessed: true), record: &record, host: &host, now: 0, random: &random)
        }
        let (requests, accepts) = host.throttle.window.sums(now: 0, window: AdaptiveThrottle.sreBook.window)
        #expect(requests == 100 && accepts == 0)
        var record = OperationRecord()
        #expect(p.admit(record: &record, host: &host, now: 0, random: &random) == .reject(.throttledLocally))
        #expect(record.blockedReason == .throttledLocally && record.phase == .stopped(.throttledLocally) && record.isFinished)
        #expect(host.throttle.window.sums(now: 0, window: AdaptiveThrottle.sreBook.window).a == 101)
        // Two minutes later the window is empty again.
        var later = OperationRecord()
        #expect(p.admit(record: &later, host: &host, now: 130 * second, random: &random) == .proceed)
    }

    @Test("a 500 is an accept, a 503 or 429 a rejection for overload, a timeout neither (ch. 21)")
    func accepts() {
        let c = Classifier.offlineFirst
        #expect(AdaptiveThrottle.accepted(.http(500), c.classify(.http(500))))
        #expect(AdaptiveThrottle.accepted(.http(404), c.classify(.http(404))))
        #expect(!AdaptiveThrottle.accepted(.http(503), c.classify(.http(503))))
        #expect(!AdaptiveThrottle.accepted(.http(429), c.classify(.http(429))))
        #expect(!AdaptiveThrottle.accepted(.timedOut(.response), c.classify(.timedOut(.response))))
    }

    @Test("concurrency limit 2: the third waits for a slot; user-initiated work goes before background work")
    func lanes() {
        let p = RetryPolicy(backoff: .immediate, maxAttempts: 1, concurrency: ConcurrencyLimit(maxInFlight: 2))
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.5)
        var a = OperationRecord()
        var b = OperationRecord()
        var c = OperationRecord(lane: .userInitiated)
        var d = OperationRecord(lane: .background)
        #expect(p.admit(record: &a, host: &host, now: 0, random: &random) == .proceed)
        p.attemptStarted(record: &a, host: &host, now: 0)
        #expect(p.admit(record: &b, host: &host, now: 0, random: &random) == .proceed)
        p.attemptStarted(record: &b, host: &host, now: 0)
        #expect(p.admit(record: &d, host: &host, now: 0, random: &random) == .waitForSlot)
        #expect(p.admit(record: &c, host: &host, now: 0, random: &random) == .waitForSlot)
        #expect(host.waitingUserInitiated == 1 && host.waitingBackground == 1)
        p.succeeded(record: &a, host: &host, now: 1, random: &random)
        // Woken in the wrong order, the background operation still yields to the waiting user-initiated one.
        #expect(p.admit(record: &d, host: &host, now: 1, random: &random) == .waitForSlot)
        #expect(p.admit(record: &c, host: &host, now: 1, random: &random) == .proceed)
        p.attemptStarted(record: &c, host: &host, now: 1)
        p.succeeded(record: &b, host: &host, now: 2, random: &random)
        #expect(p.admit(record: &d, host: &host, now: 2, random: &random) == .proceed)
        #expect(host.waiting == 0)
    }

    @Test("background share: at most 1 of 3 slots for background work")
    func backgroundShare() {
        let p = RetryPolicy(backoff: .immediate, maxAttempts: 1, concurrency: ConcurrencyLimit(maxInFlight: 3, backgroundMaxInFlight: 1))
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.5)
        var e = OperationRecord(lane: .background)
        var f = OperationRecord(lane: .background)
        var g = OperationRecord()
        #expect(p.admit(record: &e, host: &host, now: 0, random: &random) == .proceed)
        p.attemptStarted(record: &e, host: &host, now: 0)
        #expect(p.admit(record: &f, host: &host, now: 0, random: &random) == .waitForSlot)
        #expect(p.admit(record: &g, host: &host, now: 0, random: &random) == .proceed)
        // Cancelling a waiting operation takes it out of the queue.
        p.cancelled(record: &f, host: &host, now: 0)
        #expect(host.waitingBackground == 0 && f.blockedReason == .cancelled)
    }

    @Test("Envoy overflow: at the limit the operation fails at once (concurrencyLimited)")
    func reject() {
        let p = RetryPolicy(backoff: .immediate, maxAttempts: 1, concurrency: ConcurrencyLimit(maxInFlight: 1, whenFull: .reject))
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.5)
        var a = OperationRecord()
        var b = OperationRecord()
        _ = p.admit(record: &a, host: &host, now: 0, random: &random)
        p.attemptStarted(record: &a, host: &host, now: 0)
        #expect(p.admit(record: &b, host: &host, now: 0, random: &random) == .reject(.concurrencyLimited))
    }
}
