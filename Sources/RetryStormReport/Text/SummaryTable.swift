import RetryStormResults
import RetryStormScenario
import GSLSupport

/// The readable summary of `run`: one row per metric, the mean over replications and, with
/// several, its 95% confidence interval, then the unit. Built from the metric table (summary.csv
/// as written), so a merged run prints exactly what the unsharded one does; each value is written
/// in its ``ColumnFormat``, as the HTML report writes it.
public enum SummaryTable {
    /// (label, summary.csv metric, unit when it is not the format's).
    static let rows: [(String, String, String?)] = [
        ("operations", "operations", nil),
        ("succeeded", "succeeded", nil),
        ("gave up", "gave_up", nil),
        ("gave up, share of operations", "gave_up_fraction", nil),
        ("blocked", "blocked", nil),
        ("unfinished at horizon", "unfinished", nil),
        ("attempts", "attempts", nil),
        ("amplification", "amplification", nil),
        ("peak offered load", "peak_offered_per_s", nil),
        ("peak load / capacity", "peak_load_ratio", nil),
        ("peak load / capacity at the time", "peak_overload", nil),
        ("time to success p50", "tts_p50_s", nil),
        ("time to success p99", "tts_p99_s", nil),
        ("time to success max", "tts_max_s", nil),
        ("incident: time to success p99", "incident_tts_p99_s", nil),
        ("incident: gave up, share", "incident_gave_up_fraction", nil),
        ("recovered", "recovered", "% of replications"),
        ("recovery after the trigger began", "recovery_s", nil),
        ("recovery after the trigger ended", "recovery_after_trigger_s", nil),
        ("timed out attempts", "timed_out", nil),
        ("rejected attempts", "rejected", nil),
        ("wasted work", "wasted_fraction", "% of served"),
    ]

    /// The table for point `name` of `metrics`.
    public static func render(title: String, metrics: MetricTable, point name: String) -> String {
        let count = metrics.interval(name, "operations")?.count ?? 0
        let many = count > 1
        var cells: [(String, String, String)] = [("metric", many ? "mean (95% CI over \(count) replications)" : "value", "unit")]
        for (label, metric, unit) in rows {
            guard let ci = metrics.interval(name, metric) else { continue }
            // Without a trigger the incident's rows have nothing to say.
            if metric.hasPrefix("incident_") || metric == "recovery_after_trigger_s", ci.mean.isNaN { continue }
            if metric == "recovered" && !many {
                cells.append((label, ci.mean == 1 ? "yes" : "no", ""))
                continue
            }
            let f = ColumnFormat(metric: metric, values: [ci])
            // "never" needs no unit.
            cells.append((label, f.cell(ci), ci.mean.isFinite ? unit ?? f.unitSymbol : ""))
        }
        let widths = [cells.map(\.0.count).max() ?? 0, cells.map(\.1.count).max() ?? 0]
        var lines = [title]
        for (i, (label, value, unit)) in cells.enumerated() {
            let line = "  " + label.padding(widths[0]) + "  " + String(repeating: " ", count: widths[1] - value.count) + value
                + (unit.isEmpty ? "" : "  " + unit)
            lines.append(i == 0 ? "  " + label.padding(widths[0]) + "  " + value.padding(widths[1]) + "  " + unit : line)
            if i == 0 {
                lines.append("  " + String(repeating: "-", count: widths[0]) + "  " + String(repeating: "-", count: widths[1]) + "  ----")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
