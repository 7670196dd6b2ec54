import RetryStormResults
import SVGCharts

/// "What clients lose": per second, attempts abandoned at the timeout, attempts the server
/// refused unserved — a full queue's 503 and a rate limiter's 429, both counted in the `rejected`
/// column — and operations whose policy ran out of attempts; attempts that got another error
/// response, attempts a client without network could not send, blocked operations, expired requests, retries the budget denied and attempts the policy held
/// back (breaker open, slots full) too when any occur. One chart for a single variant; one
/// panel per variant otherwise.
enum FailuresChart {
    static let fileName = "failures.svg"

    /// A line of the chart: the column, its legend text, colour and style.
    struct Line {
        var column: TimeSeriesColumn
        var name: String
        var color: Color
        var style: Series.Style = .step
    }

    /// Every line the chart can draw, in legend order; the first two always, the rest when any
    /// drawn variant has a non-zero count.
    static let lines: [Line] = [
        Line(column: .timedOut, name: "attempts timed out", color: ChartContext.Colors.timedOut),
        Line(column: .gaveUp, name: "operations given up", color: ChartContext.Colors.gaveUp),
        Line(column: .rejected, name: "attempts rejected or throttled (503/429)", color: ChartContext.Colors.rejected),
        Line(column: .failed, name: "attempts failed (other error responses)", color: ChartContext.Colors.failed),
        Line(column: .offline, name: "attempts offline (no network)", color: ChartContext.Colors.offline, style: .dashed),
        Line(column: .blocked, name: "operations blocked", color: ChartContext.Colors.blocked),
        Line(column: .expired, name: "requests expired in queue", color: ChartContext.Colors.expired),
        Line(column: .budgetDenied, name: "retries the budget denied", color: ChartContext.Colors.budgetDenied),
        Line(column: .heldBack, name: "attempts held back (breaker, slots)", color: ChartContext.Colors.heldBack, style: .dashed)
    ]

    /// The lines drawn for `series`: the timeouts and give-ups, and every other line with a count.
    static func shown(_ series: [VariantTimeSeries]) -> [Line] {
        lines.enumerated().filter { i, line in
            i < 2 || series.contains { $0.mean(line.column).contains { $0 > 0 } }
        }.map(\.element)
    }

    static func build(_ context: ChartContext) -> NamedChart {
        let shown = shown(context.series)
        let title = context.title("What clients lose")
        let subtitle = context.timeSubtitle(context.isComparison ? context.panelLegend : "per second")
        let yAxis = ChartContext.headroomAxis(
            "per second",
            values: context.series.flatMap { s in
                shown.map { s.perSecond($0.column) }
            })
        func series(_ s: VariantTimeSeries) -> [Series] {
            shown.map { Series(name: $0.name, x: s.times, y: s.perSecond($0.column), style: $0.style, color: $0.color) }
        }
        var caption = "What clients lose over time: attempts that time out"
        if shown.contains(where: { $0.column == .rejected }) {
            caption += ", attempts the server refuses unserved (503 from a full queue, 429 when a rate limiter throttles)"
        }
        caption += " and operations that give up. Losses that go on \(context.trigger.after) are the storm's cost."
        return NamedChart(
            fileName: fileName, chart: context.overTime(title: title, subtitle: subtitle, yAxis: yAxis, series: series),
            caption: caption)
    }
}
