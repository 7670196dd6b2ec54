/// The scenario format as documentation: every key with its type, default and meaning, generated
/// from the schema so docs/scenario-reference.md and `retrystorm keys` cannot drift from the parser.
package enum ScenarioReference {
    /// A Markdown table of every key.
    package static func markdown() -> String {
        var lines = ["| key | type | default | meaning |", "|---|---|---|---|"]
        for f in ScenarioSchema.fields {
            let def = f.defaultText.isEmpty ? "—" : "`\(f.defaultText)`"
            let doc = f.doc.replacingOccurrences(of: "|", with: "\\|")
            lines.append("| `\(f.path)` | \(f.kind.summary.replacingOccurrences(of: "|", with: "\\|")) | \(def) | \(doc) |")
        }
        for row in ScenarioSchema.populationReference + ScenarioSchema.serviceReference {
            let def = row.defaultText.isEmpty ? "—" : "`\(row.defaultText)`"
            lines.append(
                "| `\(row.path)` | \(row.kind.replacingOccurrences(of: "|", with: "\\|")) | \(def) | \(row.doc.replacingOccurrences(of: "|", with: "\\|")) |"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every dotted key path.
    package static var paths: [String] { ScenarioSchema.fields.map(\.path) }
}
