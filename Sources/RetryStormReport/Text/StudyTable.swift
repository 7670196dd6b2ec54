import RetryStormResults
import RetryStormScenario
import Foundation
import GSLSupport

/// The terminal table of `compare`, `sweep` and `tune`: points × key metrics, mean ± half the 95%
/// confidence interval (or the interval itself where the metric's range cuts it), best marked with
/// `*` by the rule of ``BestMarks``, and footnotes that say where a mark is shared or withheld.
public enum StudyTable {
    /// (column title, metric, decimals, scale).
    package static let columns: [(String, String, Int, Double)] = [
        ("peak load ×", "peak_load_ratio", 2, 1),
        ("amplification", "amplification", 2, 1),
        ("tts p50 s", "tts_p50_s", 3, 1),
        ("tts p99 s", "tts_p99_s", 2, 1),
        ("gave up %", "gave_up_fraction", 1, 100),
        ("recovery s", "recovery_s", 1, 1),
        ("wasted %", "wasted_fraction", 1, 100),
    ]

    public static func render(title: String, metrics: MetricTable, rows: [Int]? = nil) -> String {
        let order = rows ?? Array(metrics.names.indices)
        let marks = columns.map { BestMarks(metrics, metric: $0.1, among: order) }
        let decimals = columns.map { column in
            Self.decimals(column.2, for: order.compactMap { metrics.interval(metrics.names[$0], column.1)?.mean }.map { $0 * column.3 })
        }
        var table: [[String]] = [["variant"] + columns.map(\.0)]
        for p in order {
            let name = metrics.names[p]
            var row = [name]
            for (c, (_, metric, _, scale)) in columns.enumerated() {
                guard let ci = metrics.interval(name, metric) else { row.append("—"); continue }
                var text = cell(ci, decimals: decimals[c], scale: scale)
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

    /// A column's decimals: at least `base`, and enough (up to 4) for its smallest non-zero value to
    /// show two significant digits, so 0.007% does not print as a misleading 0.0.
    static func decimals(_ base: Int, for values: [Double]) -> Int {
        guard let smallest = values.filter({ $0.isFinite && $0 != 0 }).map(abs).min() else { return base }
        return max(base, min(4, Int((-log10(smallest)).rounded(.up)) + 1))
    }

    /// A cell: the mean, with ± half the interval when it is symmetric, else the interval.
    static func cell(_ ci: ConfidenceInterval, decimals: Int, scale: Double) -> String {
        var text = number(ci.mean * scale, decimals)
        guard ci.count > 1, ci.mean.isFinite, ci.high > ci.low else { return text }
        let up = (ci.high - ci.mean) * scale, down = (ci.mean - ci.low) * scale
        if number(up, decimals) == number(down, decimals) {
            text += " ±" + number(up, decimals)
        } else {
            text += " [" + number(ci.low * scale, decimals) + ", " + number(ci.high * scale, decimals) + "]"
        }
        return text
    }

    static func number(_ x: Double, _ decimals: Int) -> String {
        if x.isNaN { return "n/a" }
        if x.isInfinite { return x > 0 ? "never" : "-never" }
        return decimals == 0 ? Format.grouped(x) : Format.fixed(x, decimals)
    }
}
