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
        if let focus = context.run.metrics.focus?.name { return build(context, focus: focus) }
        let limit = sharedLimit(context)
        let reference: [Annotation] = limit.map { [.yReference(at: Double($0), label: "queue limit \(Format.grouped(Int64($0)))")] } ?? []
        // What the value is goes on the axis, so the subtitle keeps to the run and its marks (one
        // line: a longer one is cut).
        let yAxis = ChartContext.headroomAxis(
            "requests waiting at bucket end", values: context.series.map { $0.mean(.queueLength) } + [[Double(limit ?? 0)]])
        let subtitle = context.timeSubtitle(context.isComparison ? context.panelLegend : "")
        let chart = context.overTime(title: context.title("Queue length"), subtitle: subtitle, yAxis: yAxis, extra: reference) { s in
            [Series(name: "requests waiting", x: s.times, y: s.mean(.queueLength), style: .step, color: ChartContext.Colors.queue)]
        }
        return NamedChart(
            fileName: fileName, chart: chart,
            caption: "Requests waiting at the server: a queue that stays full after the incident serves requests whose clients have already given up."
        )
    }

    /// A call graph's chart: the focus's queue, where the first service's would stay empty while
    /// the storm lands downstream.
    static func build(_ context: ChartContext, focus: String) -> NamedChart {
        let limit = sharedLimit(context, service: focus)
        let reference: [Annotation] = limit.map { [.yReference(at: Double($0), label: "queue limit \(Format.grouped(Int64($0)))")] } ?? []
        let queues = context.series.map { FocusSeries(context, $0)?.queueLength ?? [] }
        let yAxis = ChartContext.headroomAxis("requests waiting at \(focus) at bucket end", values: queues + [[Double(limit ?? 0)]])
        let subtitle = context.timeSubtitle(context.isComparison ? context.panelLegend : "")
        let chart = context.overTime(title: context.title("Queue length at \(focus)"), subtitle: subtitle, yAxis: yAxis, extra: reference) { s in
            guard let f = FocusSeries(context, s) else { return [] }
            return [Series(name: "requests waiting", x: s.times, y: f.queueLength, style: .step, color: ChartContext.Colors.queue)]
        }
        return NamedChart(
            fileName: fileName, chart: chart,
            caption:
                "Requests waiting at \(focus), the focus of this call graph: a queue that stays full after the incident serves requests whose callers have already given up."
        )
    }

    /// The queue limit of service `service` that every drawn variant shares, when the data never
    /// exceeds it.
    static func sharedLimit(_ context: ChartContext, service: String) -> Int? {
        var limit: Int?
        for s in context.series {
            guard let own = context.scenario(for: s.variant).services.first(where: { $0.name == service }),
                case .queue(let model) = own.server.model, let l = model.limit
            else { return nil }
            if let known = limit, known != l { return nil }
            guard (FocusSeries(context, s)?.queueLength.max() ?? 0) <= Double(l) else { return nil }
            limit = l
        }
        return limit
    }

    /// The queue limit every drawn variant shares, when the data never exceeds it (the scenario
    /// copy lacks `--set` overrides, so a limit the queue went past is not this run's).
    static func sharedLimit(_ context: ChartContext) -> Int? {
        var limit: Int?
        for s in context.run.timeSeries.prefix(ChartContext.maxPanels) {
            guard case .queue(let model) = context.scenario(for: s.variant).server.model, let l = model.limit else { return nil }
            if let known = limit, known != l { return nil }
            guard (s.mean(.queueLength).max() ?? 0) <= Double(l) else { return nil }
            limit = l
        }
        return limit
    }
}
