/// How a replication, or one service of a call graph, came back from its incident
/// (``Scenario/trigger``): when its failures stopped (``RecoveryRule``), and whether it was still
/// saturated at the horizon.
///
/// *Saturated at the horizon* is judged over the last `window` of the run that is wholly after the
/// trigger's end (none when the trigger is still on within it):
/// - its queue was full (at `queueLimit`) at the end of every bucket of it, or
/// - its goodput (requests served while their caller still waited: `served − wasted`) fell short
///   of what reached it (`offered`) by more than four standard deviations of a Poisson count plus
///   two, once scaled by the share of what reached it that it served usefully before the trigger
///   (a rate limit or a lossy baseline is not saturation).
///
/// A run saturated at the horizon has not recovered, though nothing may be failing yet: work is
/// piling up faster than it is done, or done for nobody.
package struct Recovery: Sendable, Hashable {
    /// Seconds from the trigger's start to the start of the first healthy bucket: 0 when no bucket
    /// failed, +inf when the failures or the saturation last to the horizon, NaN without a trigger.
    package var seconds: Double
    /// The first bucket after the last failing one (nil: never healthy, or no trigger).
    package var healthyBucket: Int?
    /// Still saturated at the horizon (false without a trigger, or when the trigger is still on
    /// in the last window).
    package var saturated: Bool

    /// The recovery of what `counts` (per bucket, per ``Counter``) and `queueAtEnd` recorded.
    /// - Parameters:
    ///   - queueLimit: the most requests that may wait (nil or 0: the queue test does not apply).
    ///   - bucket: the width of one bucket, nanoseconds.
    ///   - trigger: the incident's start and end, nanoseconds (nil: no incident, `seconds` is NaN).
    ///   - warm: the first bucket after the warmup; earlier buckets neither fail nor form the baseline.
    ///   - window: nanoseconds; rounded up to whole buckets, at least one.
    package init(
        counts: [Int64], queueAtEnd: [Int64], queueLimit: Int?, bucket: Int64,
        trigger: (start: Int64, end: Int64)?, warm: Int, window: Int64
    ) {
        let width = Counter.allCases.count
        let nb = queueAtEnd.count
        guard let trigger, nb > 0 else {
            self.init(seconds: .nan, healthyBucket: nil, saturated: false)
            return
        }
        func count(_ b: Int, _ c: Counter) -> Int64 { counts[b &* width &+ c.rawValue] }
        let failures = (0..<nb).map { b in
            count(b, .timedOut) + count(b, .rejected) + count(b, .expired) + count(b, .dependencyFailed)
        }
        let attempts = (0..<nb).map { count($0, .firstAttempts) + count($0, .retries) }
        let first = min(warm, nb)
        let baseline = first..<max(first, min(nb, Int(trigger.start / bucket)))
        let rule = RecoveryRule(failures: failures, attempts: attempts, baseline: baseline)
        let k = max(1, Int((window + bucket - 1) / bucket))

        // The last window, wholly after the trigger's last bucket.
        let triggerEnd = min(nb, Int((max(trigger.start, trigger.end) - 1) / bucket) + 1)
        let tail = max(first, triggerEnd, nb - k)..<nb
        var saturated = false
        if !tail.isEmpty {
            let full = queueLimit.map { limit in limit > 0 && tail.allSatisfy { queueAtEnd[$0] >= Int64(limit) } } ?? false
            func goodput(_ buckets: Range<Int>) -> (useful: Double, offered: Double) {
                buckets.reduce((0.0, 0.0)) { s, b in
                    (s.0 + Double(count(b, .served) - count(b, .wasted)), s.1 + Double(count(b, .offered)))
                }
            }
            let before = goodput(baseline)
            let share = before.offered > 0 ? min(1, max(0, before.useful / before.offered)) : 1
            let end = goodput(tail)
            let expected = share * end.offered
            saturated = full || end.useful < expected - 4 * expected.squareRoot() - 2
        }
        if saturated {
            self.init(seconds: .infinity, healthyBucket: nil, saturated: true)
            return
        }
        guard let lastBad = rule.lastFailing(failures: failures, attempts: attempts, in: first..<nb, window: k) else {
            self.init(seconds: 0, healthyBucket: first, saturated: false)
            return
        }
        if lastBad == nb - 1 {
            self.init(seconds: .infinity, healthyBucket: nil, saturated: false)
            return
        }
        let healthyFrom = Int64(lastBad + 1) * bucket
        self.init(seconds: max(0, Double(healthyFrom - trigger.start) / 1e9), healthyBucket: lastBad + 1, saturated: false)
    }

    package init(seconds: Double, healthyBucket: Int?, saturated: Bool) {
        self.seconds = seconds
        self.healthyBucket = healthyBucket
        self.saturated = saturated
    }

    /// 1 when it recovered before the horizon, 0 when not, NaN without a trigger.
    package var recovered: Double { seconds.isNaN ? .nan : seconds.isFinite ? 1 : 0 }

    /// Never recovered: what a run is when a service behind it is still saturated at the horizon.
    package var never: Recovery { seconds.isNaN ? self : Recovery(seconds: .infinity, healthyBucket: nil, saturated: saturated) }
}
