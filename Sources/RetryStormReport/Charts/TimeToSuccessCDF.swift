import RetryStormResults
import SVGCharts

/// "Time to success": the distribution of successful operations' time to success per variant
/// (a CDF over a log time axis, from tts_quantiles.csv), with p50 and p99 marked. Operations
/// that gave up have no time to success: the share that did is given with each curve.
enum TimeToSuccessCDF {
    static let fileName = "tts_cdf.svg"

    static func build(_ context: ChartContext) -> NamedChart {
        let drawn = context.quantiles
        let series = drawn.map { q in
            Series(name: context.quantileSeriesName(q), x: q.seconds, y: q.levels, style: .step)
        }
        let chart = CDFChart(
            title: context.title("Time to success"),
            subtitle: context.quantileSubtitle,
            xAxis: Axis(label: "time to success (log scale)", scale: .log, format: .duration, min: axisMinimum(drawn)),
            yAxis: Axis(label: "operations that succeeded", format: .percent),
            series: series,
            annotations: [.yReference(at: 0.5, label: "p50"), .yReference(at: 0.99, label: "p99")])
        return NamedChart(
            fileName: fileName, chart: chart,
            caption:
                "How long successful operations took: a curve further left is faster; compare it with the share each variant gave up. The top strip, where variants differ most, is spread out in the tail chart."
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
