import Foundation
import TestSupport
import Testing

/// A call graph's focus end to end (issue 40): named in the terminal table, kept by the report
/// when it is drawn again from the directory, and refused (exit 2, nothing written) when it names
/// no service.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct FocusTests {
    @Test("the table names the focus and draws its load columns; --focus chooses another; report keeps it")
    func named() throws {
        let dir = try CLI.temporaryDirectory()
        let fixture = CLI.fixture("tiny-services.yaml").path
        let byDefault = try CLI.run(["compare", fixture, "--replications", "2", "--out", "a"], in: dir)
        #expect(byDefault.status == 0, "\(byDefault.stderr)")
        // api's peak (3.5× in small-db) is the highest of the three services' (db: 2.1×).
        #expect(byDefault.stdout.contains("  focus: api, where the storm lands (peak load 3.5× its capacity, in small-db)"), "\(byDefault.stdout)")
        let chosen = try CLI.run(["compare", fixture, "--replications", "2", "--out", "b", "--focus", "db"], in: dir)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        let table = try CLI.read(dir.appendingPathComponent("b/table.txt"))
        #expect(table.contains("  focus: db, as chosen (focus:, --focus)") && table.contains("db: peak load") && table.contains("db: requests"))
        #expect(try CLI.read(dir.appendingPathComponent("b/command.txt")).contains("--focus db"))
        let again = try CLI.run(["report", dir.appendingPathComponent("b").path])
        #expect(again.status == 0, "\(again.stderr)")
        let html = try CLI.read(dir.appendingPathComponent("b/report.html"))
        #expect(html.contains("The focus is db, as chosen.") && html.contains("Peak load at db"))
    }

    @Test("--focus that names no service is exit 2 before anything runs, with the services and a suggestion")
    func refused() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["compare", CLI.fixture("tiny-services.yaml").path, "--out", "o", "--focus", "dbb"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(
            r.stderr == "retrystorm: error: --focus dbb: field 'focus': names no service ('dbb'; services: api, cache, db). Did you mean 'db'?\n",
            "\(r.stderr)")
        #expect(CLI.entries(dir).isEmpty, "nothing written")
        let oneHop = try CLI.run(["run", CLI.fixture("tiny.yaml").path, "--out", "o", "--focus", "db"], in: dir)
        #expect(oneHop.status == 2 && oneHop.stderr.contains("names a service of a call graph, and this scenario has no services:"))
    }
}
