import RetryStormResults
import RetryStormScenario
import SVGCharts

/// "Time to success": the distribution of successful operations' time to success per variant
/// (a CDF over a log time axis, from tts_quantiles.csv), with p50 and p99 marked. Operations
/// that gave up have no time to success: the share that did is given with each curve.
enum TimeToSuccessCDF {
    static let fileName = "tts_cdf.svg"

    static func build(_ context: ChartContext) -> any Chart {
        let run = context.run
        let drawn = Array(run.quantiles.prefix(ChartContext.maxVariants))
        let series = drawn.map { q in
            let name = context.isComparison ? "\(q.variant) (\(gaveUpText(run, q.variant)))" : q.variant
            return Series(name: name, x: q.seconds, y: q.levels, style: .step)
        }
        var parts = ["successful operations only"]
        if !context.isComparison, let only = drawn.first { parts.append(gaveUpText(run, only.variant)) }
        if run.quantiles.count > ChartContext.maxVariants { parts.append(context.variantCount) }
        parts.append(context.replicationsText(drawn.map(\.replications)).replacingOccurrences(of: "mean of", with: "quantiles averaged over"))
        if drawn.isEmpty { parts.append("no operation succeeded") }
        return CDFChart(
            title: context.title("Time to success"),
            subtitle: parts.joined(separator: " · "),
            xAxis: Axis(label: "time to success (log scale)", scale: .log, format: .duration, min: axisMinimum(drawn)),
            yAxis: Axis(label: "operations that succeeded", format: .percent),
            series: series,
            annotations: [.yReference(at: 0.5, label: "p50"), .yReference(at: 0.99, label: "p99")])
    }

    /// "14.5% gave up": the mean over replications of gave_up / operations (`decimals` 0 or 1).
    static func gaveUpText(_ run: RunDirectory, _ variant: String, decimals: Int = 1) -> String {
        guard let share = gaveUpShare(run, variant) else { return "gave up: n/a" }
        return "\(NumberFormat.percent(share, maxFractionDigits: decimals)) gave up"
    }

    /// The mean over replications of the share of operations that gave up; nil without summaries.
    static func gaveUpShare(_ run: RunDirectory, _ variant: String) -> Double? {
        let gaveUp = run.summaries.values(variant: variant, metric: "gave_up")
        let operations = run.summaries.values(variant: variant, metric: "operations")
        let shares = zip(gaveUp, operations).map { $1 > 0 ? $0 / $1 : 0 }
        return shares.isEmpty ? nil : shares.reduce(0, +) / Double(shares.count)
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
