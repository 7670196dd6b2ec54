import RetryStormResults
import SVGCharts

/// "Time to success": per variant, the share of every operation that had succeeded by each time
/// (a CDF over a log time axis, from tts_quantiles.csv's successes scaled by the share that
/// succeeded: ``ChartContext/levelsOfAll(_:)``), with p50 and p99 marked. A lost operation never
/// succeeds, so a curve levels off at its variant's success share, and one below the p99 line
/// never crosses it: its `tts_p99_s` is never. The lost share is given with each curve.
enum TimeToSuccessCDF {
    static let fileName = "tts_cdf.svg"

    static func build(_ context: ChartContext) -> NamedChart {
        let drawn = context.quantiles
        let series = drawn.map { q in
            Series(name: context.quantileSeriesName(q), x: q.seconds, y: context.levelsOfAll(q), style: .step)
        }
        let chart = CDFChart(
            title: context.title("Time to success"),
            subtitle: context.quantileSubtitle,
            xAxis: Axis(label: "time to success (log scale)", scale: .log, format: .duration, min: axisMinimum(drawn)),
            yAxis: Axis(label: "operations that had succeeded", format: .percent, min: 0, max: 1),
            series: series,
            annotations: [.yReference(at: 0.5, label: "p50"), .yReference(at: 0.99, label: "p99")])
        return NamedChart(
            fileName: fileName, chart: chart,
            caption:
                "How long operations took to succeed, every operation counted: a curve further left is faster, and a curve levels off at the share that succeeded (the rest were lost, and never succeed), so one that stays below the p99 line has a p99 of never. The top strip, where variants differ most, is spread out in the tail chart."
        )
    }

    /// The power of ten at or below the smallest positive 1% quantile, so the axis starts where
    /// the distribution does rather than at a few stray microsecond successes; nil (derive from
    /// data) when no variant has one.
    static func axisMinimum(_ quantiles: [VariantQuantiles]) -> Double? {
        let p1 = quantiles.map { $0.seconds(at: 0.01) }.filter { $0 > 0 && $0.isFinite }.min()
        guard let p1 else { return nil }
        var decade = 1.0
        while decade > p1 && decade > 1e-9 { decade /= 10 }
        while decade * 10 <= p1 && decade < 1e9 { decade *= 10 }
        return decade
    }
}
