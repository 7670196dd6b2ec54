import GSLSupport
import RetryStormResults
import RetryStormVocabulary

/// The terminal table of `compare`, `sweep` and `tune`: points × key metrics, mean ± half the 95%
/// confidence interval (or the interval itself where the metric's range cuts it), marked with
/// `*` by the rule of ``BestMarks``, and footnotes that say where a mark is shared or withheld.
///
/// Every column is written by the report's ``ColumnFormat`` over all the points, with its unit on
/// the line under the label, so a value reads the same here as in report.html and the charts.
public enum StudyTable {
    /// (column label, metric); short labels, for a terminal.
    package static let columns: [(label: String, metric: Metric)] = [
        ("peak load", .peakLoadRatio),
        ("amplification", .amplification),
        ("tts p50", .ttsP50),
        ("tts p99", .ttsP99),
        ("gave up", .gaveUpFraction),
        ("unfinished", .unfinishedFraction),
        ("recovery", .recovery),
        ("stuck", .stuck),
        ("wasted", .wastedFraction)
    ]

    /// The columns shown for `order`'s points: unfinished only where one of them left operations
    /// unfinished at the horizon, as in the report's outcome table; recovery only where there is
    /// a trigger to recover from (it is `nan` at every point without one); stuck where it was
    /// judged and there is a trigger to be stuck after, or a point got stuck without one.
    package static func shown(_ metrics: MetricTable, order: [Int]) -> [(label: String, metric: Metric)] {
        func mean(_ p: Int, _ m: Metric) -> Double { metrics.interval(metrics.names[p], m)?.mean ?? .nan }
        let anyUnfinished = order.contains { mean($0, .unfinishedFraction) > 0 }
        let anyRecovery = order.contains { !mean($0, .recovery).isNaN }
        let anyStuck = order.contains { !mean($0, .stuck).isNaN } && (anyRecovery || order.contains { mean($0, .stuck) > 0 })
        return columns.filter {
            ($0.metric != .unfinishedFraction || anyUnfinished) && ($0.metric != .recovery || anyRecovery)
                && ($0.metric != .stuck || anyStuck)
        }
    }

    /// The label of `scoped`'s column: "v2: tts p99" for a population's metric with a short label,
    /// else the metric's column name after the population's.
    package static func label(_ scoped: ScopedMetric) -> String {
        let short = columns.first { $0.metric == scoped.metric }?.label ?? scoped.metric.name
        return scoped.population.map { "\($0): \(short)" } ?? short
    }

    /// `columns` for a call graph: the peak load is the focus's (the front door's says little where
    /// the storm lands downstream), followed by the focus's requests per user operation.
    static func focused(
        _ columns: [(label: String, metric: Metric, table: MetricTable)], _ metrics: MetricTable
    ) -> [(label: String, metric: Metric, table: MetricTable)] {
        guard let focus = metrics.focus, let table = metrics.services[focus.name],
            let i = columns.firstIndex(where: { $0.metric == .peakLoadRatio })
        else { return columns }
        var out = columns
        out[i] = (label: "\(focus.name): peak load", metric: .peakLoadRatio, table: table)
        out.insert((label: "\(focus.name): requests", metric: FocusService.load, table: table), at: i + 1)
        return out
    }

    /// "focus: db, where the storm lands (peak load 34.2× its capacity, in every-layer)": which
    /// service the table's load columns and verdicts look at, and why.
    package static func focusLine(_ focus: FocusService, names: [String]) -> String {
        let digits = focus.peakLoad >= 10 ? 0 : focus.peakLoad >= 1 ? 1 : 2
        let peak = focus.peakLoad.isNaN ? "" : "peak load \(Format.trimmed(Format.fixed(focus.peakLoad, digits)))× its capacity"
        let at = focus.peakPoint.map { names.count > 1 ? ", in \(names[$0])" : "" } ?? ""
        switch focus.choice {
        case .peakLoad:
            return "focus: \(focus.name), \(focus.why) (\(peak)\(at)); --focus NAME judges another service"
        case .named:
            return "focus: \(focus.name), \(focus.why) (focus:, --focus)" + (peak.isEmpty ? "" : "; \(peak)\(at)")
        }
    }

    /// - Parameter extra: a population's metric to show as a last column (a tune's objective
    ///   `populations.NAME.METRIC`), from that population's table and marked by its rule; ignored
    ///   for the fleet's metrics, which are columns already, and for a population the table lacks.
    package static func render(title: String, metrics: MetricTable, rows: [Int]? = nil, extra: ScopedMetric? = nil) -> String {
        let order = rows ?? Array(metrics.names.indices)
        var columns = focused(shown(metrics, order: order).map { (label: $0.label, metric: $0.metric, table: metrics) }, metrics)
        if let extra, let population = extra.population, let table = metrics.populations[population] {
            columns.append((label: label(extra), metric: extra.metric, table: table))
        }
        let marks = columns.map { BestMarks($0.table, metric: $0.metric, among: order) }
        let formats = columns.map { ColumnFormat(metric: $0.metric, table: $0.table) }
        var table = TextTable(
            header: [["variant"] + columns.map(\.label), [""] + formats.map { $0.unitSymbol.isEmpty ? "" : "(\($0.unitSymbol))" }],
            alignments: [.left] + columns.map { _ in .right })
        for p in order {
            let name = metrics.names[p]
            var row = [name]
            for (c, column) in columns.enumerated() {
                guard let ci = column.table.interval(name, column.metric) else {
                    row.append("–")
                    continue
                }
                // Unmarked cells keep the mark's room, so the column's digits stay aligned.
                let marked = marks[c].marked
                row.append(formats[c].cell(ci) + (marked.contains(p) ? " *" : marked.isEmpty ? "" : "  "))
            }
            table.rows.append(row)
        }
        var lines = [title]
        if let focus = metrics.focus { lines.append("  " + focusLine(focus, names: metrics.names)) }
        lines += table.lines()
        let never = columns.contains { c in order.contains { c.table.interval(metrics.names[$0], c.metric)?.mean == .infinity } }
        if never {
            lines.append("  never: an operation that gave up, was blocked or is unfinished never succeeded, so a pXX is never when fewer")
            lines.append("  than XX% of operations succeeded (summary.csv's tts_success_* columns count the successes only)")
        }
        let reps = order.compactMap { metrics.interval(metrics.names[$0], .operations)?.count }.min() ?? 0
        if reps > 1 {
            lines.append("  mean ± half-width of the 95% CI over \(reps) replications ([low, high] where a count, time or share cannot go")
            lines.append("  further); * choose this for that column: clearly better than another and no other clearly better than it")
            lines.append("  (paired 95% intervals apart and a difference over \(metrics.minimumDifference)), shared when")
            lines.append("  about the same, never to a point that loses clearly more operations (gave up + blocked + unfinished)")
            if let focus = metrics.focus {
                lines.append("  or puts clearly more requests per user operation on \(focus.name), the focus")
            }
            let losers = metrics.losingClearlyMore(among: order)
            if !losers.isEmpty {
                let who = BestMarks.list(losers, metrics.names)
                lines.append("  no * for \(who), which lose\(losers.count == 1 ? "s" : "") clearly more operations")
            }
            if let focus = metrics.focus {
                let loaders = metrics.loadingFocusClearlyMore(among: order)
                if !loaders.isEmpty {
                    lines.append("  no * for " + BestMarks.loadNote(loaders, metrics.names, focus: focus.name))
                }
            }
            for (c, m) in marks.enumerated() {
                let note = m.footnote(metricLabel: columns[c].label, names: metrics.names, losers: false)
                if !note.isEmpty { lines.append("  " + note) }
            }
        } else {
            lines.append("  one replication: no confidence interval and no best marks (use --replications to tell differences from noise)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
