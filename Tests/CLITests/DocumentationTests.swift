import Foundation
import Testing

/// The README documents what the program does: its key table is the program's own.
struct DocumentationTests {
    @Test("README's scenario key table is exactly `retrystorm keys`")
    func keyTable() throws {
        let readme = try CLI.read(CLI.packageRoot.appendingPathComponent("README.md"))
        let keys = try CLI.run(["keys"])
        #expect(keys.status == 0)
        #expect(readme.contains(keys.stdout), "README.md's key table is out of date: paste the output of `retrystorm keys`")
    }

    @Test("README quotes every committed results/*/table.txt exactly (its numbers come from `make results`)")
    func resultTables() throws {
        let readme = try CLI.read(CLI.packageRoot.appendingPathComponent("README.md"))
        for name in ["quickstart", "jitter-comparison", "tune-delays", "metastable", "mobile-fleet"] {
            let table = try CLI.read(CLI.packageRoot.appendingPathComponent("results/\(name)/table.txt"))
            #expect(readme.contains(table), "README.md does not show results/\(name)/table.txt: paste it after `make results`")
        }
    }

    @Test("README documents every summary.csv and timeseries.csv column")
    func columns() throws {
        let readme = try CLI.read(CLI.packageRoot.appendingPathComponent("README.md"))
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["run", CLI.fixture("tiny.yaml").path, "--out", dir.appendingPathComponent("o").path])
        #expect(r.status == 0)
        for file in ["summary.csv", "timeseries.csv"] {
            let header = try CLI.read(dir.appendingPathComponent("o/\(file)")).split(separator: "\n")[0]
            for column in header.split(separator: ",") {
                #expect(readme.contains("`\(column)`"), "\(file) column \(column) is not documented in README.md")
            }
        }
    }
}
