import RetryStormEngine
import RetryStormResults
import SVGCharts

/// map.svg, `retrystorm map`'s picture: P(stuck) over the grid (``SweepGrid``: the first key
/// across, the others up; one row for a single key), each cell coloured on one fixed 0–100% scale
/// and printed with its replications, and the region stuck in most replications (P(stuck) ≥ 50%)
/// outlined: its edge is the 50% boundary, drawn between the cells on either side of it.
enum MapChart {
    /// The map of `context`'s run, or nil for a directory `map` did not make.
    static func build(_ context: ChartContext) -> NamedChart? {
        let run = context.run
        guard run.results.isMap, !run.metrics.parameterPaths.isEmpty, !run.metrics.names.isEmpty else { return nil }
        let grid = SweepGrid(run.metrics, scenario: run.scenario)
        let values = grid.means(.stuck)
        let format = ColumnFormat(metric: .stuck, table: grid.table)
        let cells = grid.cells { _ in true }
        let tipped = cells.filter { values[$0.row][$0.column] >= 0.5 }.map { Heatmap.Cell(column: $0.column, row: $0.row) }
        let invalid = grid.cells { $0 == .invalid }.map { Heatmap.Cell(column: $0.column, row: $0.row) }
        // Each cell: P(stuck) and, below, how many replications decided it.
        let labels = grid.contents.map { row in
            row.map { content -> String in
                guard case .point(let i, _) = content, let cell = grid.table.cell(grid.table.names[i], .stuck) else { return "" }
                return format.number(cell.interval.mean) + "% (\(cell.values.count))"
            }
        }
        let counts = grid.table.names.compactMap { grid.table.cell($0, .stuck)?.values.count }
        let chart = Heatmap(
            title: context.title("Where it tips: P(stuck)"),
            subtitle:
                "stuck at the horizon, share of replications · \((counts.min() ?? 0) == (counts.max() ?? 0) ? "\(counts.first ?? 0)" : "\(counts.min() ?? 0)–\(counts.max() ?? 0)") replications per point, more near the boundary",
            xLabel: grid.columns.title, yLabel: grid.keys.count > 1 ? grid.rowTitle : "", columns: grid.columns.labels,
            rows: grid.keys.count > 1 ? grid.rowLabels : [""], values: values,
            colorAxis: Axis(label: "P(stuck) (%)", scale: .linear, format: .percent, min: 0, max: 1),
            columnPlacement: grid.columns.placement,
            rowPlacement: grid.keys.count == 2 ? grid.keys[1].placement : .categorical,
            meetsConstraints: tipped, constraintLabel: "stuck in most replications (P(stuck) ≥ 50%)",
            invalid: invalid, invalidLabel: "invalid combination (not a valid scenario)",
            valueLabels: labels)
        var caption =
            "P(stuck) over the grid: the share of each point's replications still stuck at the horizon (summary.csv's stuck), the replications in brackets."
        caption +=
            tipped.isEmpty
            ? " No point was stuck in most of its replications: the grid does not reach the boundary."
            : " The outlined region was stuck in most replications; its edge is where P(stuck) crosses 50%."
        caption +=
            " Every point ran the same first replications, and a point whose 95% Wilson interval still held 50% ran twice as many, round by round: the boundary gets the replications."
        if !invalid.isEmpty { caption += " Crossed-out cells are combinations that are not valid scenarios." }
        caption += laws(run)
        return NamedChart(fileName: "map.svg", chart: chart, caption: caption)
    }

    /// A sentence on what `retrystorm explain`'s laws say at the grid's points, each point's
    /// scenario rebuilt from scenario.yaml and its values: at how many they hold, where they say it
    /// tips, and at how many they agree with the replications' majority (a point at exactly 50%
    /// agrees with neither). Empty when they hold nowhere.
    static func laws(_ run: RunDirectory) -> String {
        let paths = run.results.parameterPaths
        var held = 0
        var tips = 0
        var agree = 0
        for (name, parameters) in run.results.points where parameters.count == paths.count {
            guard let scenario = try? run.scenario.scenario(applying: Array(zip(paths, parameters)), source: "--grid"),
                let trigger = Explainer.explain(scenario, scan: false).services.first?.trigger,
                let p = run.metrics.interval(name, .stuck)?.mean, !p.isNaN
            else { continue }
            held += 1
            if trigger.tips { tips += 1 }
            if (p > 0.5 && trigger.tips) || (p < 0.5 && !trigger.tips) { agree += 1 }
        }
        guard held > 0 else { return "" }
        let points = run.results.points.count
        return
            " The laws of a retrying server (retrystorm explain) hold at \(held) of \(points) points, say it tips at \(tips), and agree with most replications at \(agree) of the \(held)."
    }
}
