/// Whether a replication, a population or one service of a call graph is *stuck* at the horizon:
/// in a bad state that the trigger no longer explains (a metastable failure, sustained by the
/// retries it causes), as opposed to one still recovering or one the trigger still holds down.
///
/// It is judged over the *tail*: the last `stuck_window` of the run (default 20 s, rounded up to
/// whole buckets), which must lie wholly after the trigger's end (capacity back at nominal, the
/// load back at its base, error windows over) and after the warmup. A run that ends sooner after
/// its trigger is not judged (NaN). Without a trigger the whole run is at its base, so the tail is
/// simply the run's last window.
///
/// - Users (summary.csv, populations.csv) are stuck when the operations that succeeded in the tail
///   (confirmed ones included) fall short of half of the operations started in it: the first
///   attempts offered. A shortfall under ``minimumShortfall`` operations is chance, so a stray
///   failure, or a tail with a handful of operations, never makes a run stuck.
/// - A service (services.csv) is stuck when its queue was at its limit at the end of every bucket of
///   the tail, or its goodput (requests served while their caller still waited: `served − wasted`)
///   falls short of half of what its callers sent it (`offered`), by the same minimum.
///
/// In a call graph the replication (summary.csv) is stuck when its users are or any service is: a
/// database stuck behind a cache is a storm that has not ended. Each value is 1 or 0, or NaN when
/// the tail does not fit; its mean over replications is P(stuck), which the tables show with a
/// Wilson interval (``Metric/stuck``).
package enum Stuck {
    /// Fewer operations (or requests) short than this is chance, not a stuck system: 3, as a
    /// recovery window with no failures before the trigger needs 3 failures (``RecoveryRule``).
    package static let minimumShortfall: Int64 = 3

    /// The tail's buckets: the last `window` (rounded up to whole buckets, at least one) of `nb`
    /// buckets of `bucket` nanoseconds; nil when they do not lie wholly after the trigger's end
    /// and the warmup's buckets (`warm`, the first bucket after it).
    package static func tail(buckets nb: Int, bucket: Int64, trigger: (start: Int64, end: Int64)?, warm: Int, window: Int64) -> Range<Int>? {
        let k = Int(min(Int64(nb) + 1, max(1, buckets(window, bucket))))
        let start = nb - k
        // The first bucket that starts at or after the trigger's end (a trigger that never ends,
        // or ends at the end of time, is far past any run).
        let calm = trigger.map { buckets(max($0.start, $0.end), bucket) } ?? 0
        guard start >= 0, start >= warm, Int64(start) >= calm else { return nil }
        return start..<nb
    }

    /// ⌈t / bucket⌉ for t ≥ 0, without the overflow of `(t + bucket − 1) / bucket` near `Int64.max`.
    static func buckets(_ t: Int64, _ bucket: Int64) -> Int64 {
        t / bucket + (t % bucket == 0 ? 0 : 1)
    }

    /// 1 when `succeeded` falls short of half of `started` by at least ``minimumShortfall``, else 0.
    package static func users(started: Int64, succeeded: Int64) -> Double {
        shortOfHalf(succeeded, of: started) ? 1 : 0
    }

    /// 1 when the queue was full at the end of every bucket (`queueFull`) or `goodput` falls short
    /// of half of `offered` by at least ``minimumShortfall``, else 0.
    package static func service(queueFull: Bool, offered: Int64, goodput: Int64) -> Double {
        queueFull || shortOfHalf(goodput, of: offered) ? 1 : 0
    }

    /// Whether `part` is under half of `whole` by at least ``minimumShortfall`` (compared doubled,
    /// so that odd totals need no rounding).
    static func shortOfHalf(_ part: Int64, of whole: Int64) -> Bool {
        2 * part < whole && whole - 2 * part >= 2 * minimumShortfall
    }

    /// The users' verdict from a recorder's flat counts (per bucket, per ``Counter``).
    package static func users(counts: [Int64], tail: Range<Int>?) -> Double {
        guard let tail else { return .nan }
        let width = Counter.allCases.count
        var started: Int64 = 0
        var succeeded: Int64 = 0
        for b in tail {
            started += counts[b * width + Counter.operations.rawValue]
            succeeded += counts[b * width + Counter.succeeded.rawValue] + counts[b * width + Counter.confirmed.rawValue]
        }
        return users(started: started, succeeded: succeeded)
    }

    /// A service's verdict from its flat counts and its queue at the end of each bucket.
    /// - Parameter queueLimit: the most requests that may wait (nil or 0: the queue test does not apply).
    package static func service(counts: [Int64], queueAtEnd: [Int64], queueLimit: Int?, tail: Range<Int>?) -> Double {
        guard let tail else { return .nan }
        let width = Counter.allCases.count
        let full = queueLimit.map { limit in limit > 0 && tail.allSatisfy { queueAtEnd[$0] >= Int64(limit) } } ?? false
        var offered: Int64 = 0
        var goodput: Int64 = 0
        for b in tail {
            offered += counts[b * width + Counter.offered.rawValue]
            goodput += counts[b * width + Counter.served.rawValue] - counts[b * width + Counter.wasted.rawValue]
        }
        return service(queueFull: full, offered: offered, goodput: goodput)
    }
}
