import Foundation
import RetryPolicy
import RetryStormEngine
import Testing

/// Cancellation that reaches downstream (`calls[].cancellation: propagate`): hand traces of a
/// chain gateway → api → db with deterministic service times, derived in each comment.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct CancellationTests {
    typealias G = CallGraphTests
    static let ms = 1e-3

    /// The chain: gateway and api do 1 ms of their own work each (1,000 workers, 10⁶/s) and hold
    /// their workers while they call; db has one worker taking 1 s. gateway's call to api times
    /// out at 100 ms (one attempt); api's call to db waits 100 s. The clients never retry.
    static func chain(gatewayCancels: Bool, apiCancels: Bool, hedge: Bool = false, clients: Int) -> Scenario {
        let fast = G.server(capacity: 1_000_000, workers: 1000)
        var toApi = G.call(1, attempts: 1, timeout: hedge ? 100 : 0.1)
        toApi.propagateCancellation = gatewayCancels
        if hedge { toApi.policy.hedging = Hedging(delay: .fixed(Scenarios.ns(0.01)), maxAttempts: 2) }
        var toDb = G.call(2, attempts: 1, timeout: 100)
        toDb.propagateCancellation = apiCancels
        return G.graph(
            [
                .init(name: "gateway", server: fast, calls: [toApi]), .init(name: "api", server: fast, calls: [toDb]),
                .init(name: "db", server: G.server(capacity: 1, workers: 1))
            ],
            clients: clients, arrival: .burst(at: 0), policy: Scenarios.noRetries, horizon: 60)
    }

    static func served(_ r: ReplicationResult, _ k: Int, from bucket: Int) -> Int64 {
        r.services[k].total(.served, in: bucket..<r.services[k].queueAtEnd.count)
    }

    /// Three requests at t = 0 reach api at 1 ms and db at 2 ms: db serves the first from 2 ms to
    /// 1.002 s; the other two wait. gateway's attempts time out at 101 ms, and the clients fail.
    /// - Propagating at both edges: api's three requests, making their calls, are cancelled
    ///   (wasted at api, 3); each abandons its call to db (3 calls cancelled at db, their 3
    ///   attempts abandoned) and cancels its request there: the one in service finishes at
    ///   1.002 s as wasted work (db served 1, wasted 1); the two queued leave unserved, so db
    ///   serves nothing after its first second.
    /// - Propagating at gateway only: api's calls are abandoned the same (3 cancelled at db), but
    ///   db serves all three, to 3.002 s, each answer wasted.
    /// - Propagating nowhere: db serves all three for api, which waits for them (nothing cancelled
    ///   at db, nothing wasted there); api's three answers, at 1.003, 2.003 and 3.003 s, come
    ///   after gateway stopped waiting: 3 wasted at api.
    @Test("a timeout cancels downstream: queued requests leave, the one in service is wasted, calls below end")
    func timeoutTrace() {
        let both = G.run(Self.chain(gatewayCancels: true, apiCancels: true, clients: 3))
        #expect(both.summary.succeeded == 0 && both.summary.operations == 3)
        #expect(both.services[1].total(.timedOut) == 3)
        #expect(both.services[1].total(.wasted) == 3)
        #expect(both.services[2].total(.offered) == 3)
        #expect(both.services[2].callsCancelled == 3)
        #expect(both.services[2].total(.abandoned) == 3)
        #expect(both.services[2].total(.served) == 1)
        #expect(both.services[2].total(.wasted) == 1)
        #expect(Self.served(both, 2, from: 2) == 0)
        // api's requests end when cancelled: 100 ms after they arrived at 1 ms (services.csv's
        // latencies, within the histogram's 1/256), where without cancellation they end with
        // db's answers, 1.002 s, 2.002 s and 3.002 s after arriving.
        #expect(abs(both.services[1].latencyP50 - 0.1) <= 0.1 / 256 + 1e-6 && abs(both.services[1].latencyP99 - 0.1) <= 0.1 / 256 + 1e-6)

        let top = G.run(Self.chain(gatewayCancels: true, apiCancels: false, clients: 3))
        #expect(top.services[2].callsCancelled == 3)
        #expect(top.services[2].total(.served) == 3)
        #expect(top.services[2].total(.wasted) == 3)
        #expect(Self.served(top, 2, from: 3) == 1)

        let none = G.run(Self.chain(gatewayCancels: false, apiCancels: false, clients: 3))
        #expect(none.services[2].callsCancelled == 0 && none.services[2].total(.abandoned) == 0)
        #expect(none.services[2].total(.served) == 3)
        #expect(none.services[2].total(.wasted) == 0)
        #expect(none.services[1].total(.wasted) == 3)
        #expect(abs(none.services[1].latencyP99 - 3.002) <= 3.002 / 256)
    }

    /// Two requests, X and Y, gateway's call hedged (a second copy 10 ms after the first, no
    /// timeout to speak of). Both first copies reach db at 2 ms: X1 is served to 1.002 s, Y1 waits;
    /// the second copies leave gateway at 11 ms and wait at db from 13 ms, behind Y1. At 1.002 s
    /// db starts Y1 and X1's answer wins X's call: X2 is abandoned (counted at api).
    /// - With cancellation at both edges, api's X2 request, making its call, is cancelled: its
    ///   call to db ends (cancelled) and db's queued X2 leaves unserved. At 2.002 s Y1's answer
    ///   wins Y's call as db starts Y2, which is cancelled in service and finishes at 3.002 s as
    ///   wasted work. db serves 3 of its 4 requests, nothing after 3.002 s; 2 calls cancelled.
    /// - Without, both second copies' queries run on: db serves all 4, the last to 4.002 s, and
    ///   their answers reach api's requests, still waiting, whose answers gateway no longer wants.
    @Test("a hedged copy outrun by another cancels its database query")
    func outrunCopy() {
        let cancels = G.run(Self.chain(gatewayCancels: true, apiCancels: true, hedge: true, clients: 2))
        #expect(cancels.summary.succeeded == 2)
        #expect(cancels.services[1].total(.offered) == 4 && cancels.services[1].total(.abandoned) == 2)
        #expect(cancels.services[2].total(.offered) == 4)
        #expect(cancels.services[2].callsCancelled == 2)
        #expect(cancels.services[2].total(.served) == 3)
        #expect(cancels.services[2].total(.wasted) == 1)
        #expect(Self.served(cancels, 2, from: 4) == 0)
        let runs = G.run(Self.chain(gatewayCancels: false, apiCancels: false, hedge: true, clients: 2))
        #expect(runs.summary.succeeded == 2)
        #expect(runs.services[2].total(.served) == 4)
        #expect(runs.services[2].callsCancelled == 0 && runs.services[2].total(.wasted) == 0)
        #expect(runs.services[1].total(.wasted) == 2)
        #expect(Self.served(runs, 2, from: 4) == 1)
    }
}

extension CancellationTests {
    /// Every path that abandons a call at once: a diamond of services under overload, each edge
    /// propagating cancellation and deadlines, with retries, hedged copies, a stage of two calls
    /// and a concurrency limit whose waiting calls are cancelled in the queue for a slot. The
    /// graph's conservation laws are checked after every event (a call that ends uncounted, or
    /// an attempt that leaves the in-flight count twice, breaks them), and the numbers must move
    /// the way cancellation moves them at this load (60 operations a second, db near its 400/s
    /// with the hedged copies and retries): some calls cancelled at db, fewer requests served
    /// there and more users served. Seeds 1–3 measured 4,936/4,716/4,782 served at db against
    /// 6,745/6,913/6,737 without, and 1,125/1,186/1,160 operations succeeded against 935/927/971.
    /// (Deep in overload it can go the other way: a thread-per-request api whose cancelled
    /// requests free their workers at once takes more work and passes it down.)
    @Test("cancellation under load keeps the graph's conservation laws, and the bottom serves less")
    func underLoad() {
        func scenario(_ cancels: Bool, seed: UInt64) -> Scenario {
            func call(_ to: Int, hedge: Bool = false, limit: Int? = nil, stage: Int? = nil) -> Scenario.Call {
                var c = G.call(to, attempts: 3, timeout: 0.05, propagate: true)
                c.stage = stage
                c.propagateCancellation = cancels
                if hedge { c.policy.hedging = Hedging(delay: .fixed(Scenarios.ns(0.01)), maxAttempts: 3) }
                if let limit { c.policy.concurrency = ConcurrencyLimit(maxInFlight: limit) }
                return c
            }
            var sc = G.graph(
                [
                    .init(name: "gateway", server: G.server(capacity: 5000, workers: 50), calls: [call(1, hedge: true)]),
                    .init(
                        name: "api", server: G.server(capacity: 4000, workers: 40, service: .exponential),
                        calls: [call(2, limit: 8, stage: 1), call(3, stage: 1)]),
                    .init(name: "cache", server: G.server(capacity: 3000, workers: 30, service: .exponential), calls: [call(3)]),
                    .init(name: "db", server: G.server(capacity: 400, workers: 4, service: .exponential))
                ],
                clients: 2000, arrival: .poisson(ratePerClient: 0.03, start: 0, until: Scenarios.ns(20)), timeout: 0.3,
                policy: Scenarios.constantBackoff(0.02, attempts: 3), horizon: 30, seed: seed)
            sc.clients.deadline = Scenarios.ns(0.25)
            return sc
        }
        for seed: UInt64 in 1...3 {
            let on = G.run(scenario(true, seed: seed))
            let off = G.run(scenario(false, seed: seed))
            #expect(on.services[3].callsCancelled > 0 && off.services[3].callsCancelled == 0)
            #expect(on.services[3].total(.served) < off.services[3].total(.served))
            #expect(on.summary.succeeded > off.summary.succeeded)
        }
    }
}
