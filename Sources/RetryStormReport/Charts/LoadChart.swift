import RetryStormResults
import SVGCharts

/// "Offered load vs capacity": the retry spike against what the server can do, and the goodput
/// left over. One chart for a single variant; one panel per variant (shared axes) otherwise.
enum LoadChart {
    static let fileName = "load.svg"

    static func build(_ context: ChartContext) -> NamedChart {
        let title = context.title("Offered load vs capacity")
        let subtitle = context.timeSubtitle(context.isComparison ? context.panelLegend : "")
        let yAxis = ChartContext.headroomAxis(
            "requests per second",
            values: context.series.flatMap {
                [$0.perSecond(.capacityPerSecond), $0.perSecond(.offered), $0.perSecond(.succeeded)]
            })
        return NamedChart(
            fileName: fileName, chart: context.overTime(title: title, subtitle: subtitle, yAxis: yAxis, series: series),
            caption:
                "How far the offered load climbs above capacity \(context.trigger.during), and how soon it falls back to what the server can serve.")
    }

    /// Capacity, offered load and goodput per second. Goodput is a filled staircase drawn first,
    /// so that where offered load equals goodput (a healthy server) the offered line shows on top
    /// of the fill instead of hiding under it.
    static func series(_ s: VariantTimeSeries) -> [Series] {
        [
            Series(
                name: "goodput (successes)",
                points: ChartContext.staircase(x: s.times, y: s.perSecond(.succeeded), width: s.bucketSeconds),
                style: .area, color: ChartContext.Colors.goodput),
            Series(
                name: "capacity", x: s.times, y: s.perSecond(.capacityPerSecond), style: .step,
                color: ChartContext.Colors.capacity),
            Series(
                name: "offered load (attempts reaching the server)", x: s.times, y: s.perSecond(.offered), style: .step,
                color: ChartContext.Colors.offered)
        ]
    }
}
