import GSLSupport

/// The difference of a metric between two points, replication by replication: with common random
/// numbers (replication r of every point draws the same arrivals and service times) the noise the
/// points share cancels, so a paired interval separates points whose own intervals overlap.
///
/// The interval is the Student-t 95% interval of the per-replication differences,
/// mean ± t(0.975, n − 1) · sd / √n over the n replications both points have. A difference whose
/// interval holds 0 is not told from noise.
public struct PairedDifference: Sendable, Hashable {
    /// The mean difference and its interval (count: the pairs).
    public var interval: ConfidenceInterval

    /// Pairs `a` with `b` by replication index; pairs where either value is NaN are left out, and
    /// a pair where both are the same infinity (neither recovered) differs by 0.
    package init(_ a: [Double], replications ra: [Int], minus b: [Double], replications rb: [Int]) {
        var byReplication: [Int: Double] = [:]
        for (r, x) in zip(rb, b) { byReplication[r] = x }
        var diffs: [Double] = []
        for (r, x) in zip(ra, a) {
            guard let y = byReplication[r], !x.isNaN, !y.isNaN else { continue }
            diffs.append(x == y ? 0 : x - y)
        }
        interval =
            diffs.isEmpty
            ? ConfidenceInterval(mean: .nan, low: .nan, high: .nan, count: 0)
            : Statistics.confidenceInterval95(diffs)
    }

    /// Whether the difference cannot be told from noise: too few pairs for an interval, or an
    /// interval that holds 0.
    public var indistinguishable: Bool {
        interval.count < 2 || interval.mean.isNaN || interval.contains(0)
    }

    /// Whether the first point is clearly above the second (the whole interval above 0).
    public var clearlyAbove: Bool { interval.count >= 2 && interval.low > 0 }
}
