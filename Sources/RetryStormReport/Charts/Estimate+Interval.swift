import GSLSupport
import SVGCharts

extension Estimate {
    /// A point at `ci.mean` with `ci`'s ends as its whiskers, exactly as ``MetricTable`` computed
    /// them (the 95% Student-t interval over replications, cut to the metric's range). No whiskers
    /// with fewer than two replications or an interval of zero width: there is no spread to show,
    /// and a flat whisker would read as certainty.
    init(_ ci: ConfidenceInterval) {
        let hasInterval = ci.count > 1 && ci.low.isFinite && ci.high.isFinite && ci.low < ci.high
        self.init(ci.mean, low: hasInterval ? ci.low : nil, high: hasInterval ? ci.high : nil)
    }
}
