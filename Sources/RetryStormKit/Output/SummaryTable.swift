import GSLSupport
import RetryStormEngine

/// The readable summary printed on stdout after a run: one row per metric, the mean over
/// replications and, with several, its 95% confidence interval.
public enum SummaryTable {
    struct Row: Sendable {
        let label: String
        let value: @Sendable (Summary) -> Double
        let decimals: Int
        let unit: String
    }

    static let rows: [Row] = [
        Row(label: "operations", value: { Double($0.operations) }, decimals: 0, unit: ""),
        Row(label: "succeeded", value: { Double($0.succeeded) }, decimals: 0, unit: ""),
        Row(label: "gave up", value: { Double($0.gaveUp) }, decimals: 0, unit: ""),
        Row(label: "blocked", value: { Double($0.blocked) }, decimals: 0, unit: ""),
        Row(label: "unfinished at horizon", value: { Double($0.unfinished) }, decimals: 0, unit: ""),
        Row(label: "attempts", value: { Double($0.attempts) }, decimals: 0, unit: ""),
        Row(label: "amplification", value: { $0.amplification }, decimals: 3, unit: "attempts/op"),
        Row(label: "peak offered load", value: { Double($0.peakOfferedPerSecond) }, decimals: 0, unit: "req/s"),
        Row(label: "peak load / capacity", value: { $0.peakLoadRatio }, decimals: 2, unit: "×"),
        Row(label: "time to success p50", value: { $0.ttsP50 }, decimals: 3, unit: "s"),
        Row(label: "time to success p99", value: { $0.ttsP99 }, decimals: 3, unit: "s"),
        Row(label: "time to success max", value: { $0.ttsMax }, decimals: 3, unit: "s"),
        Row(label: "recovery after outage", value: { $0.recoverySeconds }, decimals: 1, unit: "s"),
        Row(label: "timed out attempts", value: { Double($0.timedOut) }, decimals: 0, unit: ""),
        Row(label: "rejected attempts", value: { Double($0.rejected) }, decimals: 0, unit: ""),
        Row(label: "wasted work", value: { $0.wastedFraction * 100 }, decimals: 1, unit: "% of served"),
    ]

    /// The table for `results` of one variant.
    public static func render(title: String, results: [ReplicationResult]) -> String {
        let many = results.count > 1
        var lines = [title]
        let header = many ? "mean (95% CI over \(results.count) replications)" : "value"
        var cells: [(String, String)] = [("metric", header)]
        for row in rows {
            let xs = results.map { row.value($0.summary) }
            let text: String
            if many {
                let ci = Statistics.confidenceInterval95(xs)
                text = ci.mean.isFinite
                    ? "\(number(ci.mean, row.decimals)) [\(number(ci.low, row.decimals)), \(number(ci.high, row.decimals))]"
                    : number(ci.mean, row.decimals)
            } else {
                text = number(xs[0], row.decimals)
            }
            cells.append((row.label, row.unit.isEmpty ? text : "\(text) \(row.unit)"))
        }
        let width = cells.map(\.0.count).max() ?? 0
        for (i, (label, value)) in cells.enumerated() {
            lines.append("  " + label.padding(width) + "  " + value)
            if i == 0 { lines.append("  " + String(repeating: "-", count: width) + "  " + String(repeating: "-", count: value.count)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func number(_ x: Double, _ decimals: Int) -> String {
        if x.isNaN { return "n/a" }
        if x.isInfinite { return "never" }
        if decimals == 0 { return Format.grouped(Int64(x.rounded())) }
        return Format.fixed(x, decimals)
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
