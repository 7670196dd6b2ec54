import RetryStormResults
import SVGCharts

/// A sweep over one key as a line: for each shown metric (``SweepPlan``), the mean over
/// replications at each value the sweep ran, with its 95% interval as whiskers (``MetricTable``),
/// at the actual values on a log or linear axis (``SweepKey``: refined values sit where they
/// are); the tuner's choice highlighted and the constraints on the metric drawn as reference
/// lines. A key whose values are not numbers gets the same as points per value (a dot plot).
/// A one-row heatmap would show the same numbers as colours, without their intervals.
enum SweepLine {
    static func build(_ context: ChartContext, grid: SweepGrid, metric: Metric, plan: SweepPlan) -> NamedChart {
        let key = grid.columns
        let table = grid.table
        // The values run, left to right, with their points.
        let run: [(column: Int, point: Int)] = grid.contents[0].enumerated().compactMap { c, content in
            guard case .point(let i, _) = content else { return nil }
            return (c, i)
        }
        let intervals = run.map { table.interval(table.names[$0.point], metric) }
        // A time that never came has no place on an axis: such points are left out and named in the caption.
        let never = run.indices.filter { intervals[$0]?.mean == .infinity }
        let estimates = run.indices.map { i in never.contains(i) ? Estimate(.nan) : intervals[i].map(Estimate.init) ?? Estimate(.nan) }
        let chosen = grid.chosen(context.run.tuning)?.column
        // Values whose points lose clearly more operations: ringed, so a low time there is not read as a choice.
        let losing = grid.losingMore(on: metric)
        let flagged = run.filter { losing.contains($0.point) }.map(\.column)
        let log = ChartContext.spansDecade(estimates.map(\.value))
        let yAxis = Axis(
            label: log ? "\(metric.axisTitle) (log scale)" : metric.axisTitle, scale: log ? .log : .linear,
            format: metric.axisFormat)
        let bounds = plan.constraints(on: metric).flatMap { c in
            [c.min.map { ("≥", $0) }, c.max.map { ("≤", $0) }].compactMap { $0 }
        }
        var parts = [context.replicationsText(intervals.compactMap { $0?.count })]
        if intervals.contains(where: { ($0?.count ?? 0) > 1 }) { parts.append("whiskers: 95% CI") }
        if let objective = context.run.tuning?.objective, objective.metric == metric {
            parts.append("objective: \(objective.goal == .min ? "minimise" : "maximise")")
        }
        if !bounds.isEmpty { parts.append("line: constraint") }
        let title = context.title("Sweep: \(metric.label)")
        let subtitle = parts.joined(separator: " · ")
        let chart: any Chart
        if let numbers = key.numbers {
            let highlight = chosen.map { IntervalLineChart.Highlight(x: numbers[$0], label: "tuned choice: \(Self.valueText(key, column: $0))") }
            chart = IntervalLineChart(
                title: title, subtitle: subtitle,
                xAxis: Axis(
                    label: key.scale == .log ? "\(key.path) (log scale)" : key.path, scale: key.scale == .log ? .log : .linear,
                    format: key.isDuration ? .duration : .number),
                yAxis: yAxis,
                lines: [
                    .init(
                        name: metric.label,
                        points: zip(run, estimates).map { r, e in
                            IntervalLineChart.Point(x: numbers[r.column], value: e.value, low: e.low, high: e.high)
                        })
                ],
                highlight: highlight,
                flags: flagged.isEmpty ? nil : .init(xs: flagged.map { numbers[$0] }, label: "loses clearly more operations"),
                annotations: bounds.map { .yReference(at: $0.1, label: "\($0.0) \(SweepPlan.bound($0.1, metric))") })
        } else {
            let categories = zip(run, estimates).map { DotPlot.Category(name: key.values[$0.column], estimates: [$1]) }
            chart = DotPlot(
                title: title, subtitle: subtitle, categoryLabel: key.path, valueAxis: yAxis, series: [metric.label],
                categories: categories,
                references: bounds.map { DotPlot.Reference(value: $0.1, label: "\($0.0) \(SweepPlan.bound($0.1, metric))") },
                highlight: chosen.map { key.values[$0] }, highlightLabel: "tuned choice")
        }
        var caption = "\(ChartContext.sentenceCase(metric.label)) at each value of \(key.path), with 95% intervals"
        if !bounds.isEmpty { caption += "; the horizontal line is the constraint" }
        caption += chosen == nil ? "." : "; the highlighted point is the tuner's choice."
        if !never.isEmpty {
            let values = ReportData.list(never.map { Self.valueText(key, column: run[$0].column) })
            caption += " Never at \(values): fewer operations succeeded there than the percentile counts, so no point is drawn."
        }
        if !flagged.isEmpty {
            let values = ReportData.list(flagged.map { Self.valueText(key, column: $0) })
            caption +=
                key.numbers == nil
                ? " At \(values) the point loses clearly more operations than another (gave up + blocked + unfinished): a better value there is bought with lost operations."
                : " Dashed rings (\(values)): the point loses clearly more operations than another (gave up + blocked + unfinished), so a better value there is bought with lost operations."
        }
        return NamedChart(fileName: "sweep_\(metric.name).svg", chart: chart, caption: caption)
    }

    /// The value of `column` with its unit: "500 ms" for a duration, else as written.
    static func valueText(_ key: SweepKey, column: Int) -> String {
        guard key.isDuration, let seconds = key.numbers?[column] else { return key.values[column] }
        return UniformFormat.fitting([seconds], format: .duration, scale: .log).stringWithUnit(seconds)
    }
}
