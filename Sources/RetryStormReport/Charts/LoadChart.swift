import RetryStormResults
import SVGCharts

/// "Offered load vs capacity": the retry spike against what the server can do, and the goodput
/// left over. One chart for a single variant; one panel per variant (shared axes) otherwise.
enum LoadChart {
    static let fileName = "load.svg"

    static func build(_ context: ChartContext) -> NamedChart {
        if let focus = context.run.metrics.focus { return build(context, focus: focus.name) }
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

    /// A call graph's chart: the focus's offered load, what it served and its capacity, where the
    /// first service's lines would stay flat while the storm lands downstream.
    static func build(_ context: ChartContext, focus: String) -> NamedChart {
        let loads = FocusSeries.byVariant(context)
        let yAxis = ChartContext.headroomAxis(
            "requests per second at \(focus)", values: context.series.flatMap { loads[$0.variant].map { [$0.capacity, $0.offered, $0.served] } ?? [] }
        )
        let chart = context.overTime(
            title: context.title("Offered load vs capacity at \(focus)"),
            subtitle: context.timeSubtitle(context.isComparison ? context.panelLegend : ""), yAxis: yAxis
        ) { s in
            guard let f = loads[s.variant] else { return [] }
            return [
                Series(
                    name: "served by \(focus)", points: ChartContext.staircase(x: s.times, y: f.served, width: s.bucketSeconds),
                    style: .area, color: ChartContext.Colors.goodput),
                Series(name: "capacity", x: s.times, y: f.capacity, style: .step, color: ChartContext.Colors.capacity),
                Series(name: "offered load (requests reaching \(focus))", x: s.times, y: f.offered, style: .step, color: ChartContext.Colors.offered)
            ]
        }
        return NamedChart(
            fileName: fileName, chart: chart,
            caption:
                "At \(focus), the focus of this call graph: how far the requests reaching it climb above its capacity \(context.trigger.during), and how soon they fall back to what it can serve. Every service's load is in “Load by service”."
        )
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
