import Foundation
import TestSupport
import Testing

/// The docs describe what the program does: their key and metric tables are the program's own,
/// their result tables are the committed results, every column is documented, and every link resolves.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct DocumentationTests {
    /// README.md, CONTRIBUTING.md, CHANGELOG.md and every docs/*.md, by path from the package root.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"] + docs
    }

    static func text(_ path: String) throws -> String { try CLI.read(CLI.packageRoot.appendingPathComponent(path)) }

    @Test(
        "docs/scenario-reference.md's key table is exactly `retrystorm keys`, docs/outputs.md's metric table `retrystorm metrics`",
        arguments: [("keys", "docs/scenario-reference.md"), ("metrics", "docs/outputs.md")])
    func generatedTable(command: String, document: String) throws {
        let doc = try Self.text(document)
        let table = try CLI.run([command])
        #expect(table.status == 0)
        #expect(doc.contains(table.stdout), "\(document)'s table is out of date: paste the output of `retrystorm \(command)`")
    }

    @Test("every committed results/*/table.txt quoted in the docs is quoted exactly (its numbers come from `make results`)")
    func resultTables() throws {
        let all = try Self.documents().map(Self.text).joined(separator: "\n")
        // Each table's first line names the study; a doc that quotes it must quote all of it.
        let quoted = [
            "quickstart", "jitter-comparison", "tune-delays", "metastable", "mobile-fleet", "load-spike", "checkout", "aws-2026-defaults",
            "osdi22-retry", "recovery-load"
        ]
        for name in quoted {
            let table = try CLI.read(CLI.packageRoot.appendingPathComponent("results/\(name)/table.txt"))
            #expect(all.contains(table), "the docs do not show results/\(name)/table.txt as committed: paste it after `make results`")
        }
        let readme = try Self.text("README.md")
        for name in ["quickstart", "jitter-comparison", "tune-delays"] {
            let table = try CLI.read(CLI.packageRoot.appendingPathComponent("results/\(name)/table.txt"))
            #expect(readme.contains(table), "README.md does not show results/\(name)/table.txt as committed")
        }
    }

    @Test("docs/outputs.md documents every summary.csv and timeseries.csv column")
    func columns() throws {
        let doc = try Self.text("docs/outputs.md")
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["run", CLI.fixture("tiny.yaml").path, "--out", dir.appendingPathComponent("o").path])
        #expect(r.status == 0)
        for file in ["summary.csv", "timeseries.csv"] {
            let header = try CLI.read(dir.appendingPathComponent("o/\(file)")).split(separator: "\n")[0]
            for column in header.split(separator: ",") {
                #expect(doc.contains("`\(column)`"), "\(file) column \(column) is not documented in docs/outputs.md")
            }
        }
    }

    @Test("every metric column summary.csv and populations.csv write is one row of `retrystorm metrics` that names the file")
    func metricColumns() throws {
        let rows = try CLI.run(["metrics"]).stdout.split(separator: "\n")
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["run", CLI.fixture("tiny-populations.yaml").path, "--out", dir.appendingPathComponent("o").path])
        #expect(r.status == 0)
        for (file, keys) in [
            ("summary.csv", ["variant", "replication", "seed", "clients"]),
            ("populations.csv", ["variant", "replication", "population", "clients"])
        ] {
            let header = try CLI.read(dir.appendingPathComponent("o/\(file)")).split(separator: "\n")[0].split(separator: ",").map(String.init)
            #expect(Array(header.prefix(keys.count)) == keys)
            for column in header.dropFirst(keys.count) {
                let declared = rows.filter { $0.hasPrefix("| `\(column)` |") }
                #expect(declared.count == 1, "\(file) column \(column): \(declared.count) rows in `retrystorm metrics`")
                #expect(declared.first?.contains("`\(file)`") == true, "\(file) column \(column): its row does not name \(file)")
            }
        }
    }

    @Test("README is a five-minute read: at most 300 lines, and its quick start is `make demo` and `make test`")
    func readmeBudget() throws {
        let readme = try Self.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 300, "README.md has \(lines) lines; move detail to docs/")
        #expect(readme.contains("## Quick start\n\n```\nmake demo\nmake test\n```\n"))
    }

    @Test("every relative link and image in the docs names a file that exists, and every #anchor a heading there")
    func links() throws {
        let root = CLI.packageRoot
        for document in try Self.documents() {
            let text = try Self.text(document)
            let base = URL(fileURLWithPath: document).deletingLastPathComponent().relativePath
            for target in Self.linkTargets(Self.prose(text)) where !target.contains("://") && !target.hasPrefix("mailto:") {
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0])
                let anchor = parts.count > 1 ? String(parts[1]) : nil
                let path = file.isEmpty ? document : (base == "." ? file : "\(base)/\(file)")
                let url = root.appendingPathComponent(path).standardized
                #expect(FileManager.default.fileExists(atPath: url.path), "\(document): link to \(target): no such file")
                if let anchor, url.pathExtension == "md", let linked = try? CLI.read(url) {
                    #expect(Self.anchors(linked).contains(anchor), "\(document): link to \(target): no heading with that anchor")
                }
            }
        }
    }

    /// The text outside fenced code blocks.
    static func prose(_ text: String) -> String {
        var inFence = false
        var kept: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if !inFence { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    /// The targets of `[label](target)` and `![alt](target)`.
    static func linkTargets(_ text: String) -> [String] {
        var targets: [String] = []
        var rest = Substring(text)
        while let close = rest.range(of: "](") {
            let after = rest[close.upperBound...]
            guard let end = after.firstIndex(where: { $0 == ")" || $0 == " " }) else { break }
            targets.append(String(after[..<end]))
            rest = after[end...]
        }
        return targets
    }

    /// GitHub's anchors for a Markdown file's headings: lowercased, punctuation but `-` and `_`
    /// dropped, spaces as `-`.
    static func anchors(_ text: String) -> Set<String> {
        var result: Set<String> = []
        for line in prose(text).split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces).lowercased()
            let kept = title.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " " }
            result.insert(String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-"))
        }
        return result
    }
}
