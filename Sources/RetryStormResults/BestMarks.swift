/// Which points are marked best on a metric: the one rule behind the `*` of tables, the ★ of
/// charts and the report's findings.
///
/// 1. Only metrics with a direction are marked (``Metric/better``), and only with two or more
///    replications: a single run cannot tell a difference from noise.
/// 2. On a time to success or to recovery (``Metric/rewardsGivingUp``), a point that loses
///    clearly more operations than the point that loses fewest — gave up + blocked, as a share of
///    its operations, the paired difference's 95% interval entirely above 0 — cannot be best:
///    giving up early makes the operations that remain look fast.
/// 3. Among the rest, the leader has the best mean. Every point whose paired difference from the
///    leader holds 0 is tied with it: the mark is shared among them. If every eligible point ties,
///    no mark is given (the differences are all within noise).
public struct BestMarks: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        /// One point is best, clearly.
        case single
        /// Several points share the mark: their differences from the leader are within noise.
        case shared
        /// No mark: every eligible point is within noise of the leader.
        case withheld
        /// No mark: one replication, or a metric with no better direction.
        case none
    }

    /// The marked points (indices into the table's names).
    public var marked: Set<Int>
    /// Points left out of a time metric's mark because they lose clearly more operations.
    public var losesMore: Set<Int>
    public var verdict: Verdict

    /// The marks of `metric` among `points` of `table`.
    public init(_ table: MetricTable, metric: Metric, among points: [Int]) {
        marked = []
        losesMore = []
        verdict = .none
        let names = points.map { table.names[$0] }
        let replications = names.compactMap { table.interval($0, metric)?.count }.min() ?? 0
        guard metric.better != .neither, points.count > 1, replications > 1 else { return }
        var eligible = points
        if metric.rewardsGivingUp {
            losesMore = Set(Self.losingMore(table, among: points))
            eligible.removeAll { losesMore.contains($0) }
        }
        let sign: Double = metric.better == .lower ? 1 : -1
        let ranked = eligible.compactMap { p -> (Int, Double)? in
            guard let m = table.interval(table.names[p], metric)?.mean, !m.isNaN else { return nil }
            return (p, sign * m)
        }
        guard let leader = ranked.min(by: { $0.1 < $1.1 }), leader.1.isFinite || ranked.count == 1 else { return }
        var ties: Set<Int> = [leader.0]
        for (p, _) in ranked where p != leader.0 {
            let d = table.difference(table.names[p], minus: table.names[leader.0], metric)
            if d?.indistinguishable ?? true { ties.insert(p) }
        }
        if ties.count == ranked.count && ranked.count > 1 {
            verdict = .withheld
        } else {
            marked = ties
            verdict = ties.count == 1 ? .single : .shared
        }
    }

    /// The points whose lost share (``Metric/lostFraction``: gave up + blocked + unfinished over
    /// operations) is clearly above that of the point that loses fewest.
    package static func losingMore(_ table: MetricTable, among points: [Int]) -> [Int] {
        let shares = points.compactMap { p in table.lostShares(table.names[p]).map { (p, $0) } }
        guard let fewest = shares.min(by: { mean($0.1.values) < mean($1.1.values) }) else { return [] }
        return shares.filter { p, l in
            p != fewest.0
                && PairedDifference(
                    l.values, replications: l.replications,
                    minus: fewest.1.values, replications: fewest.1.replications
                ).clearlyAbove
        }.map(\.0)
    }

    static func mean(_ xs: [Double]) -> Double {
        let finite = xs.filter { !$0.isNaN }
        return finite.isEmpty ? .infinity : finite.reduce(0, +) / Double(finite.count)
    }

    /// The footnote that explains this verdict in a table ("" when nothing needs saying).
    public func footnote(metricLabel: String, names: [String]) -> String {
        let notes = notes(names: names)
        return notes.isEmpty ? "" : "\(metricLabel): " + notes.joined(separator: "; ")
    }

    /// What needs saying about this verdict, without the metric: where the mark is shared or
    /// withheld, and which points cannot have it because they lose clearly more operations.
    public func notes(names: [String]) -> [String] {
        var notes: [String] = []
        switch verdict {
        case .shared: notes.append("* shared, differences within noise (paired 95% intervals hold 0)")
        case .withheld: notes.append("no * — every difference is within noise")
        case .single, .none: break
        }
        if !losesMore.isEmpty {
            let all = losesMore.sorted().map { names[$0] }
            let who = all.prefix(3).joined(separator: ", ") + (all.count > 3 ? " and \(all.count - 3) more" : "")
            notes.append("not for \(who), which lose\(losesMore.count == 1 ? "s" : "") clearly more operations")
        }
        return notes
    }
}
