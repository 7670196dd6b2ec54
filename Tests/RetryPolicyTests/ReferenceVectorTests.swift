import RetryPolicy
import Testing

/// Deterministic vectors from the libraries' own sources and tests, each citing its library; each
/// runs on the library's values and on the same values read back from a policy file (``Route``).
struct ReferenceVectorTests {
    /// A backoff schedule with `r` pinned and the delays the library gives, in milliseconds.
    struct Vector: Sendable, CustomTestStringConvertible {
        let source: String
        let backoff: Backoff
        let r: Double
        let expectedMs: [Double]
        /// Allowed difference in ms (0 = exact to the nanosecond after rounding).
        var tolerance: Double = 0
        var testDescription: String { "\(source), r = \(r)" }
    }

    static let exp = BackoffKind.exponential

    static let vectors: [Vector] = [
        // AWS SDKs, standard mode pre-2026 — botocore `r × min(2^(n−1), 20 s)` (§1.1, §11).
        Vector(
            source: "botocore standard (pre-2026)", backoff: Backoff(kind: exp, base: second, max: 20 * second, jitter: .full),
            r: 1, expectedMs: [1000, 2000, 4000, 8000, 16000, 20000, 20000]),
        // aws-sdk-go-v2 `backoffDelayLegacy`: r × 2^a with a = 1-based attempt, then 20 s flat without jitter (§1.1, §14.1).
        Vector(
            source: "aws-sdk-go-v2 legacy",
            backoff: Backoff(
                kind: exp, base: second, max: 20 * second, jitter: .full,
                exponentOffset: 1, plateauUnjittered: true),
            r: 1, expectedMs: [2000, 4000, 8000, 16000, 20000, 20000]),
        Vector(
            source: "aws-sdk-go-v2 legacy (plateau is not jittered)",
            backoff: Backoff(
                kind: exp, base: second, max: 20 * second,
                jitter: .full, exponentOffset: 1, plateauUnjittered: true),
            r: 0, expectedMs: [0, 0, 0, 0, 20000, 20000]),
        // AWS 2026 (`retry2026_test.go`): x = 50 ms non-throttling, 1 s throttling, cap 20 s (§1.2, §11).
        Vector(
            source: "aws-sdk-go-v2 2026 non-throttling", backoff: Backoff(kind: exp, base: 50 * ms, max: 20 * second, jitter: .full),
            r: 1, expectedMs: [50, 100, 200, 400, 800, 1600, 3200, 6400, 12800, 20000]),
        Vector(
            source: "aws-sdk-go-v2 2026 throttling", backoff: Backoff(kind: exp, base: second, max: 20 * second, jitter: .full),
            r: 1, expectedMs: [1000, 2000, 4000, 8000, 16000, 20000]),
        Vector(
            source: "aws-sdk-go-v2 2026 DynamoDB", backoff: Backoff(kind: exp, base: 25 * ms, max: 20 * second, jitter: .full),
            r: 1, expectedMs: [25, 50, 100]),
        // gRPC A6: min(0.1 · 2^(n−1), 1 s) × U[0.8, 1.2) (§2, §11).
        Vector(
            source: "gRPC A6 ±20 %", backoff: Backoff(kind: exp, base: 100 * ms, max: second, jitter: .proportional(0.2)),
            r: 0.5, expectedMs: [100, 200, 400, 800, 1000]),
        Vector(
            source: "gRPC A6 ±20 % (lower bounds)", backoff: Backoff(kind: exp, base: 100 * ms, max: second, jitter: .proportional(0.2)),
            r: 0, expectedMs: [80, 160, 320, 640, 800]),
        Vector(
            source: "gRPC A6 ±20 % (upper bounds)", backoff: Backoff(kind: exp, base: 100 * ms, max: second, jitter: .proportional(0.2)),
            r: 1, expectedMs: [120, 240, 480, 960, 1200]),
        // Envoy `JitteredExponentialBackOffStrategy` (the code): [0, 25 · 2^(N−1)) capped at 250 ms (§4.1, §11).
        Vector(
            source: "Envoy code ranges", backoff: Backoff(kind: exp, base: 25 * ms, max: 250 * ms, jitter: .full),
            r: 1, expectedMs: [25, 50, 100, 200, 250, 250]),
        // resilience4j `IntervalFunction.ofExponentialBackoff(500 ms, 1.5)`, `long` truncation at each step (§5.2, §11).
        Vector(
            source: "resilience4j ofExponentialBackoff(500, 1.5)",
            backoff: Backoff(kind: exp, base: 500 * ms, max: 3_600 * second, multiplier: 1.5, stepRounding: ms),
            r: 0.5, expectedMs: [500, 750, 1125, 1687, 2530, 3795, 5692]),
        // Polly DecorrelatedJitterBackoffV2, Delay 1 s (§6.1, §11): published to 3 decimals of a second.
        Vector(
            source: "Polly V2", backoff: Backoff(kind: exp, base: second, max: 3_600 * second, jitter: .decorrelatedV2),
            r: 0.5, expectedMs: [897, 1093, 2036, 4046, 8084], tolerance: 0.5),
        Vector(
            source: "Polly V2", backoff: Backoff(kind: exp, base: second, max: 3_600 * second, jitter: .decorrelatedV2),
            r: 1, expectedMs: [1377, 1460, 2866, 5718, 11430], tolerance: 0.5),
        Vector(
            source: "Polly V2", backoff: Backoff(kind: exp, base: second, max: 3_600 * second, jitter: .decorrelatedV2),
            r: 0, expectedMs: [0, 1377, 1460, 2866, 5718], tolerance: 0.5),
        // Polly constant 2 s with UseJitter: d ± 25 % (§6.1, §11).
        Vector(
            source: "Polly constant 2 s + jitter", backoff: Backoff(kind: .constant, base: 2 * second, max: 2 * second, jitter: .proportional(0.25)),
            r: 0, expectedMs: [1500]),
        Vector(
            source: "Polly constant 2 s + jitter", backoff: Backoff(kind: .constant, base: 2 * second, max: 2 * second, jitter: .proportional(0.25)),
            r: 0.5, expectedMs: [2000]),
        Vector(
            source: "Polly constant 2 s + jitter", backoff: Backoff(kind: .constant, base: 2 * second, max: 2 * second, jitter: .proportional(0.25)),
            r: 1, expectedMs: [2500]),
        // cenkalti/backoff v4 defaults: interval 500 ms × 1.5^k, randomized ±50 % (§9.2, §11; the
        // reference prints these bounds rounded to 10 ms: [0.25, 0.75], [0.375, 1.125] … [6.41, 19.22]).
        Vector(
            source: "cenkalti/backoff v4 (lower bounds)",
            backoff: Backoff(kind: exp, base: 500 * ms, max: 60 * second, multiplier: 1.5, jitter: .proportional(0.5)),
            r: 0, expectedMs: [250, 375, 562.5, 843.75, 1265.625, 1898.4375, 2847.65625, 4271.484375, 6407.2265625], tolerance: 0.000001),
        Vector(
            source: "cenkalti/backoff v4 (upper bounds)",
            backoff: Backoff(kind: exp, base: 500 * ms, max: 60 * second, multiplier: 1.5, jitter: .proportional(0.5)),
            r: 1, expectedMs: [750, 1125, 1687.5, 2531.25, 3796.875, 5695.3125, 8542.96875, 12814.453125, 19221.6796875],
            tolerance: 0.000001),
        // urllib3 `backoff_factor` 0.5: the first retry never waits, then factor × 2^(k−1), cap 120 s (§9.2, §11).
        Vector(
            source: "urllib3 backoff_factor 0.5",
            backoff: Backoff(kind: exp, base: 500 * ms, max: 120 * second, firstRetry: .immediate),
            r: 0.5, expectedMs: [0, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 120000]),
        // Finagle markDeadFor = Backoff.equalJittered(5 s, 300 s): 5, U[5,10), U[10,20) … ≥ 300 → 300 (§3.3, §11).
        Vector(
            source: "Finagle equalJittered(5 s, 300 s) (lower bounds)", backoff: CircuitBreaker.finagle.openDuration,
            r: 0, expectedMs: [5000, 5000, 10000, 20000, 40000, 80000, 160000, 300000, 300000]),
        Vector(
            source: "Finagle equalJittered(5 s, 300 s) (upper bounds)", backoff: CircuitBreaker.finagle.openDuration,
            r: 1, expectedMs: [5000, 10000, 20000, 40000, 80000, 160000, 300000, 300000]),
        // RudderStack mobile SDKs: 3 s × 2^k + U[0, that) → U[3,6), U[6,12) … U[48,96) (§10, §11).
        Vector(
            source: "RudderStack (lower bounds)", backoff: RetryPolicy.rudderstackMobile.backoff,
            r: 0, expectedMs: [3000, 6000, 12000, 24000, 48000]),
        Vector(
            source: "RudderStack (upper bounds)", backoff: RetryPolicy.rudderstackMobile.backoff,
            r: 1, expectedMs: [6000, 12000, 24000, 48000, 96000])
    ]

    @Test("§11 backoff vectors", arguments: vectors, Route.allCases)
    func backoffVector(_ v: Vector, _ route: Route) throws {
        let got = delays(try route.apply(v.backoff), r: v.r, retries: v.expectedMs.count)
        for (n, (g, e)) in zip(got, v.expectedMs).enumerated() {
            let gotMs = Double(g) / 1e6
            #expect(abs(gotMs - e) <= v.tolerance, "retry \(n + 1): \(gotMs) ms, expected \(e) ms")
        }
    }

    @Test("Envoy: the docs' [0, (2^N − 1)·B) ranges (25, 75, 175 ms) are not what the code does (§4.1, §14.5)")
    func envoyDocsVersusCode() throws {
        let top = delays(try Route.policyFile.apply(RetryPolicy.envoy).backoff, r: 1, retries: 3).map { $0 / ms }
        #expect(top == [25, 50, 100])
        #expect(top != [25, 75, 175])
    }

    @Test("AWS 2026 DynamoDB: 25, 50, 100 ms with 4 attempts, then the attempts run out (§1.2, §11)", arguments: Route.allCases)
    func dynamoDB2026(_ route: Route) throws {
        var p = try route.apply(.awsStandard2026)
        p.backoff.base = 25 * ms
        p.maxAttempts = 4
        var driver = Driver(p, r: 1)
        let d = driver.run(Array(repeating: .http(500), count: 5))
        #expect(d == [.retry(at: 25 * ms), .retry(at: 75 * ms), .retry(at: 175 * ms), .stop(.attemptsExhausted)])
    }

    /// `x-amz-retry-after` against a 50 ms backoff at r → 1: `max(t, min(hint, t + 5 s))` (§1.2, §11).
    @Test(
        "AWS 2026 x-amz-retry-after: 1500 → 1500 ms, 0 → 50 ms, 10000 → 5050 ms, invalid → 50 ms",
        arguments: [("1500", 1500), ("0", 50), ("10000", 5050), ("invalid", 50)] as [(String, Int64)], Route.allCases)
    func amzRetryAfter(_ vector: (String, Int64), _ route: Route) throws {
        let (header, expectedMs) = vector
        var driver = Driver(try route.apply(.awsStandard2026), r: 1)
        let hint = RetryAfterHeader.amzRetryAfter(header)
        let d = driver.run([.http(503, retryAfter: hint)])
        #expect(d == [.retry(at: expectedMs * ms)])
    }

    /// An AWS quota trace: operations given as lists of statuses (200 = success), with the
    /// tokens left after each attempt.
    struct QuotaTrace: Sendable, CustomTestStringConvertible {
        let source: String
        let policy: RetryPolicy
        let initial: Int64
        let operations: [[Int]]
        let expected: [Int64]
        var finalDecision: RetryDecision? = nil
        var testDescription: String { source }
    }

    static let quotaTraces: [QuotaTrace] = [
        QuotaTrace(
            source: "2026: 500 →(500)486 →(500)472 →(200)486", policy: .awsStandard2026, initial: 500,
            operations: [[500, 500, 200]], expected: [486, 472, 486]),
        QuotaTrace(
            source: "2026 throttling: 500 →495 →(200)500", policy: .awsStandard2026, initial: 500,
            operations: [[-429, 200]], expected: [495, 500]),
        QuotaTrace(
            source: "2026 initial 14: retry once → 0, next → quota exceeded", policy: .awsStandard2026, initial: 14,
            operations: [[500, 500]], expected: [0, 0], finalDecision: .stop(.budgetExhausted)),
        QuotaTrace(
            source: "2026 initial 20: → 6, next 502 → quota exceeded", policy: .awsStandard2026, initial: 20,
            operations: [[500, 502]], expected: [6, 6], finalDecision: .stop(.budgetExhausted)),
        QuotaTrace(
            source: "2026 initial 30: →16 →2 →(200)16 →2 →(200)16", policy: .awsStandard2026, initial: 30,
            operations: [[500, 500, 200], [500, 200]], expected: [16, 2, 16, 2, 16]),
        QuotaTrace(
            source: "pre-2026: 500 →(5xx)495 →(5xx)490 →(200)495", policy: .awsStandard, initial: 500,
            operations: [[500, 503, 200]], expected: [495, 490, 495]),
        QuotaTrace(
            source: "pre-2026: a retry after a timeout costs 10, refunded by the success after it", policy: .awsStandard,
            initial: 500, operations: [[0, 200]], expected: [490, 500]),
        QuotaTrace(
            source: "pre-2026: a first-try success adds 1, capped at 500", policy: .awsStandard, initial: 498,
            operations: [[200], [200], [200]], expected: [499, 500, 500])
    ]

    /// Status 0 is a response timeout; −429 a 429 with a throttling error code.
    static func outcome(_ status: Int) -> NormalizedError? {
        switch status {
        case 200: nil
        case 0: .timedOut(.response)
        case -429: .http(429, code: .throttling)
        default: .http(status)
        }
    }

    @Test("AWS retry quota traces (botocore quota.py, retry2026_test.go; §1.1, §1.2, §11)", arguments: quotaTraces, Route.allCases)
    func awsQuota(_ t: QuotaTrace, _ route: Route) throws {
        var driver = Driver(try route.apply(t.policy), r: 0.5)
        driver.host.budget.tokens = t.initial
        var tokens: [Int64] = []
        var last: RetryDecision?
        for op in t.operations {
            var record = OperationRecord()
            for status in op {
                guard driver.policy.admit(record: &record, host: &driver.host, now: driver.now, random: &driver.random) == .proceed else { break }
                driver.policy.attemptStarted(record: &record, host: &driver.host, now: driver.now)
                if let e = Self.outcome(status) {
                    last = driver.policy.decide(after: e, record: &record, host: &driver.host, now: driver.now, random: &driver.random)
                } else {
                    driver.policy.succeeded(record: &record, host: &driver.host, now: driver.now, random: &driver.random)
                }
                tokens.append(driver.host.budget.tokens)
            }
        }
        #expect(tokens == t.expected)
        if let f = t.finalDecision { #expect(last == f) }
    }

    @Test(
        "gRPC throttling (10, 0.1): failures take 9, 8, 7, 6 (retried), 5 (throttled); a success → 5.1, not throttled (§2, §11)",
        arguments: Route.allCases)
    func grpcThrottling(_ route: Route) throws {
        var p = try route.apply(.grpc)
        p.maxAttempts = 10
        var driver = Driver(p)
        var tokens: [Int64] = []
        var decisions: [RetryDecision] = []
        var record = OperationRecord()
        for _ in 0..<5 {
            #expect(p.admit(record: &record, host: &driver.host, now: driver.now, random: &driver.random) == .proceed)
            p.attemptStarted(record: &record, host: &driver.host, now: driver.now)
            let d = p.decide(after: .http(503), record: &record, host: &driver.host, now: driver.now, random: &driver.random)
            decisions.append(d)
            tokens.append(driver.host.budget.tokens)
            if case .retry(let at) = d { driver.now = at }
        }
        #expect(tokens == [9000, 8000, 7000, 6000, 5000])
        #expect(decisions.map { if case .retry = $0 { true } else { false } } == [true, true, true, true, false])
        #expect(decisions.last == .stop(.budgetExhausted))
        driver.run([nil])
        #expect(driver.host.budget.tokens == 5100)
        #expect(driver.host.budget.tokens > GRPCRetryThrottling.a6Example.thresholdMilliTokens)
        // grpc-go takes the token before it tests: the next failure (→ 4.1) is not retried.
        #expect(driver.run([.http(503)]) == [.stop(.budgetExhausted)])
        #expect(driver.host.budget.tokens == 4100)
    }

    @Test("Finagle RetryBudget(): withdraw 5000, deposit 1000, reserve 500 000 — 100 retries with no traffic; 1000 requests add 200 (§3.1, §11)")
    func finagleBudget() throws {
        guard case .ratio(let f) = try Route.policyFile.apply(.finagle).budget else {
            Issue.record("finagle's budget is a ratio")
            return
        }
        #expect(f == .finagleDefault)
        #expect(f.withdrawalAmount == 5000 && f.depositAmount == 1000 && f.reserve == 500_000)
        var state = RetryBudgetState(.ratio(f))
        #expect(f.balance(&state, now: 0) == 100)
        var record = OperationRecord()
        record.attemptCount = 1
        let c = FailureClass(kind: .serverError, retryable: true)
        var granted = 0
        while state.tryAcquire(.ratio(f), failure: c, record: &record, active: 0, now: 0) { granted += 1 }
        #expect(granted == 100)
        var fresh = RetryBudgetState(.ratio(f))
        for i in 0..<1000 {
            var r = OperationRecord()
            fresh.requestStarted(.ratio(f), record: &r, now: Int64(i) * 5 * ms)
        }
        #expect(f.balance(&fresh, now: 5 * second) == 300)
        // The deposits expire with the window: 10 s later only the reserve is left.
        #expect(f.balance(&fresh, now: 16 * second) == 100)
    }

    @Test(
        "Envoy retry_budget 20 %, min 3: 100 active + pending → 20 concurrent retries; 10 → 3 (§4.2, §11)",
        arguments: [(100, 20), (10, 3)] as [(Int64, Int64)])
    func envoyBudget(active: Int64, allowed: Int64) {
        #expect(EnvoyRetryBudget.retryBudget.allowedConcurrentRetries(active: active) == allowed)
    }

    @Test(
        "SRE adaptive throttling, K = 2 (ch. 21; §8, §11)",
        arguments: [(100, 100, 0), (100, 50, 0), (100, 40, 0.198), (100, 10, 0.792), (100, 0, 0.990)] as [(Double, Double, Double)])
    func sreThrottling(requests: Double, accepts: Double, p: Double) {
        let got = AdaptiveThrottle.rejectionProbability(requests: requests, accepts: accepts, k: 2)
        #expect(abs(got - p) < 0.0005, "\(got)")
    }

    /// resilience4j's example: COUNT_BASED window 20, minimum 20, threshold 50 % (§5.1, §11).
    @Test(
        "resilience4j breaker: 10 of 20 failed → OPEN; 9 of 20 → CLOSED; 19 calls all failed → no decision",
        arguments: [(20, 10, BreakerStage.open), (20, 9, .closed), (19, 19, .closed)] as [(Int, Int, BreakerStage)], Route.allCases)
    func resilience4jBreaker(_ vector: (Int, Int, BreakerStage), _ route: Route) throws {
        let (calls, failures, phase) = vector
        let example = CircuitBreaker(
            window: .count(20), failureRateThreshold: 0.5, minimumCalls: 20,
            openDuration: CircuitBreaker.fixed(60 * second))
        let b = try #require(try route.apply(RetryPolicy(backoff: .immediate, maxAttempts: 1, breaker: example)).breaker)
        var state = CircuitBreakerState()
        var random = FixedUniformSource(0.5)
        // Successes first, failures last: the verdict does not depend on the order.
        for i in 0..<calls {
            state.record(b, failed: i >= calls - failures, epoch: state.epoch, now: 0, random: &random)
        }
        #expect(state.stage == phase)
    }

    @Test("RudderStack: after 5 retries a 30-minute cool-off, then the cycle again from U[3, 6) (§10, §11)", arguments: Route.allCases)
    func rudderstackCycle(_ route: Route) throws {
        var driver = Driver(try route.apply(.rudderstackMobile), r: 0)
        let d = driver.run(Array(repeating: .http(500), count: 8))
        // Waits 3, 6, 12, 24, 48 s (r = 0), then 30 min, then 3 s again.
        let starts: [Int64] = [3, 9, 21, 45, 93, 93 + 1800, 93 + 1800 + 3, 93 + 1800 + 9]
        #expect(d == starts.map { .retry(at: $0 * second) })
    }
}
