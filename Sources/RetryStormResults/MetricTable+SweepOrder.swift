/// The order a sweep's points are listed and charted in: by its objective, best mean first.
extension MetricTable {
    /// The objective a sweep orders by: the scenario's `objective:` (nil when it names no metric
    /// this version knows: then nothing is ranked), else p99 time to success.
    package static func sweepObjective(_ scenarioObjective: String?) -> Objective? {
        guard let text = scenarioObjective else { return Objective(.ttsP99) }
        return Objective(text)
    }

    /// The points by `objective`'s mean, best first; a mean that is NaN (nothing to rank) or the
    /// worst infinity last; ties, and every point when `objective` is nil, in study order.
    package func sweepOrder(_ objective: Objective?) -> [Int] {
        let key = { (p: Int) -> Double in
            guard let objective else { return .infinity }
            let m = self.scoped(objective.population)?.interval(self.names[p], objective.metric)?.mean ?? .nan
            return m.isNaN ? .infinity : (objective.maximize ? -m : m)
        }
        return names.indices.sorted { (key($0), $0) < (key($1), $1) }
    }
}
