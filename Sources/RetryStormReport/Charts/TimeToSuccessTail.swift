import RetryStormResults
import SVGCharts

/// "Time to success in the tail": per variant, the time to success at each percentile of every
/// operation from p50 to p99.9 (tts_quantiles.csv's levels, averaged over replications:
/// ``VariantQuantiles``, as levels of all operations: ``ChartContext/levelsOfAll(_:)``) on a
/// tail-percentile axis, where p90, p99 and p99.9 are evenly spaced (−log10(1 − q)), against a
/// log time axis in one unit. A line ends at its variant's success share: the percentiles beyond
/// it are never. The tail, where retry policies differ, gets most of the width; on the CDF's
/// linear 0–100% axis it is the top strip.
enum TimeToSuccessTail {
    static let fileName = "tts_tail.svg"
    /// The levels drawn: p50 to p99.9 (the maximum, p100, is one operation and has no place on
    /// a tail axis).
    static let levels: ClosedRange<Double> = 0.5...0.999

    static func build(_ context: ChartContext) -> NamedChart {
        let series = context.quantiles.map { q in
            // The successes' maximum stays out at any scale: one operation, as p100 is.
            let tail = zip(zip(q.levels, context.levelsOfAll(q)), q.seconds)
                .filter { $0.0.0 <= levels.upperBound && levels.contains($0.0.1) }
                .map { ($0.0.1, $0.1) }
            return Series(name: context.quantileSeriesName(q), x: tail.map { $0.0 * 100 }, y: tail.map(\.1))
        }
        let chart = LineChart(
            title: context.title("Time to success in the tail"),
            subtitle: context.quantileSubtitle,
            xAxis: Axis(
                label: "percentile of every operation (each further nine the same width)", scale: .tailPercentile,
                min: levels.lowerBound * 100, max: levels.upperBound * 100),
            yAxis: Axis(label: "time to success (log scale)", scale: .log, format: .duration),
            series: series)
        // A variant that lost half its operations or more has no percentile from p50 up to draw.
        let lineless = zip(context.quantiles, series).filter { $0.1.points.isEmpty }.map(\.0.variant)
        let missing =
            lineless.isEmpty
            ? ""
            : " \(lineless.joined(separator: ", ")) \(lineless.count == 1 ? "has" : "have") no line: half the operations or more were lost, so even p50 is never."
        return NamedChart(
            fileName: fileName, chart: chart,
            caption:
                "The tail of time to success over every operation, from the median (p50) out to p99.9, each further nine given the same width. A line lower at the right keeps the tail short; a line that ends before the right edge lost the rest of its operations, whose time to success is never."
                + missing
        )
    }
}
