import RetryStormResults
import RetryStormScenario
import SVGCharts

/// "Queue length": requests waiting at the end of each bucket, one line per variant, with the
/// queue limit when the scenario sets one (the level at which the server starts shedding 503s).
enum QueueChart {
    static let fileName = "queue.svg"

    static func build(_ context: ChartContext) -> any Chart {
        let series = context.series.map { s in
            Series(name: s.variant, x: s.times, y: s.mean(.queueLength), style: .step,
                   color: context.isComparison ? nil : ChartContext.Colors.queue)
        }
        let limit = sharedLimit(context)
        var annotations: [Annotation] = []
        if !context.isComparison, let only = context.series.first {
            annotations = context.incident(only.variant)
        }
        if let limit {
            annotations.append(.yReference(at: Double(limit), label: "queue limit \(Format.grouped(Int64(limit)))"))
        }
        return LineChart(
            title: context.title("Queue length"),
            subtitle: context.timeSubtitle("requests waiting at the end of each bucket"),
            xAxis: context.timeAxis,
            yAxis: ChartContext.headroomAxis("requests waiting", values: context.series.map { $0.mean(.queueLength) } + [[Double(limit ?? 0)]]),
            series: series, annotations: annotations)
    }

    /// The queue limit every drawn variant shares, when the data never exceeds it (the scenario
    /// copy lacks `--set` overrides, so a limit the queue went past is not this run's).
    static func sharedLimit(_ context: ChartContext) -> Int? {
        var limit: Int?
        for s in context.run.timeSeries.prefix(ChartContext.maxVariants) {
            guard case let .queue(model) = context.scenario(for: s.variant).server.model, let l = model.limit else { return nil }
            if let known = limit, known != l { return nil }
            guard (s.mean(.queueLength).max() ?? 0) <= Double(l) else { return nil }
            limit = l
        }
        return limit
    }
}
