import Foundation
import TestSupport
import Testing

/// `retrystorm explain`: the laws' text and JSON for a file, a variant, overrides, and bad input
/// refused with status 2 and one line.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ExplainTests {
    @Test("explain experiments/metastable.yaml --json: every field the issue names, the sustain law's 142.8/s, and a tip")
    func json() throws {
        let r = try CLI.run(["explain", "experiments/metastable.yaml", "--json"], in: CLI.packageRoot)
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let services = try #require(object["services"] as? [[String: Any]])
        let server = try #require(services.first)
        #expect(server["name"] as? String == "server")
        let sustain = try #require(server["sustain"] as? [String: Any])
        // Past n* = 854.1 it serves as little as 714.2/s at its full queue, 5 attempts each:
        // 142.8/s (ExplainAgreementTests.sustainBoundary).
        #expect(abs((sustain["max_first_attempt_load_per_s"] as? Double ?? 0) - 142.84) < 0.01)
        #expect(abs((sustain["critical_backlog"] as? Double ?? 0) - 854.10) < 0.01)
        let trigger = try #require(server["trigger"] as? [String: Any])
        #expect(trigger["tips"] as? Bool == true)
        // The simulator tips between 3.4 s (0 of 4) and 3.9 s (7 of 8): `retrystorm map
        // experiments/metastable.yaml --grid server.brownout.duration=3.4s,3.9s --replications 4`.
        let critical = try #require(trigger["critical_duration_s"] as? Double)
        #expect(critical > 3.4 && critical < 3.9)
        #expect(trigger.keys.contains("drain_time_s"))
        let collapse = try #require(server["collapse"] as? [String: Any])
        #expect(collapse.keys.contains("mean_time_s"))
        let budget = try #require(object["budget"] as? [String: Any])
        #expect(budget.keys.contains("drain_failure_rate"))
        #expect(budget["kind"] as? String == "unlimited")
    }

    @Test("a variant and --set: the retry budget's variant cannot be sustained, and a lower load does not tip")
    func variantsAndOverrides() throws {
        let budget = try CLI.run(["explain", "experiments/metastable.yaml", "--variant", "retry-budget"], in: CLI.packageRoot)
        #expect(budget.status == 0, "\(budget.stderr)")
        #expect(budget.stdout.contains("at 210/s it cannot"), "\(budget.stdout)")
        #expect(budget.stdout.contains("budget: ratio, drains when more than"), "\(budget.stdout)")
        let low = try CLI.run(["explain", "experiments/metastable.yaml", "--set", "clients.rate=0.02/s"], in: CLI.packageRoot)
        #expect(low.status == 0)
        #expect(low.stdout.contains("this one does not tip it"), "\(low.stdout)")
        let graph = try CLI.run(["explain", "experiments/call-graph.yaml"], in: CLI.packageRoot)
        #expect(graph.status == 0)
        #expect(graph.stdout.contains("no laws: a call graph"), "\(graph.stdout)")
    }

    @Test("bad input: an unknown variant or key is status 2 with one line")
    func refusals() throws {
        let variant = try CLI.run(["explain", "experiments/metastable.yaml", "--variant", "nope"], in: CLI.packageRoot)
        #expect(variant.status == 2)
        #expect(variant.stderr.split(separator: "\n").count == 1)
        #expect(variant.stderr.contains("no such variant"), "\(variant.stderr)")
        let key = try CLI.run(["explain", "experiments/metastable.yaml", "--set", "clients.rat=1/s"], in: CLI.packageRoot)
        #expect(key.status == 2)
        #expect(key.stderr.split(separator: "\n").count == 1, "\(key.stderr)")
    }
}

/// The report puts the laws beside the runs, and `retrystorm report DIR` draws the same page.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ExplainReportTests {
    @Test("compare experiments/metastable.yaml: the laws say no-backoff tips where its runs are stuck, and name why they do not hold for the breaker")
    func lawsBesideRuns() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("o").path
        let r = try CLI.run(
            [
                "compare", CLI.packageRoot.appendingPathComponent("experiments/metastable.yaml").path, "--replications", "2", "--out", out,
                "--progress", "none"
            ],
            in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        // The terminal: the verdict under the table, per variant with a trigger.
        #expect(r.stdout.contains("no-backoff: explain: tips: 210/s of first attempts is above the 142.8/s"), "\(r.stdout)")
        #expect(r.stdout.contains("circuit-breaker: explain: no verdict (a circuit breaker)"))
        let page = try CLI.read(URL(fileURLWithPath: out).appendingPathComponent("report.html"))
        #expect(page.contains("<h2>The laws beside the runs</h2>"))
        #expect(page.contains("<th scope=\"row\">no-backoff</th><td>tips: 210/s of first attempts"))
        // Both replications of no-backoff are stuck: 100% in the runs' column.
        #expect(page.contains("(tips after 3.638 s)</td><td>100<span class=\"ci\">"), "\(page)")
        let again = try CLI.run(["report", out], in: dir)
        #expect(again.status == 0)
        #expect(try CLI.read(URL(fileURLWithPath: out).appendingPathComponent("report.html")) == page)
    }
}
