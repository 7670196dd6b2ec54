import RetryStormResults
import SVGCharts

extension MetricTable {
    /// The dot plots' points of `name`: each metric's mean with its 95% interval (nil where the
    /// table has none), adding each interval's replication count to `replications` for the
    /// subtitle's "n replications".
    func estimates(_ name: String, _ metrics: [Metric], replications: inout [Int]) -> [Estimate?] {
        metrics.map { metric in
            guard let ci = interval(name, metric) else { return nil }
            replications.append(ci.count)
            return Estimate(ci)
        }
    }
}
