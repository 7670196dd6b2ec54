import RetryStormResults
import RetryStormScenario
import GSLSupport

/// The report's tables, built from a run directory.
enum ReportTables {
    /// Variants shown as columns at most; a sweep's grid points are in the sweep table instead.
    static let maxColumns = 9

    /// Summary: key metrics (rows) per variant (columns), mean and 95% CI over replications from
    /// summary.csv; best marked per row when there are several variants.
    static func summary(_ run: RunDirectory) -> ReportTable {
        let s = run.summaries
        let variants = Array(s.variants.prefix(maxColumns))
        var rows: [[ReportTable.Cell]] = []
        for metric in MetricCatalog.summaryRows where s.metrics.contains(metric) {
            let info = MetricCatalog.info(metric)
            let intervals = variants.map { s.interval(variant: $0, metric: metric) }
            var cells = intervals.map { ReportTable.Cell.interval($0, info) }
            ReportTable.markBest(&cells, values: intervals.map(\.mean), better: info.better)
            rows.append([.text(info.label), .text(info.unit)] + cells)
        }
        return ReportTable(header: ["metric", "unit"] + variants, rows: rows, labelColumns: 2)
    }

    /// Compare: every metric of compare.csv (rows) per variant (columns), best marked per row.
    static func compare(_ table: StatisticsFile) -> ReportTable {
        let variants = Array(table.variants.prefix(maxColumns))
        var rows: [[ReportTable.Cell]] = []
        for metric in table.metrics {
            let info = MetricCatalog.info(metric)
            let intervals = variants.map { v in
                table.row(variant: v, metric: metric).map {
                    ConfidenceInterval(mean: $0.mean, low: $0.low, high: $0.high, count: $0.replications)
                } ?? ConfidenceInterval(mean: .nan, low: .nan, high: .nan, count: 0)
            }
            var cells = intervals.map { ReportTable.Cell.interval($0, info) }
            ReportTable.markBest(&cells, values: intervals.map(\.mean), better: info.better)
            rows.append([.text(info.label), .text(info.unit)] + cells)
        }
        return ReportTable(header: ["metric", "unit"] + variants, rows: rows, labelColumns: 2)
    }

    /// Sweep: one row per grid point (and variant), the heatmaps' metrics as columns, whether the
    /// point meets the constraints, and the tuned choice starred.
    static func sweep(_ table: StatisticsFile, tuning: TuningChoice?, metrics: [String],
                      constraints: [TuningChoice.Constraint]) -> ReportTable {
        let grids = SweepGrid.grids(table)
        let several = grids.count > 1
        var header = several ? ["variant"] : []
        header += table.parameters
        header += metrics.map { MetricCatalog.info($0).axisTitle }
        if !constraints.isEmpty { header.append("meets constraints") }
        var rows: [[ReportTable.Cell]] = []
        for grid in grids {
            let chosen = grid.chosen(tuning)
            for row in table.rows where grid.includes(row) && row.metric == table.metrics.first {
                let point = row.point
                var cells: [ReportTable.Cell] = several ? [.text(row.variant)] : []
                cells += point.map { ReportTable.Cell.text($0) }
                if let chosen, grid.cell(of: point).map({ $0 == chosen }) == true {
                    cells[cells.count - 1].html += " <span class=\"star\" title=\"tuned choice\">★ tuned</span>"
                }
                func mean(_ metric: String) -> StatisticsFile.Row? {
                    table.row(variant: row.variant, point: point, metric: metric)
                }
                for metric in metrics {
                    cells.append(mean(metric).map {
                        ReportTable.Cell.interval(ConfidenceInterval(mean: $0.mean, low: $0.low, high: $0.high,
                                                                     count: $0.replications), MetricCatalog.info(metric))
                    } ?? .text("–"))
                }
                if !constraints.isEmpty {
                    let ok = constraints.allSatisfy { c in mean(c.metric).map { c.admits($0.mean) } ?? false }
                    cells.append(.text(ok ? "yes" : "no"))
                }
                rows.append(cells)
            }
        }
        return ReportTable(header: header, rows: rows, labelColumns: (several ? 1 : 0) + table.parameters.count)
    }
}
