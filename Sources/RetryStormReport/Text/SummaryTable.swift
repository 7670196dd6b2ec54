import GSLSupport
import RetryStormResults

/// The readable summary of `run`: one row per metric, the mean over replications and, with
/// several, its 95% confidence interval. Built from the metric table (summary.csv as written), so a
/// merged run prints exactly what the unsharded one does; each value in its metric's
/// ``ColumnFormat``, the unit beside the label, as in report.html.
public enum SummaryTable {
    typealias Row = ReportTables.Column

    /// The rows: a summary.csv metric, its label when it is not the metric's, and its unit: nil
    /// takes the format's ("s", "ms", "×"), "" none.
    static let rows: [Row] = [
        Row(.operations, unit: ""),
        Row(.succeeded, unit: ""),
        Row(.gaveUp, unit: ""),
        Row(.gaveUpFraction, label: "gave up, share", unit: "% of operations"),
        Row(.blocked, unit: ""),
        Row(.unfinished, unit: ""),
        Row(.unfinishedFraction, label: "unfinished, share", unit: "% of operations"),
        Row(.attempts, unit: ""),
        Row(.amplification),
        Row(.peakOfferedPerSecond),
        Row(.peakLoadRatio),
        Row(.peakOverload),
        Row(.incidentLoadRatio),
        Row(.ttsP50),
        Row(.ttsP99),
        Row(.ttsMax),
        Row(.ttsSuccessP50),
        Row(.ttsSuccessP99),
        Row(.incidentTTSP99, label: "incident: time to success p99"),
        Row(.incidentGaveUpFraction, label: "incident: gave up, share", unit: "% of operations"),
        Row(.recovered, label: "recovered", unit: "% of replications"),
        Row(.stuck, label: "stuck", unit: "% of replications"),
        Row(.recovery, label: "recovery after the trigger began"),
        Row(.recoveryAfterTrigger),
        Row(.timedOut, unit: ""),
        Row(.rejected, unit: ""),
        Row(.wastedFraction, label: "wasted work", unit: "% of served")
    ]

    /// The table for point `name` of `metrics`.
    public static func render(title: String, metrics: MetricTable, point name: String) -> String {
        let count = metrics.interval(name, .operations)?.count ?? 0
        let many = count > 1
        var table = TextTable(
            header: [["metric", many ? "mean and 95% CI over \(count) replications" : "value"]],
            alignments: [.left, .left])
        for row in rows {
            guard let ci = metrics.interval(name, row.metric) else { continue }
            // Without a trigger the incident's and the recovery's rows have nothing to say.
            if row.metric.window == .incident || [.recovered, .recovery, .recoveryAfterTrigger, .stuck].contains(row.metric), ci.mean.isNaN {
                continue
            }
            if [.recovered, .stuck].contains(row.metric) && !many {
                table.rows.append([row.label, ci.mean == 1 ? "yes" : "no"])
                continue
            }
            let format = ColumnFormat(metric: row.metric, table: metrics)
            let unit = row.unit ?? format.unitSymbol
            table.rows.append([unit.isEmpty ? row.label : "\(row.label) (\(unit))", format.cell(ci)])
            // In a call graph the fleet's peak is the first service's: the focus's follows it.
            if row.metric == .peakLoadRatio, let focus = metrics.focus, let own = metrics.services[focus.name] {
                for metric in [Metric.peakLoadRatio, FocusService.load] {
                    guard let ci = own.interval(name, metric) else { continue }
                    let format = ColumnFormat(metric: metric, table: own)
                    table.rows.append(["\(focus.name): \(metric.label) (\(format.unitSymbol))", format.cell(ci)])
                }
            }
        }
        let focus = metrics.focus.map { ["  " + StudyTable.focusLine($0, names: [name])] } ?? []
        return ([title] + focus + table.lines()).joined(separator: "\n") + "\n"
    }
}
