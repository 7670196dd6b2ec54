import RetryPolicy
import Testing

/// Retry budgets through the policy: what each withdraws, refunds and refuses.
struct BudgetTests {
    static let constant = Backoff(kind: .constant, base: second, max: second)

    @Test("per-run: 3 retries across operations, then budgetExhausted; a restart begins a new run (offline-first chapter)")
    func perRun() {
        let p = RetryPolicy(backoff: Self.constant, maxAttempts: 10, budget: .perRun(retries: 3))
        var driver = Driver(p)
        #expect(driver.run([.http(503), .http(503), nil]).count == 2)
        #expect(driver.run([.http(503), .http(503)]) == [.retry(at: 3 * second), .stop(.budgetExhausted)])
        p.restart(host: &driver.host)
        #expect(driver.host.budget.tokens == 3)
    }

    @Test("token bucket: capacity 2, 1 token/s — a burst of 2 retries, then one per second")
    func tokenBucket() {
        let budget = RetryBudget.tokenBucket(TokenBucket(capacity: 2, refillPerSecond: 1))
        var s = RetryBudgetState(budget)
        var record = OperationRecord()
        let c = FailureClass(kind: .serverError, retryable: true)
        let at: [Int64] = [0, 0, 0, 500 * ms, 1000 * ms, 1000 * ms, 5000 * ms, 5000 * ms, 5000 * ms]
        let granted = at.map { s.tryAcquire(budget, failure: c, record: &record, active: 0, now: $0) }
        #expect(granted == [true, true, false, false, true, false, true, true, false])
    }

    /// Capacity 3, 1 token/s, counted in millionths. At 0 one retry takes a token: 3 → 2. At
    /// 2.5 s the refill is 2.5 tokens — less than the capacity, so not the "refilled to full"
    /// branch — and 2 + 2.5 = 4.5 is capped at 3; one retry leaves 2. Two more go at 2.5 s
    /// (2 → 1 → 0) and the fourth is refused. Uncapped, the bucket would hold 4.5 and grant four.
    @Test("token bucket: a partial refill never fills it past its capacity (3 + 2.5 s × 1/s from 2 is 3, not 4.5)")
    func tokenBucketPartialRefillIsCapped() {
        let budget = RetryBudget.tokenBucket(TokenBucket(capacity: 3, refillPerSecond: 1))
        var s = RetryBudgetState(budget)
        var record = OperationRecord()
        let c = FailureClass(kind: .serverError, retryable: true)
        #expect(s.tryAcquire(budget, failure: c, record: &record, active: 0, now: 0))
        #expect(s.tokens == 2_000_000)
        #expect(s.tryAcquire(budget, failure: c, record: &record, active: 0, now: 2500 * ms))
        #expect(s.tokens == 2_000_000)
        let more = (0..<3).map { _ in s.tryAcquire(budget, failure: c, record: &record, active: 0, now: 2500 * ms) }
        #expect(more == [true, true, false])
        #expect(s.tokens == 0)
    }

    @Test("Envoy max_retries 3: a retry holds its slot through its backoff and attempt; the 4th concurrent one is refused (§4.2)")
    func envoyConcurrent() {
        let p = RetryPolicy.envoy
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.5)
        var records = (0..<5).map { _ in OperationRecord() }
        for i in 0..<5 {
            _ = p.admit(record: &records[i], host: &host, now: 0, random: &random)
            p.attemptStarted(record: &records[i], host: &host, now: 0)
        }
        let decisions = (0..<5).map { p.decide(after: .http(503), record: &records[$0], host: &host, now: 0, random: &random) }
        #expect(
            decisions == [
                .retry(at: 12_500_000), .retry(at: 12_500_000), .retry(at: 12_500_000),
                .stop(.budgetExhausted), .stop(.budgetExhausted)
            ])
        #expect(host.budget.tokens == 3)
        // One retried attempt ends (successfully): its slot is free again.
        _ = p.admit(record: &records[0], host: &host, now: 12_500_000, random: &random)
        p.attemptStarted(record: &records[0], host: &host, now: 12_500_000)
        p.succeeded(record: &records[0], host: &host, now: 13 * ms, random: &random)
        #expect(host.budget.tokens == 2)
        // Cancelling a retry still waiting for its backoff frees its slot too.
        p.cancelled(record: &records[1], host: &host, now: 13 * ms)
        #expect(host.budget.tokens == 1)
    }

    @Test("Finagle: each request may be requeued at most ceil(0.2 × balance) times: 20, then 16, then 13 of the reserve (§3.2)")
    func finaglePerRequest() {
        var p = RetryPolicy.finagle
        p.breaker = nil  // alone, failure accrual would mark the endpoint dead after 5 failures
        var driver = Driver(p)
        var retries: [Int] = []
        for _ in 0..<3 {
            let d = driver.run(Array(repeating: .http(503, unprocessed: true), count: 30))
            #expect(d.last == .stop(.budgetExhausted))
            #expect(d.dropLast().allSatisfy { $0 == .retry(at: 0) })
            retries.append(d.count - 1)
        }
        // Balance 100 (reserve + 1 deposit) → 20; then 80 → 16; then 64 → 13.
        #expect(retries == [20, 16, 13])
    }

    @Test("the SRE book's 10 %: 10 requests earn one retry, with no reserve (ch. 22)")
    func sreRatio() {
        let p = RetryPolicy(backoff: .immediate, maxAttempts: 3, budget: .ratio(.sreBook))
        var driver = Driver(p)
        #expect(driver.run([.http(503)]) == [.stop(.budgetExhausted)])
        for _ in 0..<9 { driver.run([nil]) }
        #expect(driver.run([.http(503), .http(503)]) == [.retry(at: 0), .stop(.budgetExhausted)])
    }

    @Test("a failed final outcome refunds nothing (AWS §1.1); a non-retryable failure takes nothing")
    func awsNoRefundOnFailure() {
        var driver = Driver(.awsStandard)
        driver.run([.http(503), .http(503), .http(503)])
        #expect(driver.host.budget.tokens == 490)
        driver.run([.http(404)])
        #expect(driver.host.budget.tokens == 490)
    }

    /// Property: random traffic never takes a budget below 0 or above its capacity, and never
    /// grants more retries than a per-run budget holds.
    @Test(
        "property: budgets stay within their bounds",
        arguments: [
            RetryBudget.perRun(retries: 25), .aws(.standard), .aws(.standard2026), .grpc(.a6Example),
            .tokenBucket(TokenBucket(capacity: 5, refillPerSecond: 0.5)), .envoy(.retryBudget), .ratio(.finagleDefault)
        ])
    func budgetBounds(_ budget: RetryBudget) {
        let p = RetryPolicy(
            backoff: Backoff(kind: .exponential, base: 100 * ms, max: 10 * second, jitter: .full),
            maxAttempts: 5, budget: budget)
        var host = HostGuard(policy: p)
        var random = SplitMix(seed: 42)
        var now: Int64 = 0
        var retries = 0
        for _ in 0..<2_000 {
            var record = OperationRecord()
            now += Int64(random.nextUniform() * Double(200 * ms))
            var t = now
            while p.admit(record: &record, host: &host, now: t, random: &random) == .proceed {
                p.attemptStarted(record: &record, host: &host, now: t)
                if random.nextUniform() < 0.3 {
                    p.succeeded(record: &record, host: &host, now: t, random: &random)
                    break
                }
                let error: NormalizedError = random.nextUniform() < 0.2 ? .timedOut(.connect) : .http(503)
                guard case .retry(let at) = p.decide(after: error, record: &record, host: &host, now: t, random: &random) else { break }
                retries += 1
                t = at
                switch budget {
                case .aws(let q): #expect(host.budget.tokens >= 0 && host.budget.tokens <= Int64(q.capacity))
                case .grpc(let g): #expect(host.budget.tokens >= 0 && host.budget.tokens <= g.maxMilliTokens)
                case .tokenBucket(let b): #expect(host.budget.tokens >= 0 && host.budget.tokens <= b.capacityMicros)
                case .envoy(let e):
                    #expect(host.budget.tokens <= e.allowedConcurrentRetries(active: 1))
                default: break
                }
            }
            p.cancelled(record: &record, host: &host, now: t)
        }
        if case .perRun(let n) = budget { #expect(retries == n) }
        #expect(host.inFlight == 0)
        if case .envoy = budget { #expect(host.budget.tokens == 0) }
    }
}
