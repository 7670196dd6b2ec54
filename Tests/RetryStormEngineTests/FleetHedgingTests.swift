import Foundation
import RetryPolicy
import RetryStormEngine
import Testing

/// Hedged operations of the clients' fleet (issue 28, "a policy feature for the fleet and for
/// every edge"): the same closed forms and hand traces as the call graph's edges
/// (`HedgingTests`), at the clients. Expected values are derived in each comment; every run
/// checks the conservation laws (an outrun copy counts as abandoned).
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct FleetHedgingTests {
    static let ms = 1_000_000 as Int64

    /// One hop: `clients` clients whose policy makes one attempt, hedged with `hedging`, against
    /// a queue of `workers` workers serving `capacity` per second.
    static func scenario(
        hedging: Hedging?, clients: Int, arrival: Scenario.Arrival, capacity: Double, workers: Int,
        service: Scenario.ServiceTime = .deterministic, budget: RetryBudget = .unlimited, classifier: Classifier = .offlineFirst,
        timeout: Double? = nil, horizon: Double = 400
    ) -> Scenario {
        var policy = Scenarios.noRetries
        policy.hedging = hedging
        policy.budget = budget
        policy.classifier = classifier
        return Scenarios.make(
            clients: clients, arrival: arrival, timeout: timeout, capacity: capacity, service: service, workers: workers, policy: policy,
            horizon: horizon)
    }

    static func run(_ sc: Scenario) -> ReplicationResult {
        let r = Simulator.run(sc, replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        #expect(!r.eventLimitReached)
        return r
    }

    /// The whole run's count of `c`.
    static func total(_ r: ReplicationResult, _ c: Counter) -> Int64 {
        (0..<r.buckets).reduce(0) { $0 + r.count(c, bucket: $1) }
    }

    /// A heavy tail: Pareto service times, shape α = 2, mean 100 ms, so x_m = 50 ms and
    /// P(X > t) = (x_m/t)^α: the p99 is x_m·100^(1/α) = 0.5 s. Hedging at the p90,
    /// d = x_m·10^(1/α) = 158.1 ms: above d, P(T > t) = (x_m/t)^α·(x_m/(t − d))^α = 0.01 where
    /// t(t − d) = x_m²·100^(1/α): t = 0.25583 s. The sample p99's standard error over n = 200,000
    /// operations is √(0.0099/n)/f(t): 1.1% of 0.5 s unhedged, 0.3% hedged; the bounds are 4 of them.
    @Test("hedging at the p90 of a Pareto service halves its p99: 0.5 s → 0.256 s")
    func paretoTail() {
        let arrival = Scenario.Arrival.poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(200))
        let d = Int64((0.05 * 10.0.squareRoot() * 1e9).rounded())
        func run(_ h: Hedging?) -> ReplicationResult {
            Self.run(
                Self.scenario(hedging: h, clients: 100_000, arrival: arrival, capacity: 10_000, workers: 1000, service: .pareto(shape: 2)))
        }
        let hedged = run(Hedging(delay: .fixed(d), maxAttempts: 2))
        let plain = run(nil)
        #expect(abs(plain.summary.ttsSuccessP99 / 0.5 - 1) < 0.045)
        #expect(abs(hedged.summary.ttsSuccessP99 / 0.25583 - 1) < 0.013)
        // P(X₁ > d) = 0.1 of operations send a second copy.
        let ops = Double(hedged.summary.operations)
        #expect(abs(Double(Self.total(hedged, .retries)) - 0.1 * ops) <= 4 * (ops * 0.09).squareRoot())
    }

    /// A queued copy leaves the queue when another copy succeeds. Two operations at t = 0 on a
    /// server of one worker taking 100 ms; each sends a second copy 10 ms later. The queue (FIFO)
    /// is B₁, A₂, B₂ behind A₁. A₁ ends at 0.1 s: the worker takes B₁ as it frees, and A₁'s answer
    /// cancels A₂. B₁ ends at 0.2 s: the worker skips A₂ (cancelled, unserved, not expired) and
    /// takes B₂ before B₁'s answer can cancel it, so B₂ runs to 0.3 s as wasted work. Offered 4,
    /// served 3, wasted 1, abandoned 2 (A₂ and B₂); the operations end at 0.1 s and 0.2 s.
    @Test("a queued copy leaves the queue when a sibling succeeds")
    func cancelQueued() {
        let r = Self.run(
            Self.scenario(
                hedging: Hedging(delay: .fixed(10 * Self.ms), maxAttempts: 2), clients: 2, arrival: .burst(at: 0), capacity: 10,
                workers: 1))
        #expect(r.summary.succeeded == 2)
        #expect(Self.total(r, .offered) == 4 && Self.total(r, .served) == 3 && Self.total(r, .wasted) == 1)
        #expect(Self.total(r, .abandoned) == 2 && Self.total(r, .expired) == 0)
        #expect(abs(r.ttsQuantiles[0] - 0.1) < 1e-9 && abs(r.ttsQuantiles[1000] - 0.2) < 1e-9)
    }

    /// No delay: every copy at once (gRPC's default `hedgingDelay` of 0). Ten operations, 3
    /// copies each, on a server taking exactly 100 ms with no queueing: 30 requests, all served,
    /// the 2 losers of each wasted and abandoned, every operation done at 0.1 s. With one retry in
    /// each client's budget for the run (a client's budget is its own), each of the ten sends one
    /// extra copy (20 requests) and is refused the third once: a refused copy with no delay is not
    /// asked again at the same instant.
    @Test("a zero delay sends every copy at once; a budget refusal then sends no more")
    func zeroDelay() {
        func run(_ budget: RetryBudget) -> ReplicationResult {
            Self.run(
                Self.scenario(
                    hedging: Hedging(delay: .fixed(0), maxAttempts: 3), clients: 10, arrival: .burst(at: 0), capacity: 10_000,
                    workers: 1000, budget: budget))
        }
        let r = run(.unlimited)
        #expect(r.summary.succeeded == 10 && abs(r.ttsQuantiles[1000] - 0.1) < 1e-9)
        #expect(Self.total(r, .offered) == 30 && Self.total(r, .served) == 30 && Self.total(r, .wasted) == 20)
        #expect(Self.total(r, .abandoned) == 20)
        let capped = run(.perRun(retries: 1))
        #expect(capped.summary.succeeded == 10 && Self.total(capped, .offered) == 20)
        #expect(Self.total(capped, .budgetDenied) == 10)
    }

    /// Hedges spend the retry budget: one client with 10 retries for the whole run (`perRun(10)`)
    /// makes 100 operations one second apart, each slow enough to hedge (deterministic 100 ms,
    /// copies 10 ms apart, 3 at most): exactly 10 copies beyond the first go out, the first five
    /// operations' two each, and the later ones' are refused and counted.
    @Test("each hedge spends the retry budget as a retry")
    func budgetLimitsHedges() {
        let r = Self.run(
            Self.scenario(
                hedging: Hedging(delay: .fixed(10 * Self.ms), maxAttempts: 3), clients: 1,
                arrival: .constant(ratePerClient: 1, start: 0, until: Scenarios.ns(100)), capacity: 10_000, workers: 1000,
                budget: .perRun(retries: 10)))
        #expect(r.summary.succeeded == 100)
        #expect(Self.total(r, .offered) == 110 && Self.total(r, .retries) == 10)
        #expect(Self.total(r, .budgetDenied) > 0)
    }

    /// A percentile delay finds its own fixed point (the derivation in `HedgingTests`): two
    /// copies, exponential service (μ = 10/s, no queueing), the delay the p90 of the latencies the
    /// window records (the winner's, and the superseded copy's time out): x³ + 0.9x − 0.1 = 0,
    /// x = e^(−μd) = 0.109737 of operations hedge. Bounds: the bins (±7% of x) and the window's
    /// sampling (±3%), plus 4 binomial SDs.
    @Test("a p90 delay hedges the share of operations its fixed point gives: x³ + 0.9x − 0.1 = 0")
    func percentileFixedPoint() {
        let arrival = Scenario.Arrival.poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(300))
        let r = Self.run(
            Self.scenario(
                hedging: Hedging(delay: .percentile(0.9, window: 30_000_000_000), maxAttempts: 2), clients: 10_000, arrival: arrival,
                capacity: 10_000, workers: 1000, service: .exponential))
        let ops = Double(r.summary.operations)
        let x = 0.109737
        #expect(abs(Double(Self.total(r, .retries)) / ops - x) <= 0.10 * x + 4 * (x * (1 - x) / ops).squareRoot())
        #expect(r.summary.succeeded == r.summary.operations)
    }

    /// A copy on the wire carries its own deadline, not its newer sibling's. Two operations at
    /// t = 0, a constant 5 ms network each way, one worker taking 100 ms that drops expired
    /// requests, a 1 s timeout, copies 2 ms apart. X₁ arrives at 5 ms and is served to 105 ms; Y₁
    /// arrives at 5 ms too and waits, although its client sent Y₂ at 2 ms: Y₁'s deadline is its
    /// own 1.0 s, so at 105 ms the worker serves it (a deadline read off the newest copy, or
    /// "already given up", would drop it as expired). X₁'s answer, at 110 ms, cancels X₂. Y₁ ends
    /// at 205 ms: the worker skips X₂ and serves Y₂ as wasted work. Served 3, expired 0, wasted
    /// 1; the operations end at 0.11 s and 0.21 s.
    @Test("a copy delivered after a newer one was sent keeps its own deadline")
    func copyDeadlineOnTheWire() {
        var sc = Self.scenario(
            hedging: Hedging(delay: .fixed(2 * Self.ms), maxAttempts: 2), clients: 2, arrival: .burst(at: 0), capacity: 10, workers: 1,
            timeout: 1)
        sc.server.model = .queue(.init(workers: 1, service: .deterministic, limit: nil, dropExpired: true))
        sc.network = Scenario.Delay(shape: .constant, mean: 5 * Self.ms, spread: 0)
        let r = Self.run(sc)
        #expect(r.summary.succeeded == 2)
        #expect(Self.total(r, .served) == 3 && Self.total(r, .expired) == 0 && Self.total(r, .wasted) == 1)
        #expect(abs(r.ttsQuantiles[0] - 0.11) < 1e-9 && abs(r.ttsQuantiles[1000] - 0.21) < 1e-9)
    }

    /// An app restart abandons the copies out. Ten operations at t = 0 on a server taking exactly
    /// 100 ms (no queueing), copies 10 ms apart, 2 at most; every client restarts at 50 ms and
    /// keeps its schedule: both copies of each operation are abandoned (20), and each operation's
    /// next attempt goes out at once as a first copy again — its third attempt, so no copy
    /// follows it (2 at most) — and succeeds at 150 ms. The abandoned copies are served at 100 and
    /// 110 ms as wasted work. Offered 30, served 30, wasted 20, retries 20 (the copy at 10 ms and
    /// the attempt after the restart), succeeded 10.
    @Test("an app restart abandons every copy out; the operation goes on with a first copy")
    func restartAbandonsCopies() {
        var sc = Self.scenario(
            hedging: Hedging(delay: .fixed(10 * Self.ms), maxAttempts: 2), clients: 10, arrival: .burst(at: 0), capacity: 10_000,
            workers: 1000)
        sc.clients.restart = Scenario.Restart(at: 50 * Self.ms, fraction: 1)
        let r = Self.run(sc)
        #expect(r.summary.succeeded == 10)
        #expect(Self.total(r, .offered) == 30 && Self.total(r, .served) == 30 && Self.total(r, .wasted) == 20)
        #expect(Self.total(r, .abandoned) == 20 && Self.total(r, .retries) == 20)
        #expect(abs(r.ttsQuantiles[0] - 0.15) < 1e-9 && abs(r.ttsQuantiles[1000] - 0.15) < 1e-9)
    }

    /// The clients' cancellations reach a call graph's first service: ``cancelQueued()``'s trace
    /// at a frontend of one worker whose own work takes 100 ms and which frees its worker while it
    /// calls a backend that answers in 1 µs. A₁ ends its work at 0.1 s and its call at 0.100001 s;
    /// its answer cancels A₂, queued behind B₁; at 0.2 s the worker skips A₂ and takes B₂, which
    /// runs as wasted work (B₁'s answer comes 1 µs later). The frontend serves 3 of 4 requests and
    /// the backend gets 3 calls (4 without the cancellation); the operations end at 0.100001 s and
    /// 0.200001 s.
    @Test("a call graph's first service drops a client's queued copy when a sibling succeeds")
    func cancelAtGraph() {
        typealias G = CallGraphTests
        var policy = Scenarios.noRetries
        policy.hedging = Hedging(delay: .fixed(10 * Self.ms), maxAttempts: 2)
        let sc = G.graph(
            [
                .init(name: "frontend", server: G.server(capacity: 10, workers: 1), releaseWhileCalling: true, calls: [G.call(1, attempts: 1)]),
                .init(name: "backend", server: G.server(capacity: 1_000_000, workers: 1))
            ],
            clients: 2, arrival: .burst(at: 0), timeout: nil, policy: policy)
        let r = Self.run(sc)
        #expect(r.summary.succeeded == 2)
        #expect(r.services[0].total(.offered) == 4 && r.services[0].total(.served) == 3)
        #expect(r.services[1].total(.offered) == 3)
        #expect(Self.total(r, .abandoned) == 2)
        #expect(abs(r.ttsQuantiles[0] - 0.100001) < 1e-9 && abs(r.ttsQuantiles[1000] - 0.200001) < 1e-9)
    }

    /// A copy sent while its client is offline fails as an attempt does, and the policy decides
    /// as for any failed copy. Every client is offline until 1 s, with a 100 ms connect timeout;
    /// ten operations start at 0.95 s, copies 60 ms apart, 2 at most. Copy 1 goes nowhere (it
    /// fails at its connect timeout, 1.05 s, while copy 2 is out: the policy waits); copy 2, at
    /// 1.01 s, is online, served in 100 ms and succeeds at 1.11 s: 0.16 s after the start.
    /// Offline 10, offered 10, succeeded 10. With no connect timeout and 3 copies, all offline,
    /// each copy fails at once and sends the next, and the third's failure gives up: offline 30,
    /// offered 0.
    @Test("a copy sent while offline fails; the copies after it go on")
    func offlineCopies() {
        func run(connectTimeout: Int64, copies: Int) -> ReplicationResult {
            var sc = Self.scenario(
                hedging: Hedging(delay: .fixed(60 * Self.ms), maxAttempts: copies), clients: 10, arrival: .burst(at: 950 * Self.ms),
                capacity: 10_000, workers: 1000)
            sc.clients.offline = Scenario.Offline(at: 0, duration: Scenarios.s, fraction: 1, nudge: false)
            sc.clients.connectTimeout = connectTimeout
            return Self.run(sc)
        }
        let r = run(connectTimeout: 100 * Self.ms, copies: 2)
        #expect(r.summary.succeeded == 10)
        #expect(Self.total(r, .offline) == 10 && Self.total(r, .offered) == 10)
        #expect(abs(r.ttsQuantiles[0] - 0.16) < 1e-9 && abs(r.ttsQuantiles[1000] - 0.16) < 1e-9)
        let none = run(connectTimeout: 0, copies: 3)
        #expect(none.summary.succeeded == 0 && Self.total(none, .gaveUp) == 10)
        #expect(Self.total(none, .offline) == 30 && Self.total(none, .offered) == 0)
    }

    /// A caller's policy that asks for a copy after every failure, however many went out, gets
    /// five (gRPC's cap, what ``HedgeCopies`` holds), then its operation gives up: ten operations
    /// against a server that answers every request 500 make 50 requests, no more, and end.
    @Test("a policy asking for more than five copies gets five, then gives up")
    func moreThanFiveCopies() {
        struct Insistent: ClientPolicy {
            var hedging: Hedging? { Hedging(delay: .fixed(1_000_000_000), maxAttempts: 5) }
            func decide<R: UniformSource & ~Copyable>(
                after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
            ) -> RetryDecision {
                record.retry(at: now)
            }
            func copyFailed<R: UniformSource & ~Copyable>(
                after failure: NormalizedError, othersInFlight: Int32, record: inout OperationRecord, host: inout HostGuard,
                now: Nanoseconds, random: inout R
            ) -> HedgeDecision {
                .sendNow
            }
        }
        var sc = Self.scenario(hedging: nil, clients: 10, arrival: .burst(at: 0), capacity: 100_000, workers: 1000, horizon: 5)
        sc.server.errors = .init(serverError: 1)
        let r = Simulator.run(sc, custom: Insistent(), replication: 0, options: EngineOptions(checkInvariants: true), progress: nil)
        #expect(r.invariantViolation == nil)
        #expect(Self.total(r, .offered) == 50 && Self.total(r, .gaveUp) == 10)
    }

    /// A caller's own policy hedges through `ClientPolicy`'s defaults: it answers only `decide`
    /// (no retries) and `hedging`. Same arithmetic as ``exponentialMean()`` on fewer operations:
    /// second copies for e^(−μd) = 0.60653 of them, every loser abandoned.
    @Test("a custom policy with only decide and hedging hedges through the defaults")
    func customPolicyDefaults() {
        struct OneShotHedged: ClientPolicy {
            var hedging: Hedging? { Hedging(delay: .fixed(50_000_000), maxAttempts: 2) }
            func decide<R: UniformSource & ~Copyable>(
                after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
            ) -> RetryDecision {
                record.stop(.attemptsExhausted)
            }
        }
        let arrival = Scenario.Arrival.poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(50))
        let sc = Self.scenario(hedging: nil, clients: 10_000, arrival: arrival, capacity: 10_000, workers: 1000, service: .exponential)
        let r = Simulator.run(sc, custom: OneShotHedged(), replication: 0, options: EngineOptions(checkInvariants: true), progress: nil)
        #expect(r.invariantViolation == nil)
        let ops = Double(r.summary.operations)
        let p = exp(-0.5)
        #expect(r.summary.succeeded == r.summary.operations)
        #expect(abs(Double(Self.total(r, .retries)) - ops * p) <= 4 * (ops * p * (1 - p)).squareRoot())
        #expect(Self.total(r, .abandoned) == Self.total(r, .retries))
    }
}
