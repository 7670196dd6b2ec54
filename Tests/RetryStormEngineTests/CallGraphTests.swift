import Foundation
import RetryPolicy
import RetryStormEngine
import Testing

/// The call graph (`services:`, issue 28): retries across layers, held workers, fan-out. Each
/// expected value is a product, a closed form or a hand trace, derived in the test's comment.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct CallGraphTests {
    static let s = Scenarios.s

    /// A queue server of `capacity` requests per second over `workers` workers.
    static func server(
        capacity: Double, workers: Int = 1, service: Scenario.ServiceTime = .deterministic, errors: Scenario.ErrorMix = .none,
        dropExpired: Bool = false
    ) -> Scenario.Server {
        .init(
            capacity: capacity, profile: .constant,
            model: .queue(.init(workers: workers, service: service, limit: nil, dropExpired: dropExpired)), errors: errors)
    }

    /// `services` behind a fleet of `clients` running `policy`; the first service's server is the scenario's.
    static func graph(
        _ services: [Scenario.Service], clients: Int, arrival: Scenario.Arrival, timeout: Double? = 100, policy: RetryPolicy,
        horizon: Double = 100, seed: UInt64 = 1
    ) -> Scenario {
        var sc = Scenario(
            name: "graph", seed: seed, horizon: Scenarios.ns(horizon), bucket: s,
            clients: .init(count: clients, arrival: arrival, timeout: timeout.map(Scenarios.ns)),
            server: services[0].server, policy: policy)
        sc.services = services
        return sc
    }

    static func call(
        _ to: Int, attempts: Int, count: Int = 1, parallel: Bool = false, timeout: Double? = 100,
        failureStatus: Int = 503, propagate: Bool = false, classifier: Classifier = .offlineFirst
    ) -> Scenario.Call {
        var policy = Scenarios.constantBackoff(0.01, attempts: attempts)
        policy.classifier = classifier
        return Scenario.Call(
            to: to, count: count, parallel: parallel, timeout: timeout.map(Scenarios.ns), policy: policy,
            failureStatus: failureStatus, propagateDeadline: propagate)
    }

    static func run(_ sc: Scenario) -> ReplicationResult {
        let r = Simulator.run(sc, replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        #expect(!r.eventLimitReached)
        return r
    }

    /// Three layers over a database that answers every request 500: the client makes 3 attempts,
    /// the frontend's calls 4, the backend's 5. Every backend request makes 5 attempts at the
    /// database and answers 503; every frontend request's call makes 4 attempts at the backend and
    /// answers 503; so one user action puts 3 requests on the frontend, 3 × 4 = 12 on the backend
    /// and 3 × 4 × 5 = 60 on the database (Google SRE book, ch. 22: "retries multiply"). When the
    /// backend answers 429 instead and nobody above retries 429 (no throttling status in their
    /// classifiers), only the layer above the failure retries: 1, 1 and 5.
    @Test("the product of attempts per layer when the bottom always fails: 3 × 4 × 5 = 60")
    func retriesMultiply() {
        let fast = Self.server(capacity: 1_000_000, workers: 1000)
        let failing = Self.server(capacity: 1_000_000, workers: 1000, errors: .init(serverError: 1))
        func run(status: Int, classifier: Classifier) -> ReplicationResult {
            var client = Scenarios.constantBackoff(0.01, attempts: 3)
            client.classifier = classifier
            return Self.run(
                Self.graph(
                    [
                        .init(name: "frontend", server: fast, calls: [Self.call(1, attempts: 4, failureStatus: status, classifier: classifier)]),
                        .init(name: "backend", server: fast, calls: [Self.call(2, attempts: 5, failureStatus: status, classifier: classifier)]),
                        .init(name: "db", server: failing)
                    ], clients: 10, arrival: .burst(at: 0), policy: client))
        }
        let r = run(status: 503, classifier: .offlineFirst)
        #expect(r.summary.operations == 10 && r.summary.attempts == 30 && r.summary.gaveUp == 10 && r.summary.succeeded == 0)
        #expect(r.services.map { $0.total(.offered) } == [30, 120, 600])
        #expect(r.services.map { $0.total(.served) } == [30, 120, 600])
        // The calls to each service and their attempts, as their callers count them.
        #expect(r.services[1].total(.operations) == 30 && r.services[1].total(.firstAttempts) == 30 && r.services[1].total(.retries) == 90)
        #expect(r.services[2].total(.operations) == 120 && r.services[2].total(.retries) == 480 && r.services[2].total(.failed) == 600)
        #expect(r.services[1].total(.gaveUp) == 30 && r.services[2].total(.gaveUp) == 120)

        let noThrottling = Classifier(throttlingStatuses: [])
        let shed = run(status: 429, classifier: noThrottling)
        #expect(shed.summary.attempts == 10 && shed.summary.gaveUp + shed.summary.blocked == 10)
        #expect(shed.services.map { $0.total(.offered) } == [10, 10, 50])
    }

    /// Independent failures: the frontend fails a request's own work with probability p₁ = 0.1
    /// (500, before it calls anything), the backend with p₂ = 0.3; the frontend's call makes up to
    /// m₂ = 3 attempts, the client up to m₁ = 2. A frontend request succeeds with probability
    /// s = (1 − p₁)(1 − p₂^m₂) = 0.9 × 0.973 = 0.8757, an operation with 1 − (1 − s)^m₁ =
    /// 0.98455449; a call makes (1 − p₂^m₂)/(1 − p₂) = 1.39 attempts on average (a truncated
    /// geometric). 20,000 operations: the counts lie within 4 standard deviations of n·P.
    @Test("closed forms for independent failures across two layers")
    func independentFailures() {
        let (p1, p2, m1, m2) = (0.1, 0.3, 2, 3)
        let front = Self.server(capacity: 1_000_000, workers: 1000, errors: .init(serverError: p1))
        let back = Self.server(capacity: 1_000_000, workers: 1000, errors: .init(serverError: p2))
        let n = 20_000
        let r = Self.run(
            Self.graph(
                [.init(name: "frontend", server: front, calls: [Self.call(1, attempts: m2)]), .init(name: "backend", server: back)],
                clients: n, arrival: .poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(100)),
                policy: Scenarios.constantBackoff(0.01, attempts: m1), horizon: 200))
        let ops = Double(r.summary.operations)
        let s = (1 - p1) * (1 - pow(p2, Double(m2)))
        let success = 1 - pow(1 - s, Double(m1))
        #expect(abs(Double(r.summary.succeeded) - ops * success) <= 4 * (ops * success * (1 - success)).squareRoot())
        // Frontend requests: one per attempt; their own work fails with p₁ (binomial).
        let frontRequests = Double(r.services[0].total(.offered))
        #expect(
            abs(Double(r.services[0].total(.failed)) - frontRequests * (p1 + (1 - p1) * pow(p2, Double(m2))))
                <= 4 * (frontRequests * 0.25).squareRoot())
        // Calls: one per frontend request whose own work succeeded; attempts per call 1.39, with
        // variance Var = Σ (2k − 1) P(N ≥ k) − E² over k = 1…3 (P(N ≥ k) = p₂^(k−1)).
        let callsMade = Double(r.services[1].total(.operations))
        #expect(abs(callsMade - frontRequests * (1 - p1)) <= 4 * (frontRequests * p1 * (1 - p1)).squareRoot())
        let mean = (1 - pow(p2, Double(m2))) / (1 - p2)
        let second = (1...m2).reduce(0.0) { $0 + Double(2 * $1 - 1) * pow(p2, Double($1 - 1)) }
        let attempts = Double(r.services[1].total(.firstAttempts) + r.services[1].total(.retries))
        #expect(abs(attempts - callsMade * mean) <= 4 * (callsMade * (second - mean * mean)).squareRoot())
        #expect(r.services[1].total(.offered) == Int64(attempts))
    }

    /// Fan-out: the frontend calls the backend 4 times, in parallel, and waits for all; the
    /// backend's service is exponential with mean 100 ms and never queues (1,000 workers for a
    /// few requests at a time). A request then takes its own 1 ms plus the slowest of 4
    /// exponentials, whose mean is H₄ × 100 ms = (1 + 1/2 + 1/3 + 1/4) × 100 = 208.33 ms and
    /// variance Σ 1/k² × (100 ms)² = 0.014236 s². Sequential calls take 4 × 100 = 400 ms (variance
    /// 4 × 0.01 s²). 5,000 operations: means within 4 standard errors.
    @Test("the slowest of a fan-out: H₄ × 100 ms against 4 × 100 ms one after another")
    func fanOut() {
        let front = Self.server(capacity: 1000, workers: 1)
        let back = Self.server(capacity: 10_000, workers: 1000, service: .exponential)
        func meanSeconds(parallel: Bool) -> Double {
            let r = Self.run(
                Self.graph(
                    [
                        .init(
                            name: "frontend", server: front, releaseWhileCalling: true,
                            calls: [Self.call(1, attempts: 1, count: 4, parallel: parallel)]),
                        .init(name: "backend", server: back)
                    ],
                    clients: 5000, arrival: .poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(100)), policy: Scenarios.noRetries,
                    horizon: 200))
            #expect(r.summary.succeeded == r.summary.operations && r.summary.operations > 4500)
            #expect(r.services[1].total(.offered) == 4 * r.summary.operations)
            return r.summary.ttsMean
        }
        let n = 5000.0
        let parallel = meanSeconds(parallel: true)
        #expect(abs(parallel - (0.001 + (1 + 1 / 2 + 1 / 3 + 1 / 4) * 0.1)) <= 4 * (0.014236 / n).squareRoot() + 0.001)
        let sequential = meanSeconds(parallel: false)
        #expect(abs(sequential - (0.001 + 0.4)) <= 4 * (0.04 / n).squareRoot() + 0.001)
    }

    /// Held workers: 10 requests at t = 0 on a frontend of one worker whose own work takes 10 ms,
    /// each calling a backend that takes 1 s (10 workers, no queue). Thread-per-request, the
    /// worker is held through the call: request k (k = 1…10) ends at k × 1.01 s. An event-loop
    /// server (`release_while_calling`) frees it after its own work: request k ends at
    /// k × 0.01 + 1 s. Deterministic service: exact times.
    @Test("a request holds its worker while it calls, unless the service releases it")
    func heldWorkers() {
        let front = Self.server(capacity: 100, workers: 1)
        let back = Self.server(capacity: 10, workers: 10)
        func times(release: Bool) -> [Double] {
            let r = Self.run(
                Self.graph(
                    [
                        .init(name: "frontend", server: front, releaseWhileCalling: release, calls: [Self.call(1, attempts: 1)]),
                        .init(name: "backend", server: back)
                    ],
                    clients: 10, arrival: .burst(at: 0), policy: Scenarios.noRetries, horizon: 60))
            #expect(r.summary.succeeded == 10)
            return [r.ttsQuantiles[0], r.ttsQuantiles[1000]]
        }
        let held = times(release: false)
        #expect(abs(held[0] - 1.01) < 1e-9 && abs(held[1] - 10.1) < 1e-9)
        let released = times(release: true)
        #expect(abs(released[0] - 1.01) < 1e-9 && abs(released[1] - 1.1) < 1e-9)
    }

    /// Deadline propagation: 10 requests at t = 0, clients waiting 1 s and never retrying; the
    /// frontend's own work takes 1 µs (1,000 workers), and its call (timeout 10 s, no retry) goes
    /// to a backend of one worker taking 0.5 s each, so backend request k starts at
    /// 1 µs + 0.5 (k − 1) s. Without propagation the backend serves all 10 (the 9 after the first
    /// for clients that stopped waiting at 1 s). With it, each call carries the deadline of 1 s:
    /// request 2 starts at 0.500001 s, before it, and is served; requests 3–10 reach the worker at
    /// 1.000001 s or later, past it, and are dropped unserved: 2 served, 8 expired. Either way one
    /// client succeeds (request 1, at 0.500001 s).
    @Test("a propagated deadline: the backend drops what its caller stopped waiting for")
    func propagatedDeadline() {
        let front = Self.server(capacity: 1_000_000, workers: 1000)
        let back = Self.server(capacity: 2, workers: 1)
        func run(_ propagate: Bool) -> ReplicationResult {
            Self.run(
                Self.graph(
                    [
                        .init(name: "frontend", server: front, calls: [Self.call(1, attempts: 1, timeout: 10, propagate: propagate)]),
                        .init(name: "backend", server: back)
                    ],
                    clients: 10, arrival: .burst(at: 0), timeout: 1, policy: Scenarios.noRetries, horizon: 30))
        }
        let free = run(false)
        #expect(free.summary.succeeded == 1 && free.summary.timedOut == 9)
        #expect(free.services[1].total(.served) == 10 && free.services[1].total(.expired) == 0)
        #expect(free.services[1].total(.succeeded) == 10)
        let cut = run(true)
        #expect(cut.summary.succeeded == 1 && cut.summary.timedOut == 9)
        #expect(cut.services[1].total(.served) == 2 && cut.services[1].total(.expired) == 8)
        // The calls time out at the deadline (1 s), the one served late is wasted work.
        #expect(cut.services[1].total(.timedOut) == 9 && cut.services[1].total(.wasted) == 1)
    }

    /// A budget shared by many clients: 100 clients send 1 request per second each (constant
    /// arrivals, 100 s) through a proxy whose call to a backend that always fails carries a
    /// Finagle retry budget (ttl 10 s, 10 retries per second in reserve, 20 % of requests; up to 10
    /// attempts). On the proxy's edge it is one budget: deposits of 1000 per request and
    /// withdrawals of 5000 per retry over 10 s, with a reserve of 10 × 10 × 5000, allow
    /// 0.2 × 1000 + 100 = 300 retries per 10 s in steady state, 30 per second: about 3,000 over the
    /// 100 s against 10,000 requests. The same budget in each client (the fleet's policy, one
    /// budget per client) has a reserve of 100 retries per client: every request makes its 10
    /// attempts, 9 retries each, 90,000 in all, which is why a proxy's budget cannot be modelled by
    /// the clients' own.
    @Test("a budget on a proxy's edge is shared by all its requests; in each client it is not")
    func sharedBudget() {
        let fast = Self.server(capacity: 1_000_000, workers: 1000)
        let failing = Self.server(capacity: 1_000_000, workers: 1000, errors: .init(serverError: 1))
        var budgeted = Scenarios.constantBackoff(0.01, attempts: 10)
        budgeted.budget = .ratio(FinagleRetryBudget(ttl: 10 * Self.s, minRetriesPerSecond: 10, percentCanRetry: 0.2))
        let arrival = Scenario.Arrival.constant(ratePerClient: 1, start: 0, until: 100 * Self.s)
        var edge = Self.call(1, attempts: 10)
        edge.policy = budgeted
        let proxy = Self.run(
            Self.graph(
                [.init(name: "proxy", server: fast, calls: [edge]), .init(name: "backend", server: failing)],
                clients: 100, arrival: arrival, policy: Scenarios.noRetries, horizon: 120))
        let calls = proxy.services[1].total(.operations)
        let retries = proxy.services[1].total(.retries)
        #expect(calls == 10_000)
        // 30 retries per second over 100 s, within the first window's ramp (the reserve alone, 100
        // retries, before any deposit has accumulated) and the last (retries of requests of the last second).
        #expect(abs(Double(retries) - 3000) <= 150)
        // Every call fails: refused by the budget or out of attempts.
        #expect(proxy.services[1].total(.gaveUp) + proxy.services[1].total(.blocked) == calls)
        #expect(proxy.services[1].total(.budgetDenied) > 0 && proxy.services[1].total(.budgetDenied) <= calls)

        let perClient = Self.run(
            Self.graph(
                [.init(name: "backend", server: failing)], clients: 100, arrival: arrival, policy: budgeted, horizon: 120))
        #expect(perClient.summary.operations == 10_000 && perClient.summary.retries == 90_000)
    }

    /// A call graph's clients see a database outage as 503s from the frontend (its call failed),
    /// not as timeouts or refusals: those count as failures for the recovery too. 50 requests per
    /// second (constant arrivals) through a frontend to a database of one worker serving 100/s
    /// with room for 5 waiting; from 20 s to 30 s it serves 10/s, its queue is full and it sheds,
    /// the frontend's call (one attempt) fails and it answers 503. Clients never time out (100 s)
    /// and never retry, so every failure they see is such an answer, from about 20 s to 30 s, and
    /// the database catches up at once (100/s against 50/s): recovered within a bucket or two
    /// after 30 s, 10 to 12 s after the trigger began. Counting only timeouts and refusals, it
    /// would say 0.
    @Test("the clients' failed-call answers count for the recovery")
    func recoveryCountsDependencyFailures() {
        let front = Self.server(capacity: 1_000_000, workers: 1000)
        let outage = CapacityProfile.outage(at: 20 * Self.s, duration: 10 * Self.s, fraction: 0.1, recovery: .constant, ramp: 0)
        let db = Scenario.Server(
            capacity: 100, profile: outage, model: .queue(.init(workers: 1, service: .deterministic, limit: 5, dropExpired: false)))
        let r = Self.run(
            Self.graph(
                [.init(name: "frontend", server: front, calls: [Self.call(1, attempts: 1)]), .init(name: "db", server: db)],
                clients: 50, arrival: .constant(ratePerClient: 1, start: 0, until: 60 * Self.s), policy: Scenarios.noRetries,
                horizon: 60))
        let answered503 = (0..<60).reduce(Int64(0)) { $0 + r.count(.dependencyFailed, bucket: $1) }
        #expect(answered503 == r.summary.failed && answered503 > 300)
        #expect(r.summary.timedOut == 0 && r.summary.rejected == 0)
        #expect(r.summary.recoverySeconds >= 10 && r.summary.recoverySeconds <= 12)
    }

    /// A graph whose backlog outgrows its memory stops, flagged, instead of dying when an
    /// allocation fails: 40,000 requests at t = 0 on a database that serves 200 per second wait in
    /// its queue (16 bytes each, with the graph's request records of 32 bytes and calls of 128
    /// behind them: megabytes), far above a 64 KiB limit, which the loop checks every 65,536
    /// events (the run has three per request: its arrival and two services'); with no limit the
    /// same run finishes.
    @Test("a call graph that outgrows its memory limit stops, flagged")
    func memoryLimit() {
        let front = Self.server(capacity: 1_000_000, workers: 1000)
        let slow = Self.server(capacity: 200, workers: 1)
        let sc = Self.graph(
            [
                .init(name: "frontend", server: front, releaseWhileCalling: true, calls: [Self.call(1, attempts: 1, timeout: 1000)]),
                .init(name: "db", server: slow)
            ],
            clients: 40_000, arrival: .burst(at: 0), timeout: 1000, policy: Scenarios.noRetries, horizon: 1000)
        let limited = Simulator.run(sc, replication: 0, options: EngineOptions(graphMemory: 64 << 10)).memoryLimitReached
        #expect(limited)
        let free = Simulator.run(sc, replication: 0, options: EngineOptions())
        let (stopped, succeeded) = (free.memoryLimitReached, free.summary.succeeded)
        #expect(!stopped && succeeded == 40_000)
    }
}
