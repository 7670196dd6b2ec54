import RetryStormResults
import RetryStormScenario
import GSLSupport
import SVGCharts

/// "Time to success p50 and p99": bars per variant with 95% confidence-interval whiskers over
/// replications, from compare.csv when the directory has one, else from summary.csv. Among the
/// variants that lose the fewest operations (within one percentage point of the fewest), the one
/// with the lowest mean p99 is marked best: a variant that gives up more can look faster.
enum TimeToSuccessBars {
    static let fileName = "tts_p50_p99.svg"
    static let metrics = ["tts_p50_s", "tts_p99_s"]

    static func build(_ context: ChartContext) -> any Chart {
        let run = context.run
        let fromCompare = run.compare.map { table in metrics.allSatisfy { table.metrics.contains($0) } } ?? false
        let variants = Array((fromCompare ? run.compare!.variants : run.summaries.variants).prefix(ChartContext.maxVariants))
        var replications: [Int] = []
        // Time to success counts successes only: a variant that gives up more can look faster,
        // so comparisons name each variant's give-up share beside it — up to five variants,
        // beyond which the labels no longer fit (the CDF's legend still gives the shares).
        let withShares = variants.count > 1 && variants.count <= 5
        let categories = variants.map { variant in
            BarChart.Category(
                name: withShares ? "\(variant) (\(TimeToSuccessCDF.gaveUpText(run, variant, decimals: 0)))" : variant,
                bars: metrics.map { metric in
                let ci: ConfidenceInterval
                if fromCompare, let row = run.compare!.row(variant: variant, metric: metric) {
                    ci = ConfidenceInterval(mean: row.mean, low: row.low, high: row.high, count: row.replications)
                } else {
                    ci = run.summaries.interval(variant: variant, metric: metric)
                }
                replications.append(ci.count)
                let hasInterval = ci.count > 1 && ci.low.isFinite && ci.high.isFinite
                return BarChart.Bar(value: ci.mean, low: hasInterval ? ci.low : nil, high: hasInterval ? ci.high : nil)
            })
        }
        let shares = variants.map { TimeToSuccessCDF.gaveUpShare(run, $0) ?? 0 }
        let fewest = shares.min() ?? 0
        var best: String?
        var lowest = Double.infinity
        for (i, c) in categories.enumerated() where shares[i] <= fewest + 0.01 && c.bars[1].value < lowest {
            lowest = c.bars[1].value
            best = c.name
        }
        if categories.count < 2 { best = nil }
        let values = categories.flatMap { $0.bars.map(\.value) }.filter { $0 > 0 && $0.isFinite }
        let spread = (values.max() ?? 1) / (values.min() ?? 1)
        let log = spread > 30
        var parts = ["successful operations only", context.replicationsText(replications)]
        if replications.contains(where: { $0 > 1 }) { parts.append("whiskers: 95% CI") }
        if best != nil { parts.append("★ lowest p99 of those losing fewest") }
        if !categories.contains(where: { $0.bars.contains { $0.value.isFinite } }) { parts.append("no operation succeeded") }
        if fromCompare { parts.append("from compare.csv") }
        if (fromCompare ? run.compare!.variants.count : run.summaries.variants.count) > ChartContext.maxVariants {
            parts.append("first \(ChartContext.maxVariants) variants")
        }
        return BarChart(
            title: context.title("Time to success p50 and p99"),
            subtitle: parts.joined(separator: " · "),
            categoryLabel: context.isComparison ? "variant" : "",
            yAxis: Axis(label: log ? "time to success (log scale)" : "time to success", scale: log ? .log : .linear,
                        format: .duration),
            groups: ["p50", "p99"], categories: categories, best: best)
    }
}
