import GSLSupport
import RetryStormResults
import RetryStormScenario

/// The terminal table of `map`: one row per grid point, its swept values, the replications it ran,
/// P(stuck) with its 95% Wilson interval and the median recovery (map.csv's numbers, written as
/// the report writes them), then how the replications were spent and how many points tipped.
package enum MapTable {
    package static func render(loaded: LoadedScenario, metrics: MetricTable, initial: Int, maximum: Int) -> String {
        let base = loaded.base
        let records = MapRecord.records(metrics)
        let stuck = ColumnFormat(metric: .stuck, table: metrics)
        let recovery = ColumnFormat(metric: .recovery, table: metrics)
        let hasRecovery = records.contains { !$0.recoveryP50.isNaN }
        var header = metrics.parameterPaths + ["replications", "P(stuck)"]
        var units = metrics.parameterPaths.map { _ in "" } + ["", "(%)"]
        if hasRecovery {
            header.append("recovery p50")
            units.append(recovery.unitSymbol.isEmpty ? "" : "(\(recovery.unitSymbol))")
        }
        var alignments: [TextTable.Alignment] = metrics.parameterPaths.map { _ in .left } + [.right, .right]
        if hasRecovery { alignments.append(.right) }
        var table = TextTable(header: [header, units], alignments: alignments)
        for (p, r) in records.enumerated() {
            let ci = metrics.interval(metrics.names[p], .stuck) ?? ConfidenceInterval(mean: .nan, low: .nan, high: .nan, count: 0)
            var row = r.parameters + [String(r.replications), stuck.cell(ci)]
            if hasRecovery { row.append(recovery.number(r.recoveryP50)) }
            table.rows.append(row)
        }
        let title =
            "\(base.name): P(stuck) over \(metrics.parameterPaths.joined(separator: " × ")), \(records.count) grid points, seed \(base.seed)"
        let judged = records.filter { !$0.pStuck.isNaN }
        let tipped = judged.filter { $0.pStuck >= 0.5 }.count
        let counts = records.map(\.replications)
        var lines = [title] + table.lines()
        lines.append(
            "  P(stuck): the share of replications stuck at the horizon (summary.csv's stuck), with its 95% Wilson interval")
        lines.append(
            "  replications: \(initial) at every point, doubled while the interval held 50% (up to \(maximum)): \(counts.min() ?? 0) to \(counts.max() ?? 0) here"
        )
        if judged.count < records.count {
            lines.append(
                "  \(records.count - judged.count) point\(records.count - judged.count == 1 ? "" : "s") not judged: the run ends less than stuck_window after its trigger"
            )
        }
        lines.append("  stuck in most replications (P(stuck) ≥ 50%): \(tipped) of \(judged.count) points")
        return lines.joined(separator: "\n") + "\n"
    }
}
