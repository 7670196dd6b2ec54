import Foundation

/// The metrics as documentation: every metric with its unit, better direction, the files it is a
/// column of and its meaning, generated from the catalogue (``Metric/all``) so that
/// docs/outputs.md and `retrystorm metrics` cannot drift from what the program writes and judges.
package enum MetricReference {
    /// A Markdown table of every metric, in catalogue order (summary.csv's column order, then the
    /// derived ones).
    package static func markdown() -> String {
        var lines = ["| metric | unit | better | in | meaning |", "|---|---|---|---|---|"]
        for m in Metric.all {
            let files = m.derivation.map { "derived: \($0)" } ?? m.scopes.map { "`\($0.file)`" }.joined(separator: ", ")
            lines.append("| `\(m.name)` | \(escaped(m.unit)) | \(better(m.better)) | \(escaped(files)) | \(escaped(m.meaning)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func better(_ b: Metric.Better) -> String {
        switch b {
        case .lower: "lower"
        case .higher: "higher"
        case .neither: "—"
        }
    }

    static func escaped(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
