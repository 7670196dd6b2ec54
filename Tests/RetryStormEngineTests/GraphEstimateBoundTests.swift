import RetryPolicy
import RetryStormEngine
import Testing

/// A call graph's estimate (``ResourceEstimate``) is an upper bound on what the engine counts:
/// the events of a replication and the requests each service receives, for graph shapes whose
/// calls multiply requests in each way the engine has — an edge's retry loop whose attempts end
/// at a 1 µs timeout, an edge's zero-delay loop against a full queue below, fan-out at every
/// layer, and retries at every layer of a chain. Issue 38, item 5: on main the 1 µs loop's
/// estimate took each attempt to last a quarter of the service time (2 ms), not its 1 µs
/// timeout, and an edge's attempts were bounded by the first service's server, not the called
/// one's, so both estimates were below the run.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct GraphEstimateBoundTests {
    static let s = Scenarios.s

    /// Runs `sc` once with the invariant checks; `maxEvents` stops a run that would spin.
    static func run(_ sc: Scenario) -> ReplicationResult {
        let r = Simulator.run(sc, replication: 0, options: EngineOptions(checkInvariants: true, maxEvents: 20_000_000))
        #expect(r.invariantViolation == nil)
        #expect(!r.eventLimitReached)
        return r
    }

    /// A queue server of `capacity` requests per second over `workers` workers; `limit` waiting at most.
    static func server(capacity: Double, workers: Int = 8, limit: Int? = nil, errors: Scenario.ErrorMix = .none) -> Scenario.Server {
        .init(
            capacity: capacity, profile: .constant, model: .queue(.init(workers: workers, service: .exponential, limit: limit, dropExpired: false)),
            errors: errors)
    }

    /// A call of `attempts` attempts `wait` seconds apart (none: at once), each with `timeout` seconds.
    static func call(_ to: Int, attempts: Int, wait: Double?, timeout: Double?, count: Int = 1, parallel: Bool = false) -> Scenario.Call {
        let policy =
            wait.map { Scenarios.constantBackoff($0, attempts: attempts) }
            ?? RetryPolicy(backoff: Backoff(kind: .none, base: 0, max: 0, jitter: .none), maxAttempts: attempts)
        return Scenario.Call(to: to, count: count, parallel: parallel, timeout: timeout.map(Scenarios.ns), policy: policy)
    }

    /// `services` behind `clients` clients that start at once and make one attempt of 30 s each.
    static func graph(_ services: [Scenario.Service], clients: Int, horizon: Double) -> Scenario {
        var sc = Scenario(
            name: "bound", seed: 3, horizon: Scenarios.ns(horizon), bucket: s,
            clients: .init(count: clients, arrival: .burst(at: 0), timeout: Scenarios.ns(30)),
            server: services[0].server, policy: Scenarios.constantBackoff(0.01, attempts: 1))
        sc.services = services
        return sc
    }

    static let fast = server(capacity: 1000)
    static let failing = server(capacity: 100_000, workers: 100, errors: .init(serverError: 1))

    /// (what, scenario). Each measured figure is in the test's expectation message.
    static let shapes: [(String, Scenario)] = [
        // 2 clients; the front's call times out after 1 µs and waits 10 µs: about 1 s / 11 µs =
        // 90,909 attempts a call at the back. Main's bound: 1 s / (2 ms + 10 µs) = 498 attempts,
        // 3,002 events; the run counted 362,977 events.
        (
            "an edge retry loop with a 1 µs timeout",
            graph(
                [
                    .init(name: "front", server: fast, calls: [call(1, attempts: 1_000_000, wait: 10e-6, timeout: 1e-6)]),
                    .init(name: "back", server: fast)
                ], clients: 2, horizon: 1)
        ),
        // 5 clients; the back holds one request and one waiting, and refuses the rest at once;
        // the front's call retries at once, 20,000 attempts. Main bounded them by the front's
        // server (2 ms an attempt: 500 in 1 s), 7,550 events; the run counted 60,007.
        (
            "an edge's zero-delay loop over a full queue",
            graph(
                [
                    .init(name: "front", server: fast, calls: [call(1, attempts: 20_000, wait: nil, timeout: nil)]),
                    .init(name: "back", server: server(capacity: 1, workers: 1, limit: 1))
                ], clients: 5, horizon: 1)
        ),
        // 10 clients; each layer calls the next 4 times at once, 2 attempts a call, over a bottom
        // that fails every request: 10 × 8 × 8 × 8 = 5,120 requests at the bottom.
        (
            "fan-out at every layer",
            graph(
                [
                    .init(
                        name: "a", server: server(capacity: 100_000, workers: 100),
                        calls: [call(1, attempts: 2, wait: 0.001, timeout: 1, count: 4, parallel: true)]),
                    .init(
                        name: "b", server: server(capacity: 100_000, workers: 100),
                        calls: [call(2, attempts: 2, wait: 0.001, timeout: 1, count: 4, parallel: true)]),
                    .init(
                        name: "c", server: server(capacity: 100_000, workers: 100),
                        calls: [call(3, attempts: 2, wait: 0.001, timeout: 1, count: 4, parallel: true)]),
                    .init(name: "d", server: failing)
                ], clients: 10, horizon: 10)
        ),
        // 20 clients down a chain of four edges of 3 attempts over a bottom that always fails:
        // 20 × 3^4 = 1,620 requests at the bottom.
        (
            "retries at every layer of a chain",
            graph(
                (0..<4).map { k in
                    .init(name: "s\(k)", server: server(capacity: 100_000, workers: 100), calls: [call(k + 1, attempts: 3, wait: 0.001, timeout: 1)])
                } + [.init(name: "s4", server: failing)], clients: 20, horizon: 10)
        )
    ]

    @Test("the estimate bounds the events and each service's requests that a run counts", arguments: shapes.indices)
    func bound(index: Int) {
        let (what, sc) = Self.shapes[index]
        let e = ResourceEstimate(sc)
        let r = Self.run(sc)
        let requests = r.services.map { Double($0.total(.offered)) }
        #expect(e.maxEvents >= Double(r.summary.events), "\(what): estimate \(e.maxEvents) events, ran \(r.summary.events)")
        #expect(e.serviceRequests.count == requests.count, "\(what)")
        for (k, measured) in requests.enumerated() where k < e.serviceRequests.count {
            #expect(e.serviceRequests[k] >= measured, "\(what): \(sc.services[k].name) estimate \(e.serviceRequests[k]) requests, ran \(measured)")
        }
    }
}
