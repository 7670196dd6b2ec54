import RetryStormResults
import RetryStormScenario
import SVGCharts

/// Sweep heatmaps (from sweep.csv): one per shown metric and variant, coloured by the metric's
/// mean, with the cells that meet the constraints outlined (the frontier) and the tuned choice
/// starred (from tune.json).
///
/// Shown metrics: tune.json's objective and constrained metrics; without tune.json,
/// `tts_p99_s` and `peak_load_ratio`. Constraints: tune.json's; without it, peak load at most
/// nominal capacity (`peak_load_ratio ≤ 1`), the design question of DESIGN.md.
enum SweepHeatmap {
    static let defaultMetrics = ["tts_p99_s", "peak_load_ratio"]
    static let defaultConstraints = [TuningChoice.Constraint(metric: "peak_load_ratio", max: 1)]

    /// File names `sweep_<metric>.svg`, or `sweep_<metric>_<variant>.svg` when the sweep ran
    /// several variants.
    static func build(_ context: ChartContext) -> [NamedChart] {
        guard let table = context.run.sweep, !table.parameters.isEmpty else { return [] }
        let tuning = context.run.tuning
        let (metrics, constraints) = plan(table, tuning: tuning)
        let grids = SweepGrid.grids(table)
        var charts: [NamedChart] = []
        for grid in grids {
            for metric in metrics {
                let suffix = grid.variant.map { grids.count > 1 ? "_\($0)" : "" } ?? ""
                charts.append(NamedChart(
                    fileName: "sweep_\(metric)\(suffix).svg",
                    chart: heatmap(context, grid: grid, metric: metric, constraints: constraints, tuning: tuning,
                                   several: grids.count > 1),
                    caption: "\(MetricCatalog.info(metric).label) over the swept grid: the outlined cells meet the constraints, the star is the tuner's choice."))
            }
        }
        return charts
    }

    /// The metrics to show and the constraints to outline, as described above.
    static func plan(_ table: StatisticsFile, tuning: TuningChoice?) -> (metrics: [String], constraints: [TuningChoice.Constraint]) {
        let available = table.metrics
        var wanted = tuning.map { t in [t.objective?.metric].compactMap { $0 } + t.constraints.map(\.metric) } ?? []
        if wanted.isEmpty { wanted = defaultMetrics }
        var metrics: [String] = []
        for m in wanted where available.contains(m) && !metrics.contains(m) { metrics.append(m) }
        if metrics.isEmpty, let first = available.first { metrics = [first] }
        let constraints = tuning.map(\.constraints).flatMap { $0.isEmpty ? nil : $0 }
            ?? (available.contains("peak_load_ratio") ? defaultConstraints : [])
        return (metrics, constraints)
    }

    static func heatmap(_ context: ChartContext, grid: SweepGrid, metric: String,
                        constraints: [TuningChoice.Constraint], tuning: TuningChoice?, several: Bool) -> Heatmap {
        let info = MetricCatalog.info(metric)
        let values = grid.means(metric)
        let positive = values.flatMap { $0 }.filter { $0 > 0 && $0.isFinite }
        let log = (positive.max() ?? 1) / (positive.min() ?? 1) > 100 && positive.count == values.flatMap({ $0 }).filter(\.isFinite).count
        let feasible = grid.feasible(constraints).map { Heatmap.Cell(column: $0.column, row: $0.row) }
        let chosen = grid.chosen(tuning).map { Heatmap.Cell(column: $0.column, row: $0.row) }
        var parts: [String] = []
        if several, let variant = grid.variant { parts.append("variant \(variant)") }
        let counts = grid.table.rows.filter { grid.includes($0) && $0.metric == metric }.map(\.replications)
        parts.append(context.replicationsText(counts))
        if let objective = tuning?.objective, objective.metric == metric {
            parts.append("objective: \(objective.goal == .min ? "minimise" : "maximise")")
        }
        if !constraints.isEmpty { parts.append("outlined: meets \(constraintText(constraints))") }
        return Heatmap(
            title: context.title("Sweep: \(info.label)"),
            subtitle: parts.joined(separator: " · "),
            xLabel: grid.xLabel, yLabel: grid.yLabel, columns: grid.columns, rows: grid.rows, values: values,
            colorAxis: Axis(label: log ? "\(info.axisTitle), log scale" : info.axisTitle, scale: log ? .log : .linear,
                            format: info.axisFormat),
            meetsConstraints: feasible, constraintLabel: "meets \(constraintText(constraints))",
            chosen: chosen, chosenLabel: "tuned choice")
    }

    /// "peak load / capacity ≤ 1× and gave up ≤ 100".
    static func constraintText(_ constraints: [TuningChoice.Constraint]) -> String {
        constraints.map { c in
            let info = MetricCatalog.info(c.metric)
            func bound(_ x: Double) -> String {
                switch info.kind {
                case .seconds: NumberFormat.duration(x)
                case .fraction: NumberFormat.percent(x)
                case .ratio: NumberFormat.compact(x) + (info.unit == "×" ? "×" : "")
                case .count: NumberFormat.compact(x)
                }
            }
            switch (c.min, c.max) {
            case let (low?, high?): return "\(bound(low)) ≤ \(info.label) ≤ \(bound(high))"
            case let (low?, nil): return "\(info.label) ≥ \(bound(low))"
            case let (nil, high?): return "\(info.label) ≤ \(bound(high))"
            case (nil, nil): return info.label
            }
        }.joined(separator: " and ")
    }
}
