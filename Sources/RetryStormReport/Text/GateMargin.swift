import GSLSupport
import RetryStormResults

/// The line a passing release gate prints: how far inside its bound the tightest point lies, in
/// the metric's unit, with the 95% interval and the verdict on the whole interval — a gate that
/// passes on the mean but whose interval crosses the bound says "within noise of the bound".
///
/// `peak_load_ratio<=1.5 (--expect peak_load_ratio<=1.5): base has 1.41× (95% CI [1.31, 1.51]), 0.09×
/// inside the bound; within noise of the bound`. A gate whose whole interval is inside ends
/// "met with confidence"; with one replication there is no interval and nothing is said of confidence.
public enum GateMargin {
    /// The line for `gate` over `points` (every point of `table` when nil), naming the point with
    /// the smallest margin (``Expectation/margin(_:)``); nil when the gate judges no point or fails
    /// at one (a failure has its own line).
    public static func line(_ gate: Expectation, in table: MetricTable, points: [String]? = nil) -> String? {
        let outcomes = gate.outcomes(in: table, points: points)
        guard !outcomes.isEmpty, outcomes.allSatisfy(\.holds),
            let tightest = outcomes.min(by: { gate.margin($0.value) < gate.margin($1.value) })
        else { return nil }
        // A difference's values are not the metric's: its format comes from the intervals judged.
        let f =
            gate.reference == nil
            ? ColumnFormat(metric: gate.metric, table: table) : ColumnFormat(metric: gate.judgedMetric, values: outcomes.map(\.interval))
        let ci = tightest.interval
        let interval = ci.count > 1 && ci.low.isFinite && ci.high.isFinite ? " (95% CI \(f.interval(ci)))" : " (one replication)"
        let judged = gate.statistic == .mean ? f.text(ci.mean) + interval : "\(gate.statistic.rawValue) \(f.text(tightest.value))\(interval)"
        let margin = gate.margin(tightest.value)
        let inside =
            gate.op == .eq ? "exactly at the bound" : margin == 0 ? "at the bound" : "\(f.text(margin)) inside the bound"
        // A difference names what it subtracts: "decorrelated − full-jitter has ci95_high -13.1%".
        let point = gate.reference.map { "\(tightest.point) − \($0.variant)" } ?? tightest.point
        let scope = outcomes.count == 1 ? point : "\(point) (the tightest of \(outcomes.count) points)"
        // One replication has no interval: nothing to say about confidence.
        let confidence =
            ci.count < 2 ? "" : tightest.verdict == .met ? "; met with confidence" : "; " + tightest.verdict.rawValue
        return "\(gate.text) (\(gate.location)): \(scope) has \(judged), \(inside)\(confidence)"
    }
}
