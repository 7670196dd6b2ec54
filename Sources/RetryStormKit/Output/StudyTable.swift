import GSLSupport

/// The terminal table of `compare`, `sweep` and `tune`: points × key metrics, mean ± half the 95%
/// confidence interval, the best value of each column marked with `*`.
public enum StudyTable {
    /// (column title, metric, decimals). Lower is better for every one of them.
    static let columns: [(String, String, Int)] = [
        ("peak load ×", "peak_load_ratio", 2),
        ("amplification", "amplification", 2),
        ("tts p50 s", "tts_p50_s", 3),
        ("tts p99 s", "tts_p99_s", 2),
        ("gave up", "gave_up", 0),
        ("recovery s", "recovery_s", 1),
        ("wasted %", "wasted_fraction", 1),
    ]

    public static func render(title: String, metrics: MetricTable, rows: [Int]? = nil) -> String {
        let order = rows ?? Array(metrics.names.indices)
        var best: [String: Double] = [:]
        for (_, metric, _) in columns {
            let means = order.compactMap { metrics.interval(metrics.names[$0], metric)?.mean }.filter { !$0.isNaN }
            best[metric] = means.min()
        }
        var table: [[String]] = [["variant"] + columns.map(\.0)]
        for p in order {
            let name = metrics.names[p]
            var row = [name]
            for (_, metric, decimals) in columns {
                guard let ci = metrics.interval(name, metric) else { row.append("—"); continue }
                let scale = metric == "wasted_fraction" ? 100.0 : 1.0
                var text = number(ci.mean * scale, decimals)
                let half = (ci.high - ci.low) / 2 * scale
                if ci.count > 1 && half.isFinite && half > 0 { text += " ±" + number(half, decimals) }
                if let b = best[metric], ci.mean == b, order.count > 1 { text += " *" }
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
        let reps = metrics.cells.first?.interval.count ?? 0
        lines.append(reps > 1 ? "  mean ± half-width of the 95% CI over \(reps) replications; * best (lowest) in its column"
                              : "  one replication: no confidence interval (use --replications); * best (lowest) in its column")
        return lines.joined(separator: "\n") + "\n"
    }

    static func number(_ x: Double, _ decimals: Int) -> String {
        if x.isNaN { return "n/a" }
        if x.isInfinite { return "never" }
        return decimals == 0 ? Format.grouped(x) : Format.fixed(x, decimals)
    }
}
