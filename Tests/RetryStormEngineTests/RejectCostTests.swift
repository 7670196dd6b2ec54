import RetryPolicy
import RetryStormEngine
import Testing

/// `server.reject_cost` (issue 28): a rejection is work. A server kept busy by an overload of λ
/// requests per second, of capacity μ, serves S and rejects λ − S per second (no timeouts, no
/// retries: every arrival is served or rejected). Its workers' time is all spent, on requests and
/// on rejections at c of a request each: S + c·(λ − S) = μ, so S = (μ − c·λ) / (1 − c) — work
/// conservation, whichever door refuses (a full queue's 503 or the rate limiter's 429) and however
/// many workers share the capacity. With c = 0 it is μ: rejections free, the server serves at
/// capacity however hard it is pushed; as c·λ nears μ it serves nothing: the SRE book's cascade,
/// where refusing is itself the overload.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct RejectCostTests {
    static let s = Scenarios.s
    static let horizon = 200.0

    /// 1,000 clients at 0.2 operations per second each (λ = 200/s, twice μ = 100/s), one attempt
    /// each, a queue of 10, deterministic service (1/100 s per request and worker).
    static func scenario(cost: Double, workers: Int, rateLimit: Scenario.RateLimit? = nil) -> Scenario {
        var sc = Scenarios.make(
            clients: 1000, arrival: .constant(ratePerClient: 0.2, start: 0, until: .max), timeout: nil, capacity: 100,
            workers: workers, limit: 10, policy: Scenarios.noRetries, horizon: horizon)
        guard case .queue(var q) = sc.server.model else { preconditionFailure("a queue model") }
        q.rejectCost = cost
        sc.server.model = .queue(q)
        sc.server.rateLimit = rateLimit
        return sc
    }

    /// S·T for μ = 100/s, λ = 200/s over the 200 s horizon: (100 − 200c)/(1 − c) × 200.
    static func expectedServed(_ c: Double, lambda: Double = 200) -> Double { (100 - c * lambda) / (1 - c) * horizon }

    @Test(
        "a full queue's 503s at c of a request each leave (μ − cλ)/(1 − c) for requests",
        arguments: [(0.0, 1), (0.25, 1), (0.4, 1), (0.25, 4), (0.4, 4)])
    func shedding(cost: Double, workers: Int) {
        let r = Simulator.run(Self.scenario(cost: cost, workers: workers), replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        let m = r.summary
        // c = 0: 20,000; 0.25: 13,333; 0.4: 6,667 — within 0.5% (the start, the end, the queue).
        let expected = Self.expectedServed(cost)
        #expect(abs(Double(m.served) - expected) < 0.005 * expected, "served \(m.served), expected \(expected)")
        #expect(m.served + m.rejected <= m.attempts && m.attempts - m.served - m.rejected <= 10 + Int64(workers))
    }

    /// The rate limiter lets 95/s through (a bucket of 20 refilled at 95/s: offered twice that, it
    /// is empty nearly all the time, so it loses no refill), refusing 105/s with 429.
    /// Free, those refusals leave the workers 100/s for 95/s: all served. At c = 0.2 they cost
    /// 21/s of work, so the queue fills and sheds 503s too (also at c), and S + 0.2·(200 − S) = 100:
    /// S = 75/s, 15,000 in 200 s.
    @Test("429s from the rate limiter cost work too: (μ − cλ)/(1 − c) once the workers are saturated")
    func rateLimited() {
        let limit = Scenario.RateLimit(rate: 95, burst: 20, retryAfter: nil)
        let free = Simulator.run(Self.scenario(cost: 0, workers: 1, rateLimit: limit), replication: 0, checkInvariants: true).summary
        #expect(abs(Double(free.served) - 95 * Self.horizon) < 0.005 * 95 * Self.horizon)
        let r = Simulator.run(Self.scenario(cost: 0.2, workers: 1, rateLimit: limit), replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        let expected = Self.expectedServed(0.2)
        #expect(expected == 15_000)
        #expect(abs(Double(r.summary.served) - expected) < 0.005 * expected, "served \(r.summary.served)")
    }

    /// Rejection work is paid when the rejection happens, never as a debt. λ = 200/s against
    /// μ = 100/s at c = 0.25, one worker, a queue of 10; capacity drops to 10% for 30 s at 50 s and
    /// comes back at once. At 10% a rejection takes 0.25 × 0.1 s = 25 ms, and some 190 arrive a
    /// second: 4.75 s of refusing a second, which one worker cannot do (it refuses 40 a second).
    /// Owed without a bound, some 150 refusals a second pile up, about 4,500 by 80 s: over 11 s of
    /// work at full capacity, with new refusals still coming, and nothing is served while it is
    /// paid (measured before the bound: 0 requests in every bucket from 81 s to 89 s).
    /// Bounded at a full queue's worth of work (10 / 0.25 = 40 rejections; beyond them a refusal
    /// costs nothing, as a listen backlog that overflows), at most 40 × 2.5 ms = 0.1 s is owed when
    /// capacity returns. So from 81 s the server is back at the closed form's
    /// (μ − c·λ)/(1 − c) = 66.7 requests a second (the mean of 81–89 s within 3%).
    @Test("no debt: after an outage the server serves at (μ − cλ)/(1 − c) at once, not after paying off refusals")
    func noDebtAfterOutage() {
        var sc = Self.scenario(cost: 0.25, workers: 1)
        sc.server.profile = .outage(at: 50 * Self.s, duration: 30 * Self.s, fraction: 0.1, recovery: .constant, ramp: 0)
        let r = Simulator.run(sc, replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        let served = (81..<90).map { r.count(.served, bucket: $0) }
        let after = Double(served.reduce(0, +)) / 9
        #expect(abs(after - 200.0 / 3) < 0.03 * 200 / 3 && served.allSatisfy { $0 > 0 }, "served per second after the outage: \(served)")
        // Before the outage, the steady state the closed form gives: 66.7 a second.
        let before = Double((20..<50).reduce(Int64(0)) { $0 + r.count(.served, bucket: $1) }) / 30
        let closedForm = 200.0 / 3
        #expect(abs(before - closedForm) < 0.02 * closedForm, "served per second 20–50 s: \(before)")
    }

    /// The bound: a full queue's work, `limit / c` rejections, at least one request's work per
    /// worker (`workers / c`, all an unbounded queue allows); nothing when refusals are free.
    @Test("at most a full queue's work is owed: limit / c rejections, at least workers / c")
    func owedLimit() {
        func limit(workers: Int, limit: Int?, cost: Double) -> Int {
            Scenario.QueueModel(workers: workers, service: .deterministic, limit: limit, dropExpired: false, rejectCost: cost)
                .owedRejectionLimit
        }
        #expect(limit(workers: 1, limit: 10, cost: 0.25) == 40)
        #expect(limit(workers: 1, limit: 10, cost: 0.3) == 34)
        #expect(limit(workers: 64, limit: 10, cost: 0.5) == 128)
        #expect(limit(workers: 4, limit: nil, cost: 0.5) == 8)
        #expect(limit(workers: 4, limit: 100, cost: 0) == 0)
    }

    /// A rejection that costs nothing leaves the event-driven model's results as they were: the
    /// FIFO model (chosen when rejections are free) and the event-driven one (`allEvents`) agree
    /// bit for bit, and c = 0 on the event-driven model changes nothing.
    @Test("free rejections: the event-driven model gives what the FIFO model gives")
    func freeRejections() {
        let sc = Self.scenario(cost: 0, workers: 4)
        let fifo = Simulator.run(sc, replication: 0, checkInvariants: true).summary
        let events = Simulator.run(sc, replication: 0, checkInvariants: true, allEvents: true).summary
        #expect(fifo.served == events.served && fifo.rejected == events.rejected && fifo.attempts == events.attempts)
    }
}
