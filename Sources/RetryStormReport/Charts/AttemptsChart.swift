import RetryStormResults
import SVGCharts

/// "First attempts vs retries": where the load comes from. Stacked for a single variant (the
/// top edge is all attempts); one panel per variant otherwise, with first attempts and all
/// attempts as filled staircases, the band between them being the retries.
enum AttemptsChart {
    static let fileName = "attempts.svg"

    static func caption(_ trigger: IncidentTrigger) -> String {
        "Where the load comes from: first attempts against retries. Retries that keep coming \(trigger.after) are the storm."
    }

    static func build(_ context: ChartContext) -> NamedChart {
        NamedChart(fileName: fileName, chart: chart(context), caption: caption(context.trigger))
    }

    static func chart(_ context: ChartContext) -> any Chart {
        let title = context.title("First attempts vs retries")
        let yAxis = ChartContext.headroomAxis(
            "attempts per second",
            values: context.series.map {
                zip($0.perSecond(.firstAttempts), $0.perSecond(.retries)).map(+)
            })
        if !context.isComparison, let only = context.series.first {
            return StackedChart(
                title: title, subtitle: context.timeSubtitle("stacked: the top edge is all attempts sent"),
                xAxis: context.timeAxis, yAxis: yAxis,
                series: [
                    Series(
                        name: "first attempts", x: only.times, y: only.perSecond(.firstAttempts),
                        color: ChartContext.Colors.firstAttempts),
                    Series(
                        name: "retries", x: only.times, y: only.perSecond(.retries),
                        color: ChartContext.Colors.retries)
                ],
                annotations: context.incident(only.variant))
        }
        let panels = context.series.map { s in
            let total = zip(s.perSecond(.firstAttempts), s.perSecond(.retries)).map(+)
            return SmallMultiples.Panel(
                title: s.variant,
                series: [
                    Series(
                        name: "all attempts (first + retries)",
                        points: ChartContext.staircase(x: s.times, y: total, width: s.bucketSeconds),
                        style: .area, color: ChartContext.Colors.retries),
                    Series(
                        name: "first attempts",
                        points: ChartContext.staircase(x: s.times, y: s.perSecond(.firstAttempts), width: s.bucketSeconds),
                        style: .area, color: ChartContext.Colors.firstAttempts)
                ], annotations: context.incident(s.variant))
        }
        return SmallMultiples(
            title: title, subtitle: context.timeSubtitle(context.panelLegend),
            xAxis: context.timeAxis, yAxis: yAxis, panels: panels)
    }
}
