import GSLSupport
import RetryPolicy
import RetryStormEngine
import Testing

/// The engine's two shortcuts — a FIFO queue solved as requests arrive, and attempt outcomes
/// settled when the attempt is sent — against simulating every happening as a queued event
/// (``EngineOptions/allEvents``). They differ only in the order random draws are taken, so: equal
/// results when no draw can move, equal distributions when one can.
struct ShortcutTests {
    static let s = Scenarios.s

    /// 5,000 Poisson clients through a 90 % outage on an exponential server with a bounded queue:
    /// timeouts, 503s, retries, give-ups and successes all occur.
    static func storm(jitter: Jitter, dropExpired: Bool = false, workers: Int = 1) -> Scenario {
        var sc = Scenarios.make(
            clients: 5000, arrival: .poisson(ratePerClient: 0.02, start: 0, until: .max), timeout: 1, capacity: 120,
            service: .exponential, workers: workers, limit: 400, dropExpired: dropExpired,
            profile: .outage(at: 20 * s, duration: 20 * s, fraction: 0.1, recovery: .linear, ramp: 20 * s),
            policy: RetryPolicy(backoff: Backoff(kind: .exponential, base: s / 2, max: 8 * s, jitter: jitter), maxAttempts: 5),
            horizon: 120)
        sc.seed = 5
        return sc
    }

    @Test("without jitter no draw moves: both ways give the same summary and time series",
          arguments: [(false, 1), (true, 1), (false, 4)])
    func exactWithoutJitter(dropExpired: Bool, workers: Int) {
        let sc = Self.storm(jitter: .none, dropExpired: dropExpired, workers: workers)
        let ahead = Simulator.run(sc, replication: 0, checkInvariants: true)
        let queued = Simulator.run(sc, replication: 0, checkInvariants: true, allEvents: true)
        #expect(ahead.invariantViolation == nil && queued.invariantViolation == nil)
        #expect(ahead.summary.timedOut > 1000 && ahead.summary.rejected > 100 && ahead.summary.gaveUp > 100)
        // Everything but the work done — as events, every attempt also has its timeout popped (stale
        // when the answer came first) and every served request a completion — and the rounding of
        // the queue's time integral (summed per request one way, per change the other).
        var a = ahead.summary, q = queued.summary
        #expect(a.events < q.events)
        #expect(abs(a.waitMeanSeconds - q.waitMeanSeconds) <= 1e-9 * q.waitMeanSeconds)
        #expect(abs(a.meanQueueLength - q.meanQueueLength) <= 1e-9 * q.meanQueueLength)
        a.events = 0; q.events = 0
        a.waitMeanSeconds = 0; q.waitMeanSeconds = 0
        a.meanQueueLength = 0; q.meanQueueLength = 0
        #expect(a == q)
        #expect(ahead.counts == queued.counts)
        #expect(ahead.queueAtEnd == queued.queueAtEnd)
        #expect(ahead.ttsQuantiles == queued.ttsQuantiles)
    }

    @Test("with full jitter the draws come in another order: the means over 30 replications agree within their 99 % intervals")
    func sameDistributionWithJitter() {
        let sc = Self.storm(jitter: .full)
        func means(allEvents: Bool) -> [[Double]] {
            (0..<30).map { i in
                let m = Simulator.run(sc, replication: i, allEvents: allEvents).summary
                return [Double(m.attempts), Double(m.succeeded), Double(m.gaveUp), m.ttsP50, m.ttsP99, Double(m.peakOfferedPerSecond)]
            }
        }
        let ahead = means(allEvents: false)
        let queued = means(allEvents: true)
        for k in 0..<6 {
            let a = ahead.map { $0[k] }
            let b = queued.map { $0[k] }
            let ma = Statistics.mean(a)
            let mb = Statistics.mean(b)
            let sa = Statistics.standardDeviation(a)
            let sb = Statistics.standardDeviation(b)
            // Welch's difference of means; 2.75 ≈ the t quantile for 99 % two-sided at ~58 degrees of freedom.
            let se = (sa * sa / 30 + sb * sb / 30).squareRoot()
            #expect(abs(ma - mb) <= 2.75 * se, "metric \(k): \(ma) vs \(mb) (standard error \(se))")
        }
        // The two runs really differ (the draws moved), so the check above is not comparing a run with itself.
        #expect(ahead != queued)
    }
}
