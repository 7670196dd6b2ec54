import RetryStormResults
import SVGCharts

/// "Time to success p50 and p99 among successes": per variant, the mean over replications of each
/// success-only percentile (`tts_success_p50_s`, `tts_success_p99_s`: a dot plot has no place to
/// draw "never", which the survival-view percentiles are past the share that succeeded) as a
/// point with its 95% interval as whiskers (``MetricTable``), on a log axis when the values span
/// more than a decade — points, not bars, since a bar's length on a log axis means nothing.
///
/// The ★ goes by ``BestMarks`` on p99 (``ChartStar``): never to a variant that loses clearly more
/// operations, shared or withheld within noise, as the subtitle and caption say.
enum TimeToSuccessPoints {
    static let fileName = "tts_p50_p99.svg"
    static let metrics: [Metric] = [.ttsSuccessP50, .ttsSuccessP99]

    static func build(_ context: ChartContext) -> NamedChart {
        let table = context.run.metrics
        let points = Array(table.names.indices.prefix(ChartContext.maxCategories))
        let star = ChartStar(table, metric: .ttsSuccessP99, among: Array(table.names.indices), meaning: "lowest p99 among successes")
        // Time to success among successes: a variant that loses more can look faster, so a
        // comparison names each variant's lost share beside it — up to five variants, beyond
        // which the labels no longer fit (the CDF's legend and the tables give the shares).
        let withShares = points.count > 1 && points.count <= 5
        var replications: [Int] = []
        let categories = points.map { p in
            let name = table.names[p]
            let label = withShares ? "\(name) (\(context.lostText(name)))" : name
            return DotPlot.Category(
                name: star.label(label, point: p),
                estimates: table.estimates(name, metrics, replications: &replications))
        }
        let values = categories.flatMap { $0.estimates.compactMap { $0?.value } }
        let log = ChartContext.spansDecade(values)
        var parts = ["successful operations only", context.replicationsText(replications)]
        if replications.contains(where: { $0 > 1 }) { parts.append("whiskers: 95% CI") }
        if !star.subtitle.isEmpty { parts.append(star.subtitle) }
        if !values.contains(where: \.isFinite) { parts.append("no operation succeeded") }
        if table.names.count > points.count { parts.append("first \(points.count) of \(table.names.count) variants") }
        let chart = DotPlot(
            title: context.title("Time to success p50 and p99 among successes"),
            subtitle: parts.joined(separator: " · "),
            categoryLabel: context.isComparison ? "variant" : "",
            valueAxis: Axis(
                label: log ? "time to success (log scale)" : "time to success", scale: log ? .log : .linear,
                format: .duration, includesZero: !log),
            series: ["p50", "p99"], categories: categories,
            highlight: star.single.flatMap { s in points.firstIndex(of: s).map { categories[$0].name } },
            highlightLabel: "★ \(star.meaning)")
        var caption =
            "Median and 99th-percentile time to success per variant, with 95% intervals: lower is faster, but only successes count, so read it with the share each variant lost."
        if !star.sentence.isEmpty { caption += " " + star.sentence }
        return NamedChart(fileName: fileName, chart: chart, caption: caption)
    }
}
