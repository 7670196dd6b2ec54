import Foundation
import RetryPolicy
import RetryStormEngine
import Testing

/// Stages (`calls[].stage`): the calls of one stage go out together and the request waits for
/// all of them; stages run in order. Expected values are closed forms, derived in each comment.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct StageTests {
    typealias G = CallGraphTests

    /// checkout (its own work 1 ms) calls inventory and payment, then db. inventory's service is
    /// exponential with mean 100 ms (rate a = 10/s), payment's with mean 50 ms (b = 20/s), db's
    /// 20 ms fixed; each has 1,000 workers for a few requests at a time, so nothing queues.
    ///
    /// With inventory and payment in stage 1 and db in stage 2, a request takes 1 ms + max(X, Y)
    /// + 20 ms, where E[max(X, Y)] = 1/a + 1/b − 1/(a + b) = 0.1 + 0.05 − 1/30 = 116.67 ms (the
    /// minimum of two exponentials is exponential with rate a + b) and
    /// E[max²] = 2/a² + 2/b² − 2/(a + b)² = 0.0227778 s², so Var = 0.0227778 − 0.116667² =
    /// 0.0091667 s². Unstaged, one after another: 1 + 100 + 50 + 20 = 171 ms, variance
    /// 0.01 + 0.0025 = 0.0125 s². 5,000 operations: means within 4 standard errors.
    @Test("a stage of two exponential services takes their expected maximum, 1/a + 1/b − 1/(a+b)")
    func expectedMaximum() {
        let front = G.server(capacity: 1000, workers: 1)
        func service(_ name: String, mean: Double, _ time: Scenario.ServiceTime) -> Scenario.Service {
            .init(name: name, server: G.server(capacity: 1000 / mean, workers: 1000, service: time))
        }
        func meanSeconds(staged: Bool) -> (Double, ReplicationResult) {
            var calls = [G.call(1, attempts: 1), G.call(2, attempts: 1), G.call(3, attempts: 1)]
            if staged { for (i, s) in [1, 1, 2].enumerated() { calls[i].stage = s } }
            let r = G.run(
                G.graph(
                    [
                        .init(name: "checkout", server: front, releaseWhileCalling: true, calls: calls),
                        service("inventory", mean: 0.1, .exponential), service("payment", mean: 0.05, .exponential),
                        service("db", mean: 0.02, .deterministic)
                    ],
                    clients: 5000, arrival: .poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(100)), policy: Scenarios.noRetries,
                    horizon: 200))
            #expect(r.summary.succeeded == r.summary.operations && r.summary.operations > 4500)
            for k in 1...3 { #expect(r.services[k].total(.offered) == r.summary.operations) }
            return (r.summary.ttsMean, r)
        }
        let n = 5000.0
        let (staged, _) = meanSeconds(staged: true)
        #expect(abs(staged - (0.001 + 0.1 + 0.05 - 1.0 / 30 + 0.02)) <= 4 * (0.0091667 / n).squareRoot() + 0.001)
        let (sequential, _) = meanSeconds(staged: false)
        #expect(abs(sequential - 0.171) <= 4 * (0.0125 / n).squareRoot() + 0.001)
    }

    /// inventory fails every request (500, not retried: one attempt); payment answers. In one
    /// stage, the request waits for payment too, then answers its caller 503 (the failed call's
    /// failure status) without starting stage 2: db sees nothing, payment sees every request.
    @Test("a failed call fails the request once its whole stage has ended, and later stages never start")
    func failureEndsAfterTheStage() {
        let front = G.server(capacity: 1000, workers: 1)
        let failing = G.server(capacity: 10_000, workers: 1000, errors: .init(serverError: 1))
        var calls = [G.call(1, attempts: 1), G.call(2, attempts: 1), G.call(3, attempts: 1)]
        for (i, s) in [1, 1, 2].enumerated() { calls[i].stage = s }
        let r = G.run(
            G.graph(
                [
                    .init(name: "checkout", server: front, releaseWhileCalling: true, calls: calls),
                    .init(name: "inventory", server: failing), .init(name: "payment", server: G.server(capacity: 10_000, workers: 1000)),
                    .init(name: "db", server: G.server(capacity: 10_000, workers: 1000))
                ],
                clients: 100, arrival: .poisson(ratePerClient: 0.1, start: 0, until: Scenarios.ns(50)), policy: Scenarios.noRetries,
                horizon: 100))
        #expect(r.summary.operations > 300)
        #expect(r.summary.succeeded == 0)
        #expect(r.services[2].total(.offered) == r.summary.operations)
        #expect(r.services[2].total(.succeeded) == r.summary.operations)
        #expect(r.services[3].total(.offered) == 0)
        // Every request waited for payment (0.1 ms) after inventory's failure (0.1 ms at once):
        // the answer comes after both; the clients' failures all came back.
        #expect(r.summary.operations == r.summary.gaveUp + r.summary.blocked)
    }
}
