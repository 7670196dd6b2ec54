import RetryStormEngine
import RetryStormResults
import RetryStormVocabulary
import SVGCharts

/// "Queue length": requests waiting at the end of each bucket, with the incident shaded and the
/// recovery marked as on the other time charts (``IncidentMarks``), and the queue limit when the
/// scenario sets one (the level at which the server starts shedding 503s). One chart for a single
/// variant; one panel per variant (shared axes) otherwise, each with its own incident marks.
enum QueueChart {
    static let fileName = "queue.svg"

    static func build(_ context: ChartContext) -> NamedChart {
        // In a call graph, the focus's queue: the first service's stays empty while the storm
        // lands downstream.
        let focus = context.run.metrics.focus?.name
        let focused = FocusSeries.byVariant(context)
        func queue(_ s: VariantTimeSeries) -> [Double] { focus == nil ? s.mean(.queueLength) : focused[s.variant]?.queueLength ?? [] }
        func server(_ scenario: Scenario) -> Scenario.Server? {
            guard let focus else { return scenario.server }
            return scenario.services.first { $0.name == focus }?.server
        }
        let limit = sharedLimit(context, server: server, queue: queue)
        let reference: [Annotation] = limit.map { [.yReference(at: Double($0), label: "queue limit \(Format.grouped(Int64($0)))")] } ?? []
        let at = focus.map { " at \($0)" } ?? ""
        // What the value is goes on the axis, so the subtitle keeps to the run and its marks (one
        // line: a longer one is cut).
        let yAxis = ChartContext.headroomAxis(
            "requests waiting\(at) at bucket end", values: context.series.map(queue) + [[Double(limit ?? 0)]])
        let subtitle = context.timeSubtitle(context.isComparison ? context.panelLegend : "")
        let chart = context.overTime(title: context.title("Queue length\(at)"), subtitle: subtitle, yAxis: yAxis, extra: reference) { s in
            [Series(name: "requests waiting", x: s.times, y: queue(s), style: .step, color: ChartContext.Colors.queue)]
        }
        let caption =
            focus.map {
                "Requests waiting at \($0), the focus of this call graph: a queue that stays full after the incident serves requests whose callers have already given up."
            }
            ?? "Requests waiting at the server: a queue that stays full after the incident serves requests whose clients have already given up."
        return NamedChart(fileName: fileName, chart: chart, caption: caption)
    }

    /// The queue limit every drawn variant shares (its scenario's `server(…)`), when its data
    /// (`queue(…)`) never exceeds it (the scenario copy lacks `--set` overrides, so a limit the
    /// queue went past is not this run's).
    static func sharedLimit(
        _ context: ChartContext, server: (Scenario) -> Scenario.Server?, queue: (VariantTimeSeries) -> [Double]
    ) -> Int? {
        var limit: Int?
        for s in context.run.timeSeries.prefix(ChartContext.maxPanels) {
            guard case .queue(let model)? = server(context.scenario(for: s.variant)).map(\.model), let l = model.limit else { return nil }
            if let known = limit, known != l { return nil }
            guard (queue(s).max() ?? 0) <= Double(l) else { return nil }
            limit = l
        }
        return limit
    }
}
