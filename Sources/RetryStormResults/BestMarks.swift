/// Which points are marked on a metric: a mark means "choose this for that column". The one rule
/// behind the `*` of tables, the ★ and captions of charts, and the findings' superlatives.
///
/// "Clearly" is ``MetricTable/compare(_:_:on:)``: the paired 95% interval excludes 0 and the
/// difference exceeds the minimum that matters (``MinimumDifference``: 1% relative, 0.1 points for
/// shares, by default). A point is marked on a metric when all three hold:
/// 1. on every column but the lost share itself (``Metric/isLostShare``), it does not lose clearly
///    more operations than another point: giving up early makes the survivors look fast and sends
///    fewer retries, and a breaker that keeps operations waiting gives up on none, so neither its
///    times, its spike nor its give-ups are a reason to choose it; and in a call graph, on every
///    column but the focus's load itself (``MetricTable/isFocusLoad(_:)``), it does not put clearly
///    more requests per user operation on the focus (``FocusService``) than another point: the
///    same rule, for retries that buy a user outcome with the database's load;
/// 2. no point — marked or not, losing or not — is clearly better on the metric;
/// 3. it is clearly better than at least one point: nothing is best by default, not even the one
///    point left when the others lose more.
///
/// Only metrics with a direction (``Metric/better``) are marked, and only with two or more
/// replications: a single run cannot tell a difference from noise.
package struct BestMarks: Sendable, Equatable {
    package enum Verdict: Sendable, Hashable {
        /// One point is marked.
        case single
        /// Several points share the mark: none is clearly better than another.
        case shared
        /// No mark: no point passes the three tests (``Withheld`` says why).
        case withheld
        /// No mark possible: one replication, one point, or a metric with no better direction.
        case none
    }

    /// Why no point is marked.
    package enum Withheld: Sendable, Equatable {
        /// Every pair of points is about the same.
        case aboutTheSame
        /// A point that loses clearly more operations is clearly ahead on the metric: the points
        /// that could be chosen are clearly behind it.
        case aheadLosesMore
        /// The points clearly ahead put clearly more load on the focus (and lose no more).
        case aheadLoadsMore
        /// Some differences are clear, but no point is clearly ahead without another clearly
        /// ahead of it (paired intervals need not be transitive).
        case noClearLeader
    }

    /// The marked points (indices into the table's names).
    package var marked: Set<Int>
    /// Points barred from the mark because they lose clearly more operations (empty on the lost share).
    package var losesMore: Set<Int>
    /// Points barred from the mark because they put clearly more load on the focus of a call
    /// graph (empty without one, and on the focus's load itself).
    package var loadsMore: Set<Int>
    /// The focus's name, for the notes (nil without a focus).
    package var focus: String?
    /// Points that pass tests 2 and 3 but lose clearly more operations or load the focus clearly
    /// more: what would be marked if neither counted.
    package var barred: Set<Int>
    /// Points clearly behind a marked point.
    package var behind: Set<Int>
    /// For each point, the points it is clearly better than (absent: none).
    package var clearlyAhead: [Int: Set<Int>]
    /// Points neither marked nor clearly behind a marked point: about the same as a mark (or, when
    /// nothing is marked, every point).
    package var aboutTheSame: Set<Int>
    package var verdict: Verdict
    /// Set when the verdict is ``Verdict/withheld``.
    package var withheld: Withheld?
    /// The minimum difference the verdict used.
    package var minimum: MinimumDifference

    /// The marks of `metric` among `points` of `table`, with the table's minimum difference.
    package init(_ table: MetricTable, metric: Metric, among points: [Int]) {
        marked = []
        losesMore = []
        loadsMore = []
        focus = table.focus?.name
        barred = []
        behind = []
        clearlyAhead = [:]
        aboutTheSame = []
        verdict = .none
        minimum = table.minimumDifference
        let names = points.map { table.names[$0] }
        let replications = names.compactMap { table.interval($0, metric)?.count }.min() ?? 0
        guard metric.better != .neither, points.count > 1, replications > 1 else { return }
        if !metric.isLostShare { losesMore = table.losingClearlyMore(among: points) }
        if !table.isFocusLoad(metric) { loadsMore = table.loadingFocusClearlyMore(among: points) }
        let bars = losesMore.union(loadsMore)
        // beats[i] holds the points that point i is clearly better than.
        var beats: [Int: Set<Int>] = [:]
        for p in points {
            for q in points where p != q && table.compare(p, q, on: metric) == .clearlyBetter {
                beats[p, default: []].insert(q)
            }
        }
        clearlyAhead = beats
        let beaten = Set(beats.values.flatMap { $0 })
        let candidates = points.filter { !beaten.contains($0) && !(beats[$0] ?? []).isEmpty }
        marked = Set(candidates.filter { !bars.contains($0) })
        barred = Set(candidates.filter(bars.contains))
        behind = Set(marked.flatMap { beats[$0] ?? [] })
        aboutTheSame = Set(points.filter { !marked.contains($0) && !behind.contains($0) })
        switch marked.count {
        case 0:
            verdict = .withheld
            withheld =
                beats.isEmpty
                ? .aboutTheSame : barred.isEmpty ? .noClearLeader : barred.isSubset(of: losesMore) ? .aheadLosesMore : .aheadLoadsMore
        case 1: verdict = .single
        default: verdict = .shared
        }
    }

    /// The footnote that explains this verdict in a table ("" when nothing needs saying).
    package func footnote(metricLabel: String, names: [String], losers: Bool = true) -> String {
        let notes = notes(names: names, losers: losers)
        return notes.isEmpty ? "" : "\(metricLabel): " + notes.joined(separator: "; ")
    }

    /// What needs saying about this verdict, without the metric: where the mark is shared, about
    /// the same as others or withheld, and which points cannot have it because they lose clearly
    /// more operations (unless `losers` is false: a table that says it once for every column).
    package func notes(names: [String], losers: Bool = true) -> [String] {
        var notes: [String] = []
        switch verdict {
        case .shared: notes.append("* shared, about the same as each other")
        case .single:
            if !aboutTheSame.isEmpty { notes.append("about the same as the *: \(Self.list(aboutTheSame, names))") }
        case .withheld:
            switch withheld {
            case .aboutTheSame?: notes.append("no * — every difference is within noise or under the minimum (about the same)")
            case .aheadLosesMore?: notes.append("no * — the points clearly ahead lose clearly more operations")
            case .aheadLoadsMore?: notes.append("no * — the points clearly ahead put clearly more load on \(focus ?? "the focus")")
            case .noClearLeader?, nil: notes.append("no * — no point is clearly ahead of every other")
            }
        case .none: break
        }
        if losers && !losesMore.isEmpty {
            notes.append(
                "not for \(Self.list(losesMore, names)), which lose\(losesMore.count == 1 ? "s" : "") clearly more operations")
        }
        if losers, let focus, !loadsMore.isEmpty {
            notes.append("not for " + Self.loadNote(loadsMore, names, focus: focus))
        }
        return notes
    }

    /// "a and b, which put clearly more requests per user operation on db": why points that load
    /// the focus clearly more have no mark.
    package static func loadNote(_ points: Set<Int>, _ names: [String], focus: String) -> String {
        "\(list(points, names)), which put\(points.count == 1 ? "s" : "") clearly more requests per user operation on \(focus)"
    }

    /// "a", "a and b", "a, b and c", "a, b, c and 2 more": points in index order.
    package static func list(_ points: Set<Int>, _ names: [String]) -> String {
        list(points.sorted().map { names[$0] })
    }

    /// "a", "a and b", "a, b and c", "a, b, c and 2 more": the names as a mark's note lists them.
    package static func list(_ items: [String]) -> String {
        if items.count > 4 { return items.prefix(3).joined(separator: ", ") + " and \(items.count - 3) more" }
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }
}
