import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// The server's front door (the rate limiter and the error mix, in front of any model) against
/// what a token bucket and independent draws must give. The `flaky` model with no failures and no
/// latency answers every request it sees with 200 at once, so every 429, 400, 500 and lost answer
/// comes from the door; clients never retry, so each attempt is one operation.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct FrontDoorTests {
    static let s = Scenarios.s

    static func scenario(ratePerSecond: Double, errors: Scenario.ErrorMix = .none, rateLimit: Scenario.RateLimit? = nil) -> Scenario {
        Scenario(
            name: "front-door", seed: 17, horizon: 200 * s, bucket: s,
            clients: .init(count: 1000, arrival: .poisson(ratePerClient: ratePerSecond / 1000, start: 0, until: .max), timeout: s),
            server: .init(
                capacity: 1_000_000, profile: .constant, model: .flaky(.init(failure: 0, latency: 0)), errors: errors,
                rateLimit: rateLimit),
            policy: Scenarios.noRetries)
    }

    /// A token bucket of 10 tokens refilled at 50/s admits at most 10 + 50 × 200 = 10,010 requests
    /// in 200 s, whatever comes. Offered 100/s, twice the refill, it is empty nearly all the time:
    /// a token is lost only while the bucket is full, which needs arrivals to fall 10 behind the
    /// refill — for Poisson arrivals at twice the refill rate, a chance of about 2⁻¹⁰ — so it admits
    /// more than 99% of 10,000. Every other attempt is refused with 429 (counted as rejected).
    @Test("the rate limiter admits at most burst + rate × time, and nearly that under twice its rate")
    func rateLimiter() {
        let sc = Self.scenario(ratePerSecond: 100, rateLimit: .init(rate: 50, burst: 10, retryAfter: nil))
        let r = Simulator.run(sc, replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        let m = r.summary
        #expect(m.served <= 10_010)
        #expect(m.served >= 9_900)
        #expect(m.succeeded == m.served)
        #expect(m.rejected == m.attempts - m.served)
        // Offered 100/s for 200 s: Poisson, 20,000 ± 4.5 × √20,000.
        #expect(abs(Double(m.attempts) - 20_000) < 4.5 * 20_000.0.squareRoot())
    }

    /// Each 200 is rewritten with probability 10% to 400, 20% to 500, 5% to a lost answer (the
    /// client times out), independently. Over n ≈ 100,000 answers each share is binomial: within
    /// 4.5 standard deviations, √(p(1 − p)/n), of its probability.
    @Test("the error mix rewrites each answer independently, in the declared shares")
    func errorMix() {
        let sc = Self.scenario(ratePerSecond: 500, errors: .init(permanent: 0.1, serverError: 0.2, ambiguous: 0.05))
        let r = Simulator.run(sc, replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        let m = r.summary
        let answered = Double(m.succeeded + m.failed + m.timedOut)
        // Only lost answers whose 1 s timeout falls after the horizon are still unanswered: about 5% of 500.
        #expect(m.attempts - Int64(answered) < 60)
        for (count, p) in [(m.failed, 0.3), (m.timedOut, 0.05), (m.succeeded, 0.65)] {
            let bound = 4.5 * (p * (1 - p) / answered).squareRoot()
            #expect(abs(Double(count) / answered - p) < bound, "\(count) of \(answered), expected share \(p)")
        }
    }
}

/// The rate limiter's bucket with every token counted by hand.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct RateLimiterTraceTests {
    /// A bucket of 3 tokens refilled at 1/s (`server.rate_limit`); the `flaky` model with no
    /// failures and no latency answers 200 to whatever passes. One client (population a) starts an
    /// operation at 0 s, five (population b) at 2.5 s; nobody retries.
    ///
    /// t = 0: the bucket is full (3); a takes a token: 2 left.
    /// t = 2.5: 2.5 s of refill would make 2 + 2.5 = 4.5, but a bucket never holds more than its
    /// burst: 3. The first three of b take them (3 → 0); the other two find less than one token
    /// and get 429 at once. So 4 served, 2 rejected; b: 3 succeeded, 2 gave up (one attempt each).
    /// Without the cap on a partial refill the bucket would hold 4.5 and admit four of b.
    @Test("a partial refill never fills the bucket past its burst: 3 of 5 pass 2.5 s after a bucket of 3 was left with 2")
    func partialRefillIsCapped() {
        let s = Scenarios.s
        var sc = Scenario(
            name: "rate-limit", seed: 3, horizon: 10 * s, bucket: s,
            clients: .init(count: 6, arrival: .burst(at: 0), timeout: nil),
            server: .init(
                capacity: 1_000_000, profile: .constant, model: .flaky(.init(failure: 0, latency: 0)),
                rateLimit: .init(rate: 1, burst: 3, retryAfter: nil)),
            policy: Scenarios.noRetries)
        sc.populations = [
            .init(name: "a", clients: .init(count: 1, arrival: .burst(at: 0), timeout: nil), policy: Scenarios.noRetries),
            .init(name: "b", clients: .init(count: 5, arrival: .burst(at: Scenarios.ns(2.5)), timeout: nil), policy: Scenarios.noRetries)
        ]
        let r = Simulator.run(sc, replication: 0, options: EngineOptions(checkInvariants: true, maxEvents: 1000))
        #expect(r.invariantViolation == nil)
        #expect(r.summary.attempts == 6 && r.summary.served == 4 && r.summary.rejected == 2)
        #expect(r.populations.map(\.succeeded) == [1, 3])
        #expect(r.populations.map(\.gaveUp) == [0, 2])
    }
}
