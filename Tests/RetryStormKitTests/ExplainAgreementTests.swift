import Foundation
import RetryStormKit
import Testing

/// `explain`'s laws against the simulator (docs/models.md, "Explain: the laws"): the tipping
/// verdict over a grid of load × trigger length × congestion, the drain time against the
/// simulator's recovery, and the collapse law against first passages measured in runs.
@Suite("Explain agrees with the simulator")
struct ExplainAgreementTests {
    /// experiments/metastable.yaml's system without its variants: 6,000 Poisson clients, a
    /// 1,000/s exponential server with a 2,000 queue, 1 s timeouts, 5 attempts at once, a 10%
    /// brownout at 30 s for `duration`.
    static func metastable(rate: Double, duration: Double, congestion: String) -> String {
        """
        name: grid
        seed: 42
        horizon: 300s
        bucket: 1s
        clients: {count: 6000, arrival: poisson, rate: \(rate)/s, timeout: 1s}
        server:
          model: queue
          capacity: 1000/s
          service: exponential
          congestion: \(congestion)
          queue: {limit: 2000}
          brownout: {at: 30s, duration: \(duration)s, fraction: 0.1}
        policy: {max_attempts: 5, backoff: {kind: none}}
        """
    }

    @Test("tips or recovers as 4 replications of the simulator do, at every point of a 5 × 6 × 2 grid away from the boundary")
    func tippingGrid() throws {
        var judged = 0
        var agreed = 0
        var misses: [String] = []
        for congestion in ["0ns", "200ns"] {
            for rate in [0.022, 0.026, 0.031, 0.036, 0.042] {
                for duration in [1.0, 2.0, 3.0, 5.0, 8.0, 15.0] {
                    let yaml = Self.metastable(rate: rate, duration: duration, congestion: congestion)
                    let experiment = try Experiment(yaml: yaml)
                    let e = Explainer.explain(experiment.base)
                    let service = try #require(e.services.first)
                    let sustain = try #require(service.sustain)
                    let trigger = try #require(service.trigger)
                    // Away from the boundary: the load 8% or more from the sustain law's, the
                    // trigger 25% or more from its critical length.
                    if abs(service.load / sustain.maxFirstAttemptLoad - 1) < 0.08 { continue }
                    if sustain.persists, let c = trigger.criticalDuration, abs(duration / c - 1) < 0.25 { continue }
                    if sustain.persists, let l = trigger.longestTipping, abs(duration / l - 1) < 0.25 { continue }
                    let runs = try experiment.run(ExperimentOptions(replications: 4, jobs: 2)).summaries()
                    let stuck = runs.filter { $0.value(.stuck) == 1 }.count
                    judged += 1
                    if (stuck >= 3 && trigger.tips) || (stuck <= 1 && !trigger.tips) {
                        agreed += 1
                    } else {
                        misses.append("\(congestion) \(rate)/s \(duration)s: \(stuck) of 4 stuck, tips \(trigger.tips)")
                    }
                }
            }
        }
        print("explain grid: \(agreed) of \(judged) points agree; \(misses)")
        #expect(judged >= 30, "too few points away from the boundary: \(judged)")
        #expect(Double(agreed) >= 0.95 * Double(judged), "\(agreed) of \(judged) agree; \(misses)")
    }

    @Test("a trigger long enough to fill the queue does not tip: its refusals end operations before they retry, in the simulator too")
    func tippingWindow() throws {
        // No congestion, 252/s: the fluid tips for a 10% brownout of 3.31 s to 5.22 s only.
        let e = Explainer.explain(try Experiment(yaml: Self.metastable(rate: 0.042, duration: 4, congestion: "0ns")).base)
        let trigger = try #require(e.services.first?.trigger)
        let a = try #require(trigger.criticalDuration)
        let b = try #require(trigger.longestTipping)
        #expect(abs(a - 3.314) < 0.01 && abs(b - 5.22) < 0.01, "\(a) to \(b)")
        for (duration, tips) in [(2.5, false), (4.2, true), (8.0, false), (15.0, false)] {
            let runs = try Experiment(yaml: Self.metastable(rate: 0.042, duration: duration, congestion: "0ns"))
                .run(ExperimentOptions(replications: 4, jobs: 2)).summaries()
            let stuck = runs.filter { $0.value(.stuck) == 1 }.count
            #expect(tips ? stuck >= 3 : stuck <= 1, "\(duration) s: \(stuck) of 4 stuck")
        }
    }

    @Test("the sustain law bounds every trigger: 142.8/s for metastable.yaml, below which no brownout tips it and above which one does")
    func sustainBoundary() throws {
        // n* solves c·n² + n/μ − τ = 0: c = 2e-7, μ = 1000, τ = 1 → n* = 854.1. Past it the
        // server serves as little as S(2001) = 1/(1 ms + 2001 × 200 ns) = 714.2/s at its full
        // queue; five attempts each → 142.84/s, 0.02381/s per client of 6,000.
        let e = Explainer.explain(try Experiment(yaml: Self.metastable(rate: 0.0225, duration: 6, congestion: "200ns")).base)
        let sustain = try #require(e.services.first?.sustain)
        #expect(abs(sustain.criticalBacklog - 854.10) < 0.01)
        #expect(abs(sustain.slowestRate - 714.18) < 0.01)
        #expect(abs(sustain.maxFirstAttemptLoad - 142.84) < 0.01)
        #expect(!sustain.persists)
        // 5.5% below it (135/s), no brownout length tips the simulator.
        for duration in [5.0, 6.0, 7.0, 8.0, 10.0] {
            let runs = try Experiment(yaml: Self.metastable(rate: 0.0225, duration: duration, congestion: "200ns"))
                .run(ExperimentOptions(replications: 4, jobs: 2)).summaries()
            #expect(runs.filter { $0.value(.stuck) == 1 }.count <= 1, "135/s, \(duration) s")
        }
        // 11% above it (159/s), below the 170.8/s that n* alone would give, a 6 s brownout (inside
        // the law's window of 5.68 s to 7.24 s) tips it in every replication.
        let above = try Experiment(yaml: Self.metastable(rate: 0.0265, duration: 6, congestion: "200ns"))
        let trigger = try #require(Explainer.explain(above.base).services.first?.trigger)
        #expect(trigger.tips)
        let high = try above.run(ExperimentOptions(replications: 4, jobs: 2)).summaries()
        #expect(high.filter { $0.value(.stuck) == 1 }.count >= 3)
    }

    @Test("a trigger that does not tip drains when the law says: the simulator's recovery is the trigger plus the drain, to its 1 s bucket")
    func drainTime() throws {
        for (rate, duration) in [(0.022, 20.0), (0.026, 20.0), (0.031, 2.0), (0.036, 1.0)] {
            let experiment = try Experiment(yaml: Self.metastable(rate: rate, duration: duration, congestion: "200ns"))
            let trigger = try #require(Explainer.explain(experiment.base).services.first?.trigger)
            #expect(!trigger.tips)
            let drain = try #require(trigger.drainTime)
            let runs = try experiment.run(ExperimentOptions(replications: 4, jobs: 2)).summaries()
            for r in runs {
                let recovery = try #require(r.value(.recovery))
                if !trigger.timesOut {
                    // Nothing fails: the simulator's recovery is 0.
                    #expect(recovery == 0, "\(rate)/s \(duration)s: recovery \(recovery) where the law has no timeout")
                    continue
                }
                // Recovery ends at the start of the bucket after the last failing one.
                #expect(
                    recovery >= duration + drain - 1 && recovery <= duration + drain + 2,
                    "\(rate)/s \(duration)s: recovery \(recovery), law \(duration) + \(drain)")
            }
        }
    }

    /// A server holding one less than the critical backlog refuses its first request exactly when
    /// the unlimited chain first reaches it, so the first refusal times the first passage.
    static func passage(attempts: Int, rate: Double, replications: Int) throws -> (law: Double, mean: Double, se: Double, censored: Int) {
        let yaml = """
            name: passage
            seed: 3
            horizon: 400s
            bucket: 100ms
            clients: {count: 1000, arrival: poisson, rate: \(rate)/s, timeout: 100ms}
            server: {model: queue, capacity: 100/s, service: exponential, queue: {limit: 8}}
            policy: {max_attempts: \(attempts), backoff: {kind: none}}
            """
        // n* = 100/s × 0.1 s = 10 requests; the room is 8 + 1 = 9, so the first refusal is the
        // first arrival to find 9, the passage to 10.
        let experiment = try Experiment(yaml: yaml)
        var unlimited = experiment.base
        if case .queue(var q) = unlimited.server.model {
            q.limit = nil
            unlimited.server.model = .queue(q)
        }
        let law = try #require(Explainer.explain(unlimited).services.first?.collapse?.meanTime)
        var times: [Double] = []
        var censored = 0
        for series in try experiment.run(ExperimentOptions(replications: replications, jobs: 2)).timeSeries() {
            let rejected = series.column(.rejected)
            if let b = rejected.firstIndex(where: { $0 > 0 }) { times.append((Double(b) + 0.5) * 0.1) } else { censored += 1 }
        }
        let mean = times.reduce(0, +) / Double(times.count)
        let sd = (times.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(times.count - 1)).squareRoot()
        return (law, mean, sd / Double(times.count).squareRoot(), censored)
    }

    @Test("one attempt: the collapse law is the M/M/1 first passage to n*, within 4 standard errors of 300 runs")
    func collapseOneAttempt() throws {
        let p = try Self.passage(attempts: 1, rate: 0.05, replications: 300)
        #expect(p.censored <= 3)
        #expect(abs(p.mean - p.law) < 4 * p.se, "law \(p.law) s, simulated \(p.mean) ± \(p.se) s")
    }

    @Test("five attempts: the collapse law's retries, taken as immediate, make it early by less than a third")
    func collapseRetries() throws {
        let p = try Self.passage(attempts: 5, rate: 0.05, replications: 300)
        #expect(p.law < p.mean && p.law > 0.67 * p.mean, "law \(p.law) s, simulated \(p.mean) ± \(p.se) s")
    }
}
