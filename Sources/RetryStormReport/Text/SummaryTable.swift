import RetryStormResults
import RetryStormScenario
import GSLSupport

/// The readable summary of `run`: one row per metric, the mean over replications and, with
/// several, its 95% confidence interval. Built from the metric table (summary.csv as written), so a
/// merged run prints exactly what the unsharded one does.
public enum SummaryTable {
    /// (label, summary.csv metric, decimals, unit, scale).
    static let rows: [(String, String, Int, String, Double)] = [
        ("operations", "operations", 0, "", 1),
        ("succeeded", "succeeded", 0, "", 1),
        ("gave up", "gave_up", 0, "", 1),
        ("gave up, share of operations", "gave_up_fraction", 2, "%", 100),
        ("blocked", "blocked", 0, "", 1),
        ("unfinished at horizon", "unfinished", 0, "", 1),
        ("attempts", "attempts", 0, "", 1),
        ("amplification", "amplification", 3, "attempts/op", 1),
        ("peak offered load", "peak_offered_per_s", 0, "req/s", 1),
        ("peak load / capacity", "peak_load_ratio", 2, "×", 1),
        ("peak load / capacity at the time", "peak_overload", 2, "×", 1),
        ("time to success p50", "tts_p50_s", 3, "s", 1),
        ("time to success p99", "tts_p99_s", 3, "s", 1),
        ("time to success max", "tts_max_s", 3, "s", 1),
        ("incident: time to success p99", "incident_tts_p99_s", 3, "s", 1),
        ("incident: gave up, share", "incident_gave_up_fraction", 2, "%", 100),
        ("recovered", "recovered", 0, "% of replications", 100),
        ("recovery after the trigger began", "recovery_s", 1, "s", 1),
        ("recovery after the trigger ended", "recovery_after_trigger_s", 1, "s", 1),
        ("timed out attempts", "timed_out", 0, "", 1),
        ("rejected attempts", "rejected", 0, "", 1),
        ("wasted work", "wasted_fraction", 1, "% of served", 100),
    ]

    /// The table for point `name` of `metrics`.
    public static func render(title: String, metrics: MetricTable, point name: String) -> String {
        let count = metrics.interval(name, "operations")?.count ?? 0
        let many = count > 1
        var cells: [(String, String)] = [("metric", many ? "mean (95% CI over \(count) replications)" : "value")]
        for (label, metric, decimals, unit, scale) in rows {
            guard let ci = metrics.interval(name, metric) else { continue }
            // Without a trigger the incident's rows have nothing to say.
            if metric.hasPrefix("incident_") || metric == "recovery_after_trigger_s", ci.mean.isNaN { continue }
            if metric == "recovered" && !many {
                cells.append((label, ci.mean == 1 ? "yes" : "no"))
                continue
            }
            // A percentage sign goes on every number; other units once, after the interval.
            let percent = unit.hasPrefix("%")
            let show = { (x: Double) in number(x * scale, decimals) + (percent && x.isFinite ? "%" : "") }
            var text = show(ci.mean)
            if many && ci.mean.isFinite { text += " [\(show(ci.low)), \(show(ci.high))]" }
            let suffix = percent ? String(unit.dropFirst()) : " " + unit
            // "never" needs no unit.
            cells.append((label, unit.isEmpty || !ci.mean.isFinite || suffix == " " ? text : text + suffix))
        }
        let width = cells.map(\.0.count).max() ?? 0
        var lines = [title]
        for (i, (label, value)) in cells.enumerated() {
            lines.append("  " + label.padding(width) + "  " + value)
            if i == 0 { lines.append("  " + String(repeating: "-", count: width) + "  " + String(repeating: "-", count: value.count)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func number(_ x: Double, _ decimals: Int) -> String {
        if x.isNaN { return "n/a" }
        if x.isInfinite { return "never" }
        if decimals == 0 { return Format.grouped(x) }
        return Format.fixed(x, decimals)
    }
}
