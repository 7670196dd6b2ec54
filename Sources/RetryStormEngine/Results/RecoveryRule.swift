/// When failures stop counting as the incident's, judged against the run's own state before the
/// trigger.
///
/// A bucket's failures are its attempts that timed out, were rejected or expired, and in a call
/// graph those answered with a failed call's status (``Counter/dependencyFailed``). Before the
/// trigger a healthy system may already fail a steady trickle (a heavy-tailed service behind a
/// tight timeout), so the rule first measures the baseline share p = failures / attempts over
/// the *baseline* buckets: those after the warmup that end at or before the trigger's start.
///
/// A stretch of buckets with `a` attempts and `f` failures is *failing* when
/// f > e + 4·√e + 2, with e = p·a the failures the baseline predicts: four standard deviations of
/// a Poisson count above it, plus two so that a handful at a small `e` (or a stray failure where
/// none failed before, e = 0) is not taken for a storm.
///
/// A bucket counts against recovery only when it fails more than the baseline predicts (f > e)
/// *and* the window that starts with it (``Recovery``'s `window`, cut at the horizon) is failing:
/// a failure must be sustained to count, so one slow request long after the storm does not
/// move the recovery.
package struct RecoveryRule: Sendable, Hashable {
    /// Failures per attempt before the trigger (0 without a baseline).
    package var baselineShare: Double

    /// The rule whose baseline is the `baseline` buckets of `failures` and `attempts` per bucket.
    package init(failures: [Int64], attempts: [Int64], baseline: Range<Int>) {
        var f: Int64 = 0
        var a: Int64 = 0
        for b in baseline.clamped(to: 0..<min(failures.count, attempts.count)) {
            f += failures[b]
            a += attempts[b]
        }
        baselineShare = a > 0 ? Double(f) / Double(a) : 0
    }

    /// Whether a stretch with `attempts` attempts and `failures` failures is failing.
    package func failing(failures: Int64, attempts: Int64) -> Bool {
        let expected = baselineShare * Double(attempts)
        return Double(failures) > expected + 4 * expected.squareRoot() + 2
    }

    /// The last bucket in `buckets` that fails more than the baseline predicts and starts a
    /// failing window of `window` buckets (cut at the end of `failures`); nil if none.
    package func lastFailing(failures: [Int64], attempts: [Int64], in buckets: Range<Int>, window: Int) -> Int? {
        let n = min(failures.count, attempts.count)
        // Running sums from the end: sums[i] holds the failures and attempts of buckets i..<n.
        var sf = [Int64](repeating: 0, count: n + 1)
        var sa = [Int64](repeating: 0, count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            sf[i] = sf[i + 1] + failures[i]
            sa[i] = sa[i + 1] + attempts[i]
        }
        for b in buckets.clamped(to: 0..<n).reversed() {
            guard Double(failures[b]) > baselineShare * Double(attempts[b]) else { continue }
            let end = min(n, b + max(1, window))
            if failing(failures: sf[b] - sf[end], attempts: sa[b] - sa[end]) { return b }
        }
        return nil
    }
}
