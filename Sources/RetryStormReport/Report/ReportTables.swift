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
        let m = run.metrics
        let variants = Array(m.names.prefix(maxColumns))
        var rows: [[ReportTable.Cell]] = []
        for metric in MetricCatalog.summaryRows where MetricTable.metrics.contains(metric) {
            let info = MetricCatalog.info(metric)
            let intervals = variants.map { m.interval($0, metric) ?? missing }
            var cells = intervals.map { ReportTable.Cell.interval($0, info) }
            ReportTable.markBest(&cells, values: intervals.map(\.mean), better: info.better)
            rows.append([.text(info.label), .text(info.unit)] + cells)
        }
        return ReportTable(header: ["metric", "unit"] + variants, rows: rows, labelColumns: 2)
    }

    static let missing = ConfidenceInterval(mean: .nan, low: .nan, high: .nan, count: 0)

    /// Compare: every metric of compare.csv (rows) per variant (columns), best marked per row.
    static func compare(_ table: MetricTable) -> ReportTable {
        let variants = Array(table.names.prefix(maxColumns))
        var rows: [[ReportTable.Cell]] = []
        for metric in MetricTable.metrics {
            let info = MetricCatalog.info(metric)
            let intervals = variants.map { table.interval($0, metric) ?? missing }
            var cells = intervals.map { ReportTable.Cell.interval($0, info) }
            ReportTable.markBest(&cells, values: intervals.map(\.mean), better: info.better)
            rows.append([.text(info.label), .text(info.unit)] + cells)
        }
        return ReportTable(header: ["metric", "unit"] + variants, rows: rows, labelColumns: 2)
    }

    /// Sweep: one row per grid point, the sweep charts' metrics as columns, whether the point
    /// meets the constraints, and the tuned choice starred.
    static func sweep(_ run: RunDirectory, plan: SweepPlan) -> ReportTable {
        let table = run.metrics
        let grid = SweepGrid(table, scenario: run.scenario)
        var header = table.parameterPaths
        header += plan.metrics.map { MetricCatalog.info($0).axisTitle }
        if !plan.constraints.isEmpty { header.append("meets constraints") }
        var rows: [[ReportTable.Cell]] = []
        let chosen = grid.chosen(run.tuning)
        for (i, name) in table.names.enumerated() {
            var cells = table.parameters[i].map { ReportTable.Cell.text($0) }
            if let chosen, let cell = grid.cell(named: name), cell == chosen, !cells.isEmpty {
                cells[cells.count - 1].html += " <span class=\"star\" title=\"tuned choice\">★ tuned</span>"
            }
            for metric in plan.metrics {
                cells.append(table.interval(name, metric).map { ReportTable.Cell.interval($0, MetricCatalog.info(metric)) } ?? .text("–"))
            }
            if !plan.constraints.isEmpty {
                let ok = plan.constraints.allSatisfy { c in table.interval(name, c.metric).map { c.admits($0.mean) } ?? false }
                cells.append(.text(ok ? "yes" : "no"))
            }
            rows.append(cells)
        }
        return ReportTable(header: header, rows: rows, labelColumns: table.parameterPaths.count)
    }
}
