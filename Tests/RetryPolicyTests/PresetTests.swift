import RetryPolicy
import Testing

/// Each preset's first delays and its budget behaviour, against its library's defaults (the
/// sources named in each preset's doc comment, RetryPolicy+Presets.swift); the first delays also through a
/// policy file (``Route``), so every preset's file makes the same decisions.
struct PresetTests {
    struct FirstDelays: Sendable, CustomTestStringConvertible {
        let preset: String
        let error: NormalizedError
        let r: Double
        /// Waits before each retry, in ms, then the decision that ends the operation.
        let waitsMs: [Int64]
        let end: RetryDecision?
        var testDescription: String { preset }
    }

    static let firstDelays: [FirstDelays] = [
        // botocore: r × min(2^(n−1), 20 s), 3 attempts.
        FirstDelays(preset: "aws-standard", error: .http(503), r: 0.5, waitsMs: [500, 1000], end: .stop(.attemptsExhausted)),
        // 2026: r × 50 ms · 2^(n−1); throttling errors use 1 s.
        FirstDelays(preset: "aws-standard-2026", error: .http(503), r: 0.5, waitsMs: [25, 50], end: .stop(.attemptsExhausted)),
        FirstDelays(
            preset: "aws-standard-2026", error: .http(400, code: .throttling), r: 0.5, waitsMs: [500, 1000],
            end: .stop(.attemptsExhausted)),
        // Java 2.x legacy (`DefaultRetryStrategy.Legacy`, `ExponentialDelayWithJitter`): retry n
        // waits U[0, 100 ms · 2^(n−1)), 4 attempts; throttled, 500 ms · 2^(n−1).
        FirstDelays(preset: "aws-java-legacy", error: .http(503), r: 0.5, waitsMs: [50, 100, 200], end: .stop(.attemptsExhausted)),
        FirstDelays(
            preset: "aws-java-legacy", error: .http(400, code: .throttling), r: 0.5, waitsMs: [250, 500, 1000],
            end: .stop(.attemptsExhausted)),
        // The larger of the backoff and Retry-After (`BaseRetryStrategy.computeBackoff`).
        FirstDelays(
            preset: "aws-java-legacy", error: .http(503, retryAfter: 3 * second), r: 0.5, waitsMs: [3000, 3000, 3000],
            end: .stop(.attemptsExhausted)),
        // gRPC A6 example: 0.1 s × 2^(n−1) × U[0.8, 1.2), 4 attempts.
        FirstDelays(preset: "grpc", error: .http(503), r: 0, waitsMs: [80, 160, 320], end: .stop(.attemptsExhausted)),
        FirstDelays(preset: "grpc", error: .timedOut(.response), r: 0, waitsMs: [], end: .stop(.nonRetryable)),
        // Finagle: requeues are immediate; a processed 503 is not requeued.
        FirstDelays(preset: "finagle", error: .transport(.connectionRefused), r: 0.5, waitsMs: [0, 0, 0, 0], end: nil),
        FirstDelays(preset: "finagle", error: .http(503), r: 0.5, waitsMs: [], end: .stop(.nonRetryable)),
        // Envoy: U[0, 25 ms) for the one retry.
        FirstDelays(preset: "envoy", error: .http(503), r: 0.5, waitsMs: [12], end: .stop(.attemptsExhausted)),
        // resilience4j: fixed 500 ms, 3 attempts, even a 404.
        FirstDelays(preset: "resilience4j", error: .http(404), r: 0.5, waitsMs: [500, 500], end: .stop(.attemptsExhausted)),
        // Polly: constant 2 s, 3 retries.
        FirstDelays(preset: "polly", error: .http(503), r: 0.5, waitsMs: [2000, 2000, 2000], end: .stop(.attemptsExhausted)),
        // urllib3 Retry(3): backoff_factor 0; statuses only with Retry-After.
        FirstDelays(preset: "urllib3", error: .timedOut(.response), r: 0.5, waitsMs: [0, 0, 0], end: .stop(.attemptsExhausted)),
        FirstDelays(
            preset: "urllib3", error: .http(503, retryAfter: 3 * second), r: 0.5, waitsMs: [3000, 3000, 3000],
            end: .stop(.attemptsExhausted)),
        FirstDelays(preset: "urllib3", error: .http(503), r: 0.5, waitsMs: [], end: .stop(.nonRetryable)),
        // cenkalti: 500 ms × 1.5^(n−1) × U[0.5, 1.5).
        FirstDelays(preset: "cenkalti", error: .http(503), r: 0.5, waitsMs: [500, 750, 1125, 1687], end: nil),
        // RudderStack: 3 s × 2^k + U[0, that).
        FirstDelays(preset: "rudderstack-mobile", error: .http(503), r: 0.5, waitsMs: [4500, 9000, 18000], end: nil),
        FirstDelays(preset: "rudderstack-mobile", error: .http(404), r: 0.5, waitsMs: [], end: .stop(.needsFix)),
        // The naive baseline: 3 immediate retries, even on 404.
        FirstDelays(preset: "naive-immediate", error: .http(404), r: 0.5, waitsMs: [0, 0, 0], end: .stop(.attemptsExhausted)),
        // Offline-first: full jitter over 1 s × 2^(n−1); 401 refreshes once.
        FirstDelays(preset: "offline-first", error: .http(503), r: 0.5, waitsMs: [500, 1000, 2000, 4000], end: nil),
        FirstDelays(preset: "offline-first", error: .http(401), r: 0.5, waitsMs: [], end: .stop(.needsSignIn))
    ]

    @Test("first delays", arguments: firstDelays, Route.allCases)
    func delays(_ c: FirstDelays, _ route: Route) throws {
        let p = try route.apply(try #require(RetryPolicy.preset(named: c.preset)))
        var driver = Driver(p, r: c.r)
        var record = OperationRecord()
        let decisions = driver.run(Array(repeating: c.error, count: c.waitsMs.count + (c.end == nil ? 0 : 1)), record: &record)
        var t: Int64 = 0
        var waits: [Int64] = []
        for d in decisions {
            switch d {
            case .retry(let at), .refreshCredentials(let at):
                waits.append((at - t) / ms)
                t = at
            default: break
            }
        }
        if c.preset == "offline-first" && c.error == .http(401) {
            // 401: refresh and retry at once, then the second 401 needs the user.
            #expect(decisions.first == .refreshCredentials(retryAt: 0))
            #expect(driver.run([.http(401)], record: &record) == [.stop(.needsSignIn)])
            return
        }
        #expect(waits == c.waitsMs)
        if let end = c.end { #expect(decisions.last == end) }
    }

    @Test("every preset has a name, and the library's thirteen are all there")
    func names() {
        #expect(
            RetryPolicy.presets.map(\.name) == [
                "aws-standard", "aws-standard-2026", "aws-java-legacy", "grpc", "finagle", "envoy", "resilience4j", "polly", "urllib3", "cenkalti",
                "rudderstack-mobile", "naive-immediate", "offline-first"
            ])
        #expect(RetryPolicy.preset(named: "nope") == nil)
    }

    @Test("only offline-first keeps its schedule across a restart; the libraries keep retry state in memory (§10, §13)")
    func restartBehaviour() {
        for (name, p) in RetryPolicy.presets {
            #expect(p.onRestart == (name == "offline-first" ? .keep : .reset), "\(name)")
        }
    }

    @Test("budgets: aws-standard 5 per retry, refunded on success; aws-standard-2026 14, 5 when throttled; Java legacy 5, 0 when throttled (§1)")
    func awsBudgets() {
        var pre = Driver(.awsStandard)
        pre.run([.http(503), nil])
        #expect(pre.host.budget.tokens == 500)
        pre.run([.http(503), .http(503), .http(503)])
        #expect(pre.host.budget.tokens == 490)
        var now = Driver(.awsStandard2026)
        now.run([.http(503), .http(400, code: .throttling), .http(503)])
        #expect(now.host.budget.tokens == 500 - 14 - 5)
        // 35 failing operations at 14 per retry drain the 500 tokens: the 36th retry is refused.
        var drain = Driver(.awsStandard2026)
        var refused = 0
        for _ in 0..<40 {
            if drain.run([.http(503), .http(503)]).last == .stop(.budgetExhausted) { refused += 1 }
        }
        #expect(drain.host.budget.tokens < 14)
        #expect(refused > 0)
        // Java 2.x legacy: 5 per retry, timeouts too (`DEFAULT_EXCEPTION_TOKEN_COST`), 0 after
        // throttling (`THROTTLE_EXCEPTION_TOKEN_COST`); a first-try success returns 1 (at most 500).
        var java = Driver(.awsJavaLegacy)
        java.run([.http(503), .timedOut(.response), .http(400, code: .throttling), .http(503)])
        #expect(java.host.budget.tokens == 500 - 5 - 5 - 0)
        java.run([nil])
        #expect(java.host.budget.tokens == 491)
        // 50 operations failing twice take two retries of 5 each, the whole 500: the 51st's first
        // retry is refused.
        var javaDrain = Driver(.awsJavaLegacy)
        let outcomes = (0..<51).map { _ in javaDrain.run([.http(503), .http(503)]).last }
        #expect(outcomes.prefix(50).allSatisfy { $0 != .stop(.budgetExhausted) } && outcomes.last == .stop(.budgetExhausted))
        #expect(javaDrain.host.budget.tokens == 0)
    }

    @Test("budget: grpc throttles retries once failures push the tokens to half (§2)")
    func grpcBudget() {
        var driver = Driver(.grpc)
        driver.run([.http(503), .http(503), .http(503), .http(503)])
        #expect(driver.host.budget.tokens == 6000)
        #expect(driver.run([.http(503)]) == [.stop(.budgetExhausted)])
        #expect(driver.host.budget.tokens == 5000)
        for _ in 0..<10 { driver.run([nil]) }
        #expect(driver.host.budget.tokens == 6000)
    }

    @Test("budget and breaker: finagle requeues through RetryBudget, then failure accrual marks the host dead for 5 s (§3)")
    func finagleBudget() {
        var driver = Driver(.finagle)
        let d = driver.run(Array(repeating: .transport(.connectionRefused), count: 10))
        // Each failure is requeued at once; the 5th in a row marks the endpoint dead, so its requeue fails fast.
        #expect(d == [.retry(at: 0), .retry(at: 0), .retry(at: 0), .retry(at: 0), .retry(at: 0)])
        #expect(driver.host.breaker.stage == .open && driver.host.breaker.openUntil == 5 * second)
        var record = OperationRecord()
        #expect(RetryPolicy.finagle.admit(record: &record, host: &driver.host, now: second, random: &driver.random) == .reject(.circuitOpen))
    }

    @Test("budget: envoy allows 3 retries outstanding; its limit of 1024 requests fails the 1025th at once (§4.2)")
    func envoyLimits() {
        let p = RetryPolicy.envoy
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.5)
        var records = (0..<1025).map { _ in OperationRecord() }
        for i in 0..<1024 {
            #expect(p.admit(record: &records[i], host: &host, now: 0, random: &random) == .proceed)
            p.attemptStarted(record: &records[i], host: &host, now: 0)
        }
        #expect(p.admit(record: &records[1024], host: &host, now: 0, random: &random) == .reject(.concurrencyLimited))
    }

    @Test("no budget, a breaker: resilience4j opens after 100 calls at ≥ 50 %, then each refused call is a failed attempt (§5)")
    func resilience4jBreaker() {
        var driver = Driver(.resilience4j)
        for _ in 0..<50 { driver.run([nil]) }
        for _ in 0..<49 { driver.run([.http(500)]) }
        #expect(driver.host.breaker.stage == .closed)
        driver.run([.http(500)])
        #expect(driver.host.breaker.stage == .open)
        var record = OperationRecord()
        let started = driver.start(&record)
        #expect(!started)
        #expect(record.nextAttemptAt == driver.now + 500 * ms && record.cycleFailures == 1)
    }

    @Test("no budget, a breaker: polly breaks for 5 s at 10 % of 100 calls in 30 s (§6.3)")
    func pollyBreaker() {
        var driver = Driver(.polly)
        for _ in 0..<90 { driver.run([nil]) }
        for _ in 0..<10 { driver.run([.http(503)]) }
        #expect(driver.host.breaker.stage == .open)
        // It opened at the 10th failure, 2 s (one retry delay) before the driver's clock.
        #expect(driver.host.breaker.openUntil == driver.now - 2 * second + 5 * second)
    }

    @Test("no budget: urllib3, cenkalti (15 min), rudderstack (cool-off) and the naive baseline retry on without one")
    func unbudgeted() {
        for p in [RetryPolicy.urllib3, .cenkalti, .rudderstackMobile, .naiveImmediate] {
            #expect(p.budget == .unlimited && !p.keepsHostState)
        }
        // cenkalti stops once the next retry would start after 15 minutes.
        var driver = Driver(.cenkalti, r: 0.5)
        let d = driver.run(Array(repeating: .http(503), count: 100))
        #expect(d.last == .stop(.elapsedExceeded))
        guard case .retry(let lastAt) = d[d.count - 2] else {
            Issue.record("expected a retry")
            return
        }
        #expect(lastAt <= 15 * 60 * second)
    }

    @Test("budget: offline-first allows 100 retries per run, then blocks further retries until the next run")
    func offlineFirstBudget() {
        var driver = Driver(.offlineFirst)
        var retries = 0
        // A window of 20 successes first: 3 failures in 7 then never exceed 9 of the last 20 (45 %),
        // so the breaker stays closed (a partly filled window would trip: 5 of 9 is more than 50 %).
        for _ in 0..<20 { driver.run([nil]) }
        for _ in 0..<60 {
            retries += driver.run([.http(503), .http(503), .http(503)]).filter { if case .retry = $0 { true } else { false } }.count
            for _ in 0..<4 { driver.run([nil]) }
        }
        #expect(retries == 100)
        #expect(driver.host.budget.tokens == 0)
    }
}
