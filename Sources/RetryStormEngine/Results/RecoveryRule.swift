/// When clients stopped failing, judged against the run's own state before the trigger.
///
/// A bucket's failures are its attempts that timed out, were rejected or expired, and in a call
/// graph those answered with a failed call's status (``Counter/dependencyFailed``). Before the
/// trigger a healthy system may already fail a steady trickle (a heavy-tailed service behind a
/// tight timeout), so the rule first measures the baseline share p = failures / attempts over
/// the *baseline* buckets: those after the warmup that end at or before the trigger's start.
/// A bucket with `a` attempts and `f` failures is then failing when
/// - p = 0 (nothing failed before the trigger, or there is no before): f > 0, the rule without a
///   baseline, so a run that was clean before its trigger is judged exactly as it always was;
/// - p > 0: f > e + 4·√e + 2, with e = p·a the failures the baseline predicts: four standard
///   deviations of a Poisson count above it, plus two so that a handful at a small `e` is not
///   taken for a storm (a false alarm in one bucket in about 100,000).
///
/// The recovery is the start of the bucket after the last failing one.
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

    /// Whether a bucket with `attempts` attempts and `failures` failures is failing.
    package func failing(failures: Int64, attempts: Int64) -> Bool {
        guard baselineShare > 0 else { return failures > 0 }
        let expected = baselineShare * Double(attempts)
        return Double(failures) > expected + 4 * expected.squareRoot() + 2
    }

    /// The last failing bucket in `buckets` (nil if none).
    package func lastFailing(failures: [Int64], attempts: [Int64], in buckets: Range<Int>) -> Int? {
        buckets.reversed().first { failing(failures: failures[$0], attempts: attempts[$0]) }
    }
}
