import RetryPolicy
import Testing

/// The policy's hedging calls (``RetryPolicy/hedging``): when copies are due, what a copy's
/// failure or success does to the record and the host, what budgets a copy spends, and the
/// latency window a percentile delay reads. Each expected value is traced in its comment.
struct HedgingPolicyTests {
    static func policy(copies: Int, budget: RetryBudget = .unlimited) -> RetryPolicy {
        var p = RetryPolicy(backoff: .immediate, maxAttempts: 1, budget: budget)
        p.hedging = Hedging(delay: .fixed(50 * ms), maxAttempts: copies)
        return p
    }

    /// Starts one more copy at `now` (admitted first, unless it is the first).
    static func start(_ p: RetryPolicy, _ record: inout OperationRecord, _ host: inout HostGuard, at now: Int64) -> StopReason? {
        var random = FixedUniformSource(0.5)
        if record.attemptCount > 0, let refused = p.admitCopy(record: &record, host: &host, now: now, random: &random, afterFailure: false) {
            return refused
        }
        p.attemptStarted(record: &record, host: &host, now: now)
        return nil
    }

    /// The record and host of an operation of `p` with two copies out, sent at 0 and 50 ms.
    static func twoOut(_ p: RetryPolicy) -> (OperationRecord, HostGuard) {
        var record = OperationRecord()
        var host = p.makeHostGuard()
        _ = start(p, &record, &host, at: 0)
        _ = start(p, &record, &host, at: 50 * ms)
        return (record, host)
    }

    /// Three copies 50 ms apart: the second is due at 50 ms after the first, the third 50 ms
    /// after the second, and none after the third. No hedging: never.
    @Test("copies are due one delay after the latest, until max_attempts are out")
    func due() {
        let p = Self.policy(copies: 3)
        var record = OperationRecord()
        var host = p.makeHostGuard()
        #expect(p.nextCopyAt(record: record, delay: 50 * ms) == nil)
        _ = Self.start(p, &record, &host, at: 0)
        #expect(p.nextCopyAt(record: record, delay: 50 * ms) == 50 * ms)
        _ = Self.start(p, &record, &host, at: 50 * ms)
        #expect(p.nextCopyAt(record: record, delay: 50 * ms) == 100 * ms)
        _ = Self.start(p, &record, &host, at: 100 * ms)
        #expect(p.nextCopyAt(record: record, delay: 50 * ms) == nil)
        #expect(host.inFlight == 3 && record.attemptCount == 3)
        #expect(RetryPolicy(backoff: .immediate, maxAttempts: 3).nextCopyAt(record: record, delay: 0) == nil)
    }

    /// Copy failures: a 503 (retryable) with copies left to send says send now; with all 3 out
    /// it waits for the others; the last one's failure stops the operation (attempts exhausted).
    /// Every failure takes its copy off the host.
    @Test("a retryable failure sends the next copy, then waits, then stops with the last")
    func failures() {
        let p = Self.policy(copies: 3)
        var (record, host) = Self.twoOut(p)
        var random = FixedUniformSource(0.5)
        #expect(p.copyFailed(after: .http(503), othersInFlight: 1, record: &record, host: &host, now: 60 * ms, random: &random) == .sendNow)
        #expect(host.inFlight == 1 && record.phase == .inFlight)
        _ = Self.start(p, &record, &host, at: 60 * ms)
        #expect(p.copyFailed(after: .http(503), othersInFlight: 1, record: &record, host: &host, now: 70 * ms, random: &random) == .wait)
        #expect(
            p.copyFailed(after: .timedOut(.response), othersInFlight: 0, record: &record, host: &host, now: 80 * ms, random: &random)
                == .stop(.attemptsExhausted))
        #expect(host.inFlight == 0 && record.phase == .stopped(.attemptsExhausted))
    }

    /// A failure the classifier does not retry (400: the request needs fixing) stops the
    /// operation at once, and the copy still out leaves the host with it; a success ends the
    /// operation and its two siblings.
    @Test("a fatal failure or a success ends the operation and the copies still out")
    func endings() {
        let p = Self.policy(copies: 3)
        var (record, host) = Self.twoOut(p)
        var random = FixedUniformSource(0.5)
        #expect(p.copyFailed(after: .http(400), othersInFlight: 1, record: &record, host: &host, now: 60 * ms, random: &random) == .stop(.needsFix))
        #expect(host.inFlight == 0)

        var won = OperationRecord()
        _ = Self.start(p, &won, &host, at: 0)
        _ = Self.start(p, &won, &host, at: 50 * ms)
        _ = Self.start(p, &won, &host, at: 100 * ms)
        p.copySucceeded(othersInFlight: 2, record: &won, host: &host, now: 120 * ms, random: &random)
        #expect(host.inFlight == 0 && won.phase == .succeeded)
    }

    /// Copies spend the budget as retries: with 1 retry for the run, the second copy goes and the
    /// third is refused (the first copy is the operation's own attempt, free). gRPC's throttle
    /// (10 tokens, threshold 5) refuses copies once failures have taken it to 5: each retryable
    /// failure takes a token.
    @Test("a copy spends the retry budget; gRPC's throttle refuses copies at its threshold")
    func budgets() {
        let p = Self.policy(copies: 3, budget: .perRun(retries: 1))
        var record = OperationRecord()
        var host = p.makeHostGuard()
        #expect(Self.start(p, &record, &host, at: 0) == nil)
        #expect(Self.start(p, &record, &host, at: 50 * ms) == nil)
        #expect(Self.start(p, &record, &host, at: 100 * ms) == .budgetExhausted)
        #expect(host.inFlight == 2 && record.attemptCount == 2)

        let g = Self.policy(copies: 2, budget: .grpc(.a6Example))
        var gHost = g.makeHostGuard()
        var random = FixedUniformSource(0.5)
        for _ in 0..<5 {
            var r = OperationRecord()
            _ = Self.start(g, &r, &gHost, at: 0)
            _ = g.copyFailed(after: .http(503), othersInFlight: 0, record: &r, host: &gHost, now: 0, random: &random)
            _ = r.stop(.attemptsExhausted)
        }
        #expect(gHost.budget.tokens == 5_000)
        var r = OperationRecord()
        _ = Self.start(g, &r, &gHost, at: 0)
        #expect(Self.start(g, &r, &gHost, at: 50 * ms) == .budgetExhausted)
    }

    /// Envoy's concurrent-retry budget (3 at least): two copies beyond the first hold two retry
    /// slots until the operation ends, and a third operation's copy still finds one free.
    @Test("with Envoy's budget each copy holds a retry slot until the operation ends")
    func envoySlots() {
        let p = Self.policy(copies: 3, budget: .envoy(.maxRetries))
        var record = OperationRecord()
        var host = p.makeHostGuard()
        var random = FixedUniformSource(0.5)
        _ = Self.start(p, &record, &host, at: 0)
        _ = Self.start(p, &record, &host, at: 50 * ms)
        _ = Self.start(p, &record, &host, at: 100 * ms)
        #expect(host.budget.tokens == 2)
        var other = OperationRecord()
        _ = Self.start(p, &other, &host, at: 0)
        #expect(Self.start(p, &other, &host, at: 50 * ms) == nil)
        #expect(Self.start(p, &other, &host, at: 100 * ms) == .budgetExhausted)
        p.copySucceeded(othersInFlight: 2, record: &record, host: &host, now: 120 * ms, random: &random)
        #expect(host.budget.tokens == 1)
    }
}

/// The window of latencies a percentile delay reads.
struct LatencyWindowTests {
    /// 1, 2, …, 100 ms: the p95 is the 95th, 95 ms, in the bin [92.27, 96.47) ms (2^26 ns
    /// doubling, fraction 6 of 16: (16 + 6)·2^22 to (17 + 6)·2^22 ns), reported at its middle,
    /// 45·2^21 = 94,371,840 ns. p95 needs 20 latencies: with 19 there is none.
    @Test("the quantile of known latencies is their bin's middle, and needs enough of them")
    func quantile() {
        var w = LatencyWindow(window: 8 * second)
        for k in 1...19 { w.record(Int64(k) * ms, now: 0) }
        #expect(w.quantile(0.95, now: 0) == nil)
        for k in 20...100 { w.record(Int64(k) * ms, now: 0) }
        #expect(w.quantile(0.95, now: 0) == 94_371_840)
        #expect(LatencyWindow.minimumCount(0.95) == 20 && LatencyWindow.minimumCount(0.9) == 10 && LatencyWindow.minimumCount(0.99) == 100)
    }

    /// An 8 s window in 8 slices of 1 s: latencies recorded at 0 count until 8 s, when their
    /// slice expires; then the window is empty.
    @Test("latencies leave the window when their slice expires")
    func expiry() {
        var w = LatencyWindow(window: 8 * second)
        for k in 1...100 { w.record(Int64(k) * ms, now: 0) }
        #expect(w.quantile(0.5, now: 7_999 * ms) != nil && w.count == 100)
        #expect(w.quantile(0.5, now: 8 * second) == nil && w.count == 0)
    }
}
