import GSLSupport
import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// The engine's two shortcuts — a FIFO queue solved as requests arrive, and attempt outcomes
/// settled when the attempt is sent — against simulating every happening as a queued event
/// (``EngineOptions/allEvents``). They differ only in the order random draws are taken, so: equal
/// results when no draw can move, equal distributions when one can.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct ShortcutTests {
    static let s = Scenarios.s

    /// 5,000 Poisson clients through a 90 % outage on an exponential server with a bounded queue:
    /// timeouts, 503s, retries, give-ups and successes all occur.
    static func storm(
        jitter: Jitter, dropExpired: Bool = false, workers: Int = 1, limit: Int? = 400,
        bucket: Double = 1, profile: CapacityProfile? = nil, until: Int64 = .max
    ) -> Scenario {
        var sc = Scenarios.make(
            clients: 5000, arrival: .poisson(ratePerClient: 0.02, start: 0, until: until), timeout: 1, capacity: 120,
            service: .exponential, workers: workers, limit: limit, dropExpired: dropExpired,
            profile: profile ?? .outage(at: 20 * s, duration: 20 * s, fraction: 0.1, recovery: .linear, ramp: 20 * s),
            policy: RetryPolicy(backoff: Backoff(kind: .exponential, base: s / 2, max: 8 * s, jitter: jitter), maxAttempts: 5),
            horizon: 120, bucket: bucket)
        sc.seed = 5
        return sc
    }

    /// Capacity down to `fraction` from 30 s to the end of time. With operations arriving until
    /// 32 s, every client has given up long before the horizon; the request in service at 30 s
    /// finishes long after it (fraction 10⁻⁵: 830 s of service) or never (fraction 0).
    static func goesDown(to fraction: Double) -> CapacityProfile {
        CapacityProfile(segments: [.init(start: 30 * s, end: .max, from: fraction, to: fraction, shape: .constant)])
    }

    /// The cases: a bounded queue (the only one whose length is tracked request by request),
    /// drop_expired, several workers, an unbounded queue (its length only counted per time
    /// bucket), a bucket that does not divide the horizon (the last one is cut short), and a
    /// server that slows to a crawl with a request in service (the run lasts to the horizon, as
    /// that request's completion is still to come) or stops for good (the run ends when the last
    /// client gives up: nothing happens after that).
    @Test(
        "without jitter no draw moves: both ways give the same summary and time series",
        arguments: [
            (false, 1, 400, 1.0, nil), (true, 1, 400, 1, nil), (false, 4, 400, 1, nil),
            (false, 1, nil, 1, nil), (false, 2, nil, 7, nil), (false, 1, nil, 1, 1e-5), (true, 1, nil, 1, 0)
        ]
            as [(Bool, Int, Int?, Double, Double?)])
    func exactWithoutJitter(dropExpired: Bool, workers: Int, limit: Int?, bucket: Double, stopsAt: Double?) {
        let stops = stopsAt != nil
        let sc = Self.storm(
            jitter: .none, dropExpired: dropExpired, workers: workers, limit: limit, bucket: bucket,
            profile: stopsAt.map(Self.goesDown(to:)), until: stops ? 32 * Self.s : .max)
        let ahead = Simulator.run(sc, replication: 0, checkInvariants: true)
        let queued = Simulator.run(sc, replication: 0, checkInvariants: true, allEvents: true)
        #expect(ahead.invariantViolation == nil && queued.invariantViolation == nil)
        #expect(ahead.summary.timedOut > (stops ? 300 : 1000) && ahead.summary.gaveUp > 100)
        #expect(limit == nil || ahead.summary.rejected > 100)
        if let f = stopsAt { #expect(ahead.summary.unfinished == 0 && (ahead.summary.simEndSeconds == 120) == (f > 0)) }
        // Everything but the work done — as events, every attempt also has its timeout popped (stale
        // when the answer came first) and every served request a completion — and the rounding of
        // the queue's time integral (summed per request one way, per change the other).
        var a = ahead.summary
        var q = queued.summary
        #expect(a.events < q.events)
        #expect(abs(a.waitMeanSeconds - q.waitMeanSeconds) <= 1e-9 * q.waitMeanSeconds)
        #expect(abs(a.meanQueueLength - q.meanQueueLength) <= 1e-9 * q.meanQueueLength)
        a.events = 0
        q.events = 0
        a.waitMeanSeconds = 0
        q.waitMeanSeconds = 0
        a.meanQueueLength = 0
        q.meanQueueLength = 0
        // NaN ≠ NaN: an undefined metric (no success in the incident) is undefined in both.
        for path in [
            \Summary.incidentTTSP50, \Summary.incidentTTSP99, \Summary.incidentGaveUpFraction, \Summary.ttsMean,
            \Summary.ttsP50, \Summary.ttsP90, \Summary.ttsP99, \Summary.ttsP999, \Summary.ttsMax, \Summary.peakOverload,
            \Summary.ttsSuccessMean, \Summary.ttsSuccessP50, \Summary.ttsSuccessP90, \Summary.ttsSuccessP99, \Summary.ttsSuccessP999,
            \Summary.ttsSuccessMax, \Summary.incidentTTSSuccessP50, \Summary.incidentTTSSuccessP99, \Summary.unfinishedFraction,
            \Summary.recoveryAfterTriggerSeconds, \Summary.amplification, \Summary.gaveUpFraction, \Summary.blockedFraction,
            \Summary.incidentLoadRatio, \Summary.stuck
        ]
        where a[keyPath: path].isNaN && q[keyPath: path].isNaN {
            a[keyPath: path] = 0
            q[keyPath: path] = 0
        }
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
                // Among successes: the survival p99 is never in a replication that loses more than 1%, and has no mean.
                return [
                    Double(m.attempts), Double(m.succeeded), Double(m.gaveUp), m.ttsSuccessP50, m.ttsSuccessP99, Double(m.peakOfferedPerSecond)
                ]
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
