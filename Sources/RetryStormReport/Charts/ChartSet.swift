import Foundation
import RetryStormResults

/// Every chart of a run directory, built from its results, in the order a reader meets them: the
/// incident over time (load, the spike per variant, where the load comes from and, with
/// populations, whose it is; in a call graph, who calls whom, each service's load and requests per
/// user operation; queue, losses),
/// then the time-to-success outcome (distribution, tail, p50 and p99); for a sweep, one chart per
/// shown metric, then the load and losses over time of its first two points (a tune's
/// recommendation and runner-up).
public enum ChartSet {
    /// The charts for `run`. Pure: the same inputs give the same SVG bytes.
    public static func charts(for run: RunDirectory) -> [NamedChart] {
        let context = ChartContext(run: run)
        // A sweep's directory has summaries only: its story is the metrics over the grid.
        // A tune's also keeps the time series of its recommendation and runner-up: their incident.
        guard !run.isSweep else {
            let names = run.timeSeries.map(\.variant)
            let panels: String
            if run.results.kind == .tune {
                panels =
                    names.count == 2
                    ? " Panels: the recommendation, \(names[0]), and the runner-up, \(names[1]), on the replications that ranked them."
                    : names.count == 1 ? " The recommendation, \(names[0]), on the replications that ranked it." : ""
            } else {
                // Not "best": the order is by the objective's mean, which the marks may not back.
                let by = MetricTable.sweepObjective(run.scenario.objective?.value).map { "by \($0.metric.label) mean" } ?? "in grid order"
                panels = " Panels: the first \(names.count == 1 ? "point" : "two points") \(by), as the tables list them: \(ReportData.list(names))."
            }
            let overTime = run.timeSeries.isEmpty ? [] : [LoadChart.build(context), FailuresChart.build(context)].compactMap { $0 }
            let graph = [CallGraphDiagram.build(context)].compactMap { $0 }
            return [MapChart.build(context)].compactMap { $0 } + sweepCharts(context) + graph
                + overTime.map { NamedChart(fileName: $0.fileName, chart: $0.chart, caption: $0.caption + panels) }
        }
        return [
            LoadChart.build(context),
            PeakLoadChart.build(context),
            AttemptsChart.build(context),
            PopulationLoadChart.build(context),
            CallGraphDiagram.build(context),
            ServiceLoadChart.build(context),
            ServiceAmplificationChart.build(context),
            QueueChart.build(context),
            FailuresChart.build(context),
            TimeToSuccessCDF.build(context),
            TimeToSuccessTail.build(context),
            TimeToSuccessPoints.build(context),
            TimeToSuccessPopulations.build(context)
        ].compactMap { $0 }
    }

    /// `sweep_<metric>.svg` for each metric of ``SweepPlan``: a line with whiskers over one key
    /// (``SweepLine``), heatmaps over two or three (``SweepHeatmap``).
    static func sweepCharts(_ context: ChartContext) -> [NamedChart] {
        let run = context.run
        guard !run.metrics.parameterPaths.isEmpty, !run.metrics.names.isEmpty else { return [] }
        let plan = SweepPlan(run.tuning)
        let grid = SweepGrid(run.metrics, scenario: run.scenario, aliases: aliases(run))
        return plan.metrics.map { metric in
            grid.keys.count == 1
                ? SweepLine.build(context, grid: grid, metric: metric, plan: plan)
                : SweepHeatmap.build(context, grid: grid, metric: metric, plan: plan)
        }
    }

    /// tune.json's aliases: a grid point not run → the point with the same configuration that was.
    static func aliases(_ run: RunDirectory) -> [String: String] {
        Dictionary((run.results.tune?.aliases ?? []).map { ($0.variant, $0.same_as) }, uniquingKeysWith: { a, _ in a })
    }
}
