import RetryStormResults
import GSLSupport

/// The readable summary of `run`: one row per metric, the mean over replications and, with
/// several, its 95% confidence interval. Built from the metric table (summary.csv as written), so a
/// merged run prints exactly what the unsharded one does; each value in its metric's
/// ``ColumnFormat``, the unit beside the label, as in report.html.
public enum SummaryTable {
    /// (label, summary.csv metric, unit): nil takes the format's unit ("s", "ms", "×"), "" none.
    static let rows: [(label: String, metric: String, unit: String?)] = [
        ("operations", "operations", ""),
        ("succeeded", "succeeded", ""),
        ("gave up", "gave_up", ""),
        ("gave up, share", "gave_up_fraction", "% of operations"),
        ("blocked", "blocked", ""),
        ("unfinished at horizon", "unfinished", ""),
        ("attempts", "attempts", ""),
        ("amplification", "amplification", nil),
        ("peak offered load", "peak_offered_per_s", nil),
        ("peak load / capacity", "peak_load_ratio", nil),
        ("peak load / capacity at the time", "peak_overload", nil),
        ("time to success p50", "tts_p50_s", nil),
        ("time to success p99", "tts_p99_s", nil),
        ("time to success max", "tts_max_s", nil),
        ("incident: time to success p99", "incident_tts_p99_s", nil),
        ("incident: gave up, share", "incident_gave_up_fraction", "% of operations"),
        ("recovered", "recovered", "% of replications"),
        ("recovery after the trigger began", "recovery_s", nil),
        ("recovery after the trigger ended", "recovery_after_trigger_s", nil),
        ("timed-out attempts", "timed_out", ""),
        ("rejected attempts", "rejected", ""),
        ("wasted work", "wasted_fraction", "% of served"),
    ]

    /// The table for point `name` of `metrics`.
    public static func render(title: String, metrics: MetricTable, point name: String) -> String {
        let count = metrics.interval(name, "operations")?.count ?? 0
        let many = count > 1
        var table = TextTable(header: [["metric", many ? "mean and 95% CI over \(count) replications" : "value"]],
                              alignments: [.left, .left])
        for row in rows {
            guard let ci = metrics.interval(name, row.metric) else { continue }
            // Without a trigger the incident's rows have nothing to say.
            if row.metric.hasPrefix("incident_") || row.metric == "recovery_after_trigger_s", ci.mean.isNaN { continue }
            if row.metric == "recovered" && !many {
                table.rows.append([row.label, ci.mean == 1 ? "yes" : "no"])
                continue
            }
            let format = ColumnFormat(metric: row.metric, table: metrics)
            let unit = row.unit ?? format.unitSymbol
            table.rows.append([unit.isEmpty ? row.label : "\(row.label) (\(unit))", format.cell(ci)])
        }
        return ([title] + table.lines()).joined(separator: "\n") + "\n"
    }
}
