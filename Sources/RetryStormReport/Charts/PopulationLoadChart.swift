import RetryStormResults
import SVGCharts

/// "Offered load by population": whose requests reach the server, over time, stacked so that the
/// top edge is the whole offered load (timeseries_populations.csv, mean over replications). One
/// chart for a single variant; one panel per variant otherwise. Only for scenarios with
/// populations.
enum PopulationLoadChart {
    static let fileName = "load_populations.svg"

    static func caption(_ trigger: IncidentTrigger) -> String {
        "Whose requests reach the server: each band is one population's offered load, the top edge all of it. A band that swells \(trigger.during) is the population that keeps the storm going."
    }

    static func build(_ context: ChartContext) -> NamedChart? {
        let records = context.run.results.populationSeries
        guard !records.isEmpty else { return nil }
        var names: [String] = []
        for r in records where !names.contains(r.population) { names.append(r.population) }
        // Per drawn variant and population: offered per second, merged as the other charts are.
        let bands = context.series.map { s in
            names.map { name in
                perSecond(
                    records.filter { $0.variant == s.variant && $0.population == name }, context: context, buckets: s.times.count,
                    bucketSeconds: s.bucketSeconds)
            }
        }
        let title = context.title("Offered load by population")
        let yAxis = ChartContext.headroomAxis(
            "requests per second",
            values: bands.map { b in
                (0..<(b.first?.count ?? 0)).map { i in b.reduce(0) { $0 + $1[i] } }
            })
        let chart: any Chart
        if !context.isComparison, let only = context.series.first, let b = bands.first {
            chart = StackedChart(
                title: title, subtitle: context.timeSubtitle("stacked: the top edge is the whole offered load"),
                xAxis: context.timeAxis, yAxis: yAxis,
                series: zip(names, b).enumerated().map { i, p in Series(name: p.0, x: only.times, y: p.1, color: Palette.color(at: i)) },
                annotations: context.incident(only.variant))
        } else {
            let panels = zip(context.series, bands).map { s, b in
                // Cumulative staircases drawn from the top down, so each lower band covers the
                // one above it up to its own edge.
                var running = Array(repeating: 0.0, count: s.times.count)
                let cumulative = b.map { band in
                    running = zip(running, band).map(+)
                    return running
                }
                let series = zip(names, cumulative).enumerated().reversed().map { i, p in
                    Series(
                        name: p.0, points: ChartContext.staircase(x: s.times, y: p.1, width: s.bucketSeconds),
                        style: .area, color: Palette.color(at: i))
                }
                return SmallMultiples.Panel(title: s.variant, series: series, annotations: context.incident(s.variant))
            }
            chart = SmallMultiples(
                title: title, subtitle: context.timeSubtitle(["stacked", context.panelLegend].filter { !$0.isEmpty }.joined(separator: " · ")),
                xAxis: context.timeAxis, yAxis: yAxis, panels: panels)
        }
        return NamedChart(fileName: fileName, chart: chart, caption: caption(context.trigger))
    }

    /// The mean over `replications` of their offered counts per bucket, per second, merged as the
    /// drawn series were (``ChartContext/meanPerSecond(_:counts:buckets:bucketSeconds:)``).
    static func perSecond(_ replications: [PopulationSeriesRecord], context: ChartContext, buckets: Int, bucketSeconds: Double) -> [Double] {
        context.meanPerSecond(replications.map(\.offered), counts: true, buckets: buckets, bucketSeconds: bucketSeconds)
    }
}
