/// The share of operations lost, the one definition the best marks and the report's "lost" column use.
extension MetricTable {
    /// At point `name`, replication by replication, the share of operations that did not succeed
    /// (``Metric/lostFraction``): gave up, blocked, or still unfinished at the horizon — an
    /// operation a breaker keeps waiting until the run ends is as lost as one that gave up.
    /// Nil for an unknown point.
    /// In a service's table, the users' (see ``usersLost``).
    package func lostShares(_ name: String) -> (values: [Double], replications: [Int])? {
        if let usersLost { return pointIndex[name].flatMap { usersLost[$0] } }
        guard let g = cell(name, .gaveUpFraction), let b = cell(name, .blockedFraction), let u = cell(name, .unfinishedFraction)
        else { return nil }
        return (zip(zip(g.values, b.values), u.values).map { $0.0 + $0.1 + $1 }, g.replications)
    }
}
