/// "Clearly", the one definition behind every verdict between two points: the marks, the chart
/// stars and captions, the findings' superlatives, and who "loses clearly more".
extension MetricTable {
    /// How one point stands against another on a metric.
    package enum Comparison: Sendable, Equatable {
        /// Better by both tests: the paired 95% interval excludes 0 on the better side, and the
        /// mean difference exceeds ``minimumDifference``.
        case clearlyBetter
        case clearlyWorse
        /// Within noise, or a real difference smaller than the minimum that matters (or a metric
        /// with no better direction, or too few replications to tell).
        case aboutTheSame
    }

    /// Point `a` against point `b` (indices into ``names``) on `metric`.
    package func compare(_ a: Int, _ b: Int, on metric: Metric) -> Comparison {
        guard metric.better != .neither, a != b,
            let d = difference(names[a], minus: names[b], metric),
            let x = interval(names[a], metric)?.mean, let y = interval(names[b], metric)?.mean
        else { return .aboutTheSame }
        return Self.comparison(d, x, y, metric: metric, lowerIsBetter: metric.better == .lower, minimum: minimumDifference)
    }

    /// Whether point `a` loses clearly more operations than point `b`: its lost share (gave up +
    /// blocked + unfinished, ``lostShares(_:)``) is clearly above `b`'s, by the paired interval and
    /// by more than the minimum for shares.
    package func losesClearlyMore(_ a: Int, than b: Int) -> Bool {
        guard a != b, let la = lostShares(names[a]), let lb = lostShares(names[b]) else { return false }
        let d = PairedDifference(la.values, replications: la.replications, minus: lb.values, replications: lb.replications)
        return Self.comparison(d, mean(la.values), mean(lb.values), metric: .lostFraction, lowerIsBetter: true, minimum: minimumDifference)
            == .clearlyWorse
    }

    /// The points of `points` that lose clearly more operations than another of them.
    package func losingClearlyMore(among points: [Int]) -> Set<Int> {
        Set(points.filter { p in points.contains { losesClearlyMore(p, than: $0) } })
    }

    static func comparison(
        _ d: PairedDifference, _ a: Double, _ b: Double, metric: Metric, lowerIsBetter: Bool, minimum: MinimumDifference
    ) -> Comparison {
        let i = d.interval
        guard i.count >= 2, !i.mean.isNaN, minimum.matters(i.mean, between: a, and: b, metric: metric) else { return .aboutTheSame }
        if i.high < 0 { return lowerIsBetter ? .clearlyBetter : .clearlyWorse }
        if i.low > 0 { return lowerIsBetter ? .clearlyWorse : .clearlyBetter }
        return .aboutTheSame
    }

    private func mean(_ xs: [Double]) -> Double {
        let kept = xs.filter { !$0.isNaN }
        return kept.isEmpty ? .nan : kept.reduce(0, +) / Double(kept.count)
    }
}
