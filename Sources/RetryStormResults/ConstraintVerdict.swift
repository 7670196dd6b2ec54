import GSLSupport

/// A constraint or gate judged with its 95% confidence interval: one of three answers, so that a
/// mean just inside a bound is not reported as "met" when the replications cannot tell it from a
/// mean just outside.
///
/// For an expectation on the mean the whole interval [low, high] is judged:
/// - ``met``: every value of the interval satisfies the bound (`peak_load_ratio<=1.5` with the
///   interval 1.31…1.45, or with high exactly 1.5: `<=` holds at equality);
/// - ``notMet``: no value of it does (the interval wholly beyond the bound);
/// - ``withinNoise``: the interval crosses the bound (1.41 ± 0.10 against 1.5).
///
/// For `==` the interval meets the bound only when it is the single point (low = high = bound),
/// and misses it when the bound lies outside it; `!=` is the reverse. An expectation on an end of
/// the interval (`metric.ci95_high<=2`) already asks for confidence: it is met or not met on that
/// end alone. With one replication the interval is the value itself, so the answer is met or not
/// met. A mean that is not a number (a metric with no value) is not met.
public enum ConstraintVerdict: String, Sendable, Equatable, CaseIterable, Codable {
    /// Every value of the interval satisfies the bound.
    case met
    /// No value of it does (or there is no value).
    case notMet = "not met"
    /// The interval crosses the bound: the mean alone decides pass or fail, not the data.
    case withinNoise = "within noise of the bound"

    /// The verdict of `expectation` on the interval `ci` of its metric at one point.
    public init(_ expectation: Expectation, _ ci: ConfidenceInterval) {
        let op = expectation.op
        let bound = expectation.value
        guard expectation.statistic == .mean else {
            let x = expectation.statistic.value(ci)
            self = !x.isNaN && op.holds(x, bound) ? .met : .notMet
            return
        }
        guard !ci.mean.isNaN, !ci.low.isNaN, !ci.high.isNaN else {
            self = .notMet
            return
        }
        switch op {
        case .eq, .ne:
            // Satisfied by every value of the interval: for ==, only when the interval is the bound itself.
            let single = ci.low == bound && ci.high == bound
            let outside = bound < ci.low || bound > ci.high
            let (all, none) = op == .eq ? (single, outside) : (outside, single)
            self = all ? .met : none ? .notMet : .withinNoise
        case .le, .lt, .ge, .gt:
            // A one-sided bound holds on the whole interval when it holds at both ends, and nowhere
            // in it when it fails at both.
            let (low, high) = (op.holds(ci.low, bound), op.holds(ci.high, bound))
            self = low && high ? .met : !low && !high ? .notMet : .withinNoise
        }
    }

    /// Whether a point with this verdict meets the constraint with confidence.
    public var confident: Bool { self == .met }
}
