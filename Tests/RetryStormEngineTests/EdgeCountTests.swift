import RetryPolicy
import RetryStormEngine
import Testing

/// edges.csv's counts (issue 40): each edge's calls, attempts and their outcomes as its caller saw
/// them, which over the edges into a service add up to that service's own counts.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct EdgeCountTests {
    typealias G = CallGraphTests

    /// A diamond whose bottom has two callers: the gateway calls the frontend, then the backend;
    /// both call the database. The database (4 workers of 2 ms on average, exponential, a queue of
    /// 20, 20% of its answers 500) is near its capacity, so its callers see every outcome: answers,
    /// failures, refusals at the door, timeouts (20 ms). The frontend retries (3 attempts) within a
    /// token bucket of 30 retries a second, which refuses many; the backend hedges (a copy 5 ms
    /// after the last, 3 at most) within 100 a second, which refuses some. A 3 s warmup leaves a
    /// share of each count out.
    static func diamond() -> Scenario {
        let fast = G.server(capacity: 1_000_000, workers: 1000)
        var db = G.server(capacity: 2000, workers: 4, service: .exponential, errors: .init(serverError: 0.2))
        if case .queue(var q) = db.model {
            q.limit = 20
            db.model = .queue(q)
        }
        var retrying = G.call(3, attempts: 3, timeout: 0.02)
        retrying.policy.budget = .tokenBucket(TokenBucket(capacity: 20, refillPerSecond: 30))
        var hedged = G.call(3, attempts: 1, timeout: 0.02)
        hedged.policy.hedging = Hedging(delay: .fixed(5_000_000), maxAttempts: 3)
        hedged.policy.budget = .tokenBucket(TokenBucket(capacity: 20, refillPerSecond: 100))
        var sc = G.graph(
            [
                .init(
                    name: "gateway", server: fast, releaseWhileCalling: true,
                    calls: [G.call(1, attempts: 3, timeout: 0.5), G.call(2, attempts: 3, timeout: 0.5)]),
                .init(name: "frontend", server: fast, releaseWhileCalling: true, calls: [retrying]),
                .init(name: "backend", server: fast, releaseWhileCalling: true, calls: [hedged]),
                .init(name: "db", server: db)
            ],
            clients: 1000, arrival: .poisson(ratePerClient: 0.8, start: 0, until: Scenarios.ns(20)), timeout: 2,
            policy: Scenarios.noRetries, horizon: 20)
        sc.warmup = Scenarios.ns(3)
        return sc
    }

    @Test("over the edges into each service, every edge count sums to the service's own, failed to failed + rejected")
    func edgesSumToServices() {
        let sc = Self.diamond()
        let r = G.run(sc)
        let from = sc.firstBucketAfterWarmup(of: r.buckets)
        #expect(r.edges.map { "\($0.caller)>\($0.callee)" } == ["gateway>frontend", "gateway>backend", "frontend>db", "backend>db"])
        for (k, s) in r.services.enumerated().dropFirst() {
            var sum = EdgeCounts()
            for e in r.edges where e.callee == s.name {
                sum.calls += e.counts.calls
                sum.attempts += e.counts.attempts
                sum.retries += e.counts.retries
                sum.hedges += e.counts.hedges
                sum.budgetDenied += e.counts.budgetDenied
                sum.timedOut += e.counts.timedOut
                sum.failed += e.counts.failed
            }
            let t = { (c: Counter) in s.total(c, from: from) }
            #expect(sum.calls == t(.operations), "service \(k)")
            #expect(sum.attempts == t(.firstAttempts) + t(.retries) && sum.retries == t(.retries), "service \(k)")
            #expect(sum.hedges == t(.hedgesSent) && sum.budgetDenied == t(.budgetDenied), "service \(k)")
            #expect(sum.timedOut == t(.timedOut) && sum.failed == t(.failed) + t(.rejected), "service \(k)")
        }
        // Each count was exercised, and the warmup left some of each edge's calls out.
        let db = r.edges.filter { $0.callee == "db" }.map(\.counts)
        #expect(db.allSatisfy { $0.calls > 0 && $0.failed > 0 && $0.timedOut > 0 && $0.budgetDenied > 0 })
        #expect(db[0].retries > 0 && db[0].hedges == 0 && db[1].hedges > 0 && db[1].retries == db[1].hedges)
        #expect(r.services[3].total(.rejected, from: from) > 0)
        #expect(r.edges[0].counts.calls < r.services[1].total(.operations))
    }
}
