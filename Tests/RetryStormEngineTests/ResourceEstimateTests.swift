import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// The memory estimate's operations in flight: Poisson rate × the longest an operation can live,
/// attempts × timeout plus the longest waits between them under the policy's backoff.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct ResourceEstimateTests {
    static let s = Scenarios.s

    /// 1,000 clients at 0.01/s (10 operations/s), 2 s timeouts, 6 attempts, exponential backoff
    /// from 1 s (retry n waits at most 2^(n−1) s under full jitter), capped at 60 s.
    static func fleet(_ jitter: Jitter, shedRetryAfter: Int64? = nil) -> Scenario {
        var sc = Scenarios.make(
            clients: 1000, arrival: .poisson(ratePerClient: 0.01, start: 0, until: .max), timeout: 2, capacity: 100,
            policy: RetryPolicy(backoff: Backoff(kind: .exponential, base: s, max: 60 * s, jitter: jitter), maxAttempts: 6),
            horizon: 600)
        if case .queue(var q) = sc.server.model {
            q.shedRetryAfter = shedRetryAfter
            sc.server.model = .queue(q)
        }
        return sc
    }

    // Lifetimes: 6 × 2 s of attempts plus the five waits.
    //   full, equal, none:  1 + 2 + 4 + 8 + 16 = 31 s            → 43 s → 430 operations
    //   proportional(0.5):  31 × 1.5 = 46.5 s                      → 58.5 s → 585
    //   decorrelated:       U[base, 3·prev) < 3, 9, 27, 60, 60 = 159 s → 171 s → 1,710
    //   a 20 s Retry-After on 503s: max(2^(n−1), 20) = 5 × 20 = 100 s → 112 s → 1,120
    @Test(
        "peak operations = rate × (attempts × timeout + the backoff's longest waits)",
        arguments: [
            (Jitter.full, nil, 430), (.equal, nil, 430), (.none, nil, 430), (.proportional(0.5), nil, 585),
            (.decorrelated, nil, 1710), (.full, 20, 1120)
        ] as [(Jitter, Int64?, Int)])
    func peakOperations(jitter: Jitter, retryAfterSeconds: Int64?, expected: Int) {
        let e = ResourceEstimate(Self.fleet(jitter, shedRetryAfter: retryAfterSeconds.map { $0 * Self.s }))
        #expect(e.expectedOperations == 6000)
        #expect(e.peakOperations == expected)
    }

    @Test("a burst has every operation in flight at once")
    func burst() {
        var sc = Self.fleet(.full)
        sc.clients.arrival = .burst(at: 0)
        #expect(ResourceEstimate(sc).peakOperations == 1000)
    }

    /// A call graph's events on top of the clients': 10 clients in a burst, 3 attempts each, no
    /// backoff gaps to bound them (30 client attempts); a frontend calls a backend twice per
    /// request with 4 attempts per call: 30 × 2 × 4 = 240 requests at the backend, 270 in all, each
    /// with at most three events (its service's, and a call attempt's timeout and send): 810 more
    /// than the same fleet against one server.
    @Test("a call graph's requests multiply down its calls, and so do its events")
    func callGraphEvents() {
        let server = Scenario.Server(
            capacity: 1000, profile: .constant, model: .queue(.init(workers: 1, service: .deterministic, limit: nil, dropExpired: false)))
        var one = Scenarios.make(
            clients: 10, arrival: .burst(at: 0), timeout: 1, capacity: 1000, policy: Scenarios.constantBackoff(0.01, attempts: 3),
            horizon: 100)
        one.server = server
        var graph = one
        graph.services = [
            .init(
                name: "frontend", server: server,
                calls: [.init(to: 1, count: 2, timeout: Self.s, policy: Scenarios.constantBackoff(0.01, attempts: 4))]),
            .init(name: "backend", server: server)
        ]
        let base = ResourceEstimate(one)
        let withGraph = ResourceEstimate(graph)
        #expect(base.attemptsPerOperation == 3 && base.expectedOperations == 10)
        #expect(withGraph.maxEvents - base.maxEvents == 3 * (30 + 240))
        // Hedged with 3 copies, the call makes at most 3 attempts whatever its max_attempts
        // (4): 30 + 30 × 2 × 3 = 210 requests.
        graph.services[0].calls[0].policy.hedging = Hedging(delay: .fixed(0), maxAttempts: 3)
        #expect(ResourceEstimate(graph).maxEvents - base.maxEvents == 3 * (30 + 180))
    }
}
