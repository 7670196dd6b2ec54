import RetryStormResults
import SVGCharts

/// A sweep over two or three keys as heatmaps (``SweepGrid``): one per shown metric
/// (``SweepPlan``), each cell coloured by the metric's mean over replications, the cells that meet
/// the constraints outlined and the tuner's choice starred.
///
/// What keeps it honest (the renderer's ``Heatmap`` does the drawing):
/// - one unit for every cell and the colour bar, the unit of the report's table column, and each
///   value printed as that column prints it (``ColumnFormat``), only where it fits inside its cell;
/// - a log colour scale when the metric's positive values span a decade or more (counts of
///   losses, times in a storm), so that the small values do not all take one colour;
/// - cells placed by value on log or linear axes (``SweepKey``), or the axis labelled categorical;
/// - invalid combinations crossed out, apart from the valid points not evaluated (hatched).
enum SweepHeatmap {
    /// One heatmap of `metric`.
    static func build(_ context: ChartContext, grid: SweepGrid, metric: Metric, plan: SweepPlan) -> NamedChart {
        let tuning = context.run.tuning
        let values = grid.means(metric)
        let format = ColumnFormat(metric: metric, table: grid.table)
        let log = ChartContext.spansDecade(values.joined().map { $0 })
        let feasible = grid.feasible(plan.constraints).map { Heatmap.Cell(column: $0.column, row: $0.row) }
        let chosen = grid.chosen(tuning).map { Heatmap.Cell(column: $0.column, row: $0.row) }
        let invalid = grid.cells { $0 == .invalid }.map { Heatmap.Cell(column: $0.column, row: $0.row) }
        let aliases = grid.cells { if case .point(_, alias: true) = $0 { true } else { false } }.count
        let notEvaluated = grid.cells { $0 == .notEvaluated }.count
        var parts = [context.replicationsText(grid.table.cells.filter { $0.metric == metric }.map(\.interval.count))]
        if let objective = tuning?.objective, objective.metric == metric {
            parts.append("objective: \(objective.goal == .min ? "minimise" : "maximise")")
        }
        // The legend names the outline; with no cell outlined there is no legend entry, and the
        // subtitle says that none meets the constraints rather than leave the reader looking.
        if !plan.constraints.isEmpty && feasible.isEmpty { parts.append("no cell meets \(SweepPlan.text(plan.constraints))") }
        // A population's or a service's constraint is judged in the tables, not outlined here.
        let undrawn = tuning?.undrawn ?? []
        if !plan.constraints.isEmpty && !undrawn.isEmpty { parts.append("not outlined: \(undrawn.joined(separator: ", "))") }
        if aliases > 0 {
            parts.append("\(aliases) cell\(aliases == 1 ? "" : "s") = an equivalent point")
        }
        // A cell whose point loses clearly more operations than another carries a dagger.
        let losing = grid.losingMore(on: metric)
        let daggers = Set(grid.cells { if case .point(let i, _) = $0 { losing.contains(i) } else { false } }.map { "\($0.column),\($0.row)" })
        let labels = values.enumerated().map { r, row in
            row.enumerated().map { c, v in format.number(v) + (daggers.contains("\(c),\(r)") ? " †" : "") }
        }
        let chart = Heatmap(
            title: context.title("Sweep: \(metric.label)"),
            subtitle: parts.joined(separator: " · "),
            xLabel: grid.columns.title, yLabel: grid.rowTitle, columns: grid.columns.labels, rows: grid.rowLabels,
            values: values,
            colorAxis: Axis(
                label: format.title(metric.label) + (log ? ", log scale" : ""), scale: log ? .log : .linear,
                format: metric.axisFormat),
            columnPlacement: grid.columns.placement,
            rowPlacement: grid.keys.count == 2 ? grid.keys[1].placement : .categorical,
            meetsConstraints: feasible, constraintLabel: "meets \(SweepPlan.text(plan.constraints))",
            chosen: chosen, chosenLabel: "tuned choice",
            invalid: invalid, invalidLabel: "invalid combination (not a valid scenario)",
            valueLabels: labels,
            // A time that never came (fewer operations succeeded than the percentile) is a value: the worst.
            infinityLabel: metric.kind == .seconds ? "never" : nil)
        var caption = "\(ChartContext.sentenceCase(metric.label)) over the swept grid"
        var marks: [String] = []
        if !plan.constraints.isEmpty {
            let drawn = SweepPlan.text(plan.constraints)
            if undrawn.isEmpty {
                marks.append(feasible.isEmpty ? "no cell meets the constraints (\(drawn))" : "the outlined cells meet the constraints")
            } else {
                // Name what is outlined: "the constraints" would include those the tables judge.
                let also = " (\(undrawn.joined(separator: ", ")) is judged in the tables, not here)"
                marks.append((feasible.isEmpty ? "no cell meets " : "the outlined cells meet ") + drawn + also)
            }
        }
        if chosen != nil { marks.append("the star is the tuner's choice") }
        caption += marks.isEmpty ? "." : ": " + marks.joined(separator: ", ") + "."
        if aliases > 0 {
            caption +=
                " \(aliases == 1 ? "One cell was" : "\(aliases) cells were") not run because \(aliases == 1 ? "it is" : "they are") the same configuration as another point (the key cannot change what is simulated there); \(aliases == 1 ? "it shows" : "they show") that point's values."
        }
        if !invalid.isEmpty { caption += " Crossed-out cells are combinations that are not valid scenarios (left out of the sweep)." }
        if notEvaluated > 0 { caption += " Hatched cells are valid combinations that were not run." }
        if metric.kind == .seconds && values.joined().contains(.infinity) {
            caption += " Dark cells read never: fewer operations succeeded there than the percentile counts."
        }
        if !daggers.isEmpty {
            caption +=
                " † marks the cells that lose clearly more operations than another (gave up + blocked + unfinished): a better value there is bought with lost operations."
        }
        if log { caption += " Colours are on a log scale: the values span a decade or more." }
        return NamedChart(fileName: "sweep_\(metric.name).svg", chart: chart, caption: caption)
    }
}
