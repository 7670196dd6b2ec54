import RetryStormResults
import RetryStormScenario
import GSLSupport

/// The terminal table of `compare`, `sweep` and `tune`: points × key metrics, mean ± half the 95%
/// confidence interval (or the interval itself where the metric's range cuts it), best marked with
/// `*` by the rule of ``BestMarks``, and footnotes that say where a mark is shared or withheld.
/// Every column is written in its ``ColumnFormat`` over all points of the table — the unit in the
/// header, the same digits as the HTML report.
public enum StudyTable {
    /// (column title without its unit, metric).
    package static let columns: [(String, String)] = [
        ("peak load", "peak_load_ratio"),
        ("amplification", "amplification"),
        ("tts p50", "tts_p50_s"),
        ("tts p99", "tts_p99_s"),
        ("gave up", "gave_up_fraction"),
        ("recovery", "recovery_s"),
        ("wasted", "wasted_fraction"),
    ]

    /// The table of `rows` (indices into `metrics.names`; every point when nil), in that order.
    public static func render(title: String, metrics: MetricTable, rows: [Int]? = nil) -> String {
        let order = rows ?? Array(metrics.names.indices)
        let marks = columns.map { BestMarks(metrics, metric: $0.1, among: order) }
        let formats = columns.map { column in
            ColumnFormat(metric: column.1, values: metrics.names.compactMap { metrics.interval($0, column.1) })
        }
        var table: [[String]] = [["variant"] + zip(columns, formats).map { c, f in
            f.unitSymbol.isEmpty || f.info.kind == .ratio && f.unitSymbol != "×" ? c.0 : "\(c.0) \(f.unitSymbol)"
        }]
        for p in order {
            let name = metrics.names[p]
            var row = [name]
            for (c, (_, metric)) in columns.enumerated() {
                guard let ci = metrics.interval(name, metric) else { row.append("—"); continue }
                var text = formats[c].cell(ci)
                if marks[c].marked.contains(p) { text += " *" }
                row.append(text)
            }
            table.append(row)
        }
        let widths = (0..<table[0].count).map { c in table.map { $0[c].count }.max() ?? 0 }
        var lines = [title]
        for (i, row) in table.enumerated() {
            let cells = row.enumerated().map { c, cell in c == 0 ? cell.padding(widths[c]) : String(repeating: " ", count: widths[c] - cell.count) + cell }
            lines.append("  " + cells.joined(separator: "  "))
            if i == 0 { lines.append("  " + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
        let reps = order.compactMap { metrics.interval(metrics.names[$0], "operations")?.count }.min() ?? 0
        if reps > 1 {
            lines.append("  mean ± half-width of the 95% CI over \(reps) replications ([low, high] where a count, time or share cannot go")
            lines.append("  further); * best in its column: clearly better than the rest by paired differences, shared when within noise,")
            lines.append("  never to a point that loses clearly more operations on a time")
            for (c, m) in marks.enumerated() {
                let note = m.footnote(metricLabel: columns[c].0, names: metrics.names)
                if !note.isEmpty { lines.append("  " + note) }
            }
        } else {
            lines.append("  one replication: no confidence interval and no best marks (use --replications to tell differences from noise)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
