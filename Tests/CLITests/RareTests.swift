import Foundation
import TestSupport
import Testing

/// `retrystorm rare`: rare.json with the fields the issue names, the same file from the same
/// seed, and what it refuses (status 2, one line naming the key).
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct RareTests {
    /// experiments/rare-collapse.yaml: the M/M/1 queue at 50% load, whose mean time from empty to
    /// a backlog of 30 is 4.29 × 10^7 s (the file's comment; SplittingTests checks the closed
    /// form over nine orders of magnitude). The estimate lies inside its own interval, in seconds.
    @Test("rare --event collapse writes rare.json: event, estimate, low, high, method, levels, events_simulated; byte-identical from the same seed")
    func collapse() throws {
        let dir = try CLI.temporaryDirectory()
        let first = dir.appendingPathComponent("first").path
        let r = try CLI.run(["rare", "experiments/rare-collapse.yaml", "--event", "collapse", "--out", first, "--effort", "100"], in: CLI.packageRoot)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("mean time to collapse (backlog 30 = capacity × timeout)"), "\(r.stdout)")
        let text = try String(contentsOfFile: first + "/rare.json", encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "collapse")
        #expect(object["unit"] as? String == "s")
        let estimate = try #require(object["estimate"] as? Double)
        let low = try #require(object["low"] as? Double)
        #expect(low > 0 && low <= estimate)
        if let high = object["high"] as? Double { #expect(estimate <= high) }
        #expect((object["method"] as? String)?.contains("multilevel splitting") == true)
        let levels = try #require(object["levels"] as? [[String: Any]])
        #expect(levels.last?["backlog"] as? Int == 30)
        #expect((object["events_simulated"] as? Int ?? 0) > 0)
        #expect(object["threshold_backlog"] as? Int == 30)
        // The regenerative cycle of the M/M/1 queue (λ = 50/s, μ = 100/s), idle plus busy:
        // 1/λ + 1/(μ − λ) = 0.04 s exactly; one attempt, so timeouts leave the queue as it is.
        // The first stage averages tens of thousands of cycles: within 5%.
        let cycle = try #require(object["cycle_s"] as? Double)
        #expect(abs(cycle - 0.04) < 0.002, "cycle_s \(cycle)")
        #expect(levels.allSatisfy { $0["time_s"] == nil })
        let again = dir.appendingPathComponent("again").path
        let s = try CLI.run(["rare", "experiments/rare-collapse.yaml", "--event", "collapse", "--out", again, "--effort", "100"], in: CLI.packageRoot)
        #expect(s.status == 0)
        #expect(try String(contentsOfFile: again + "/rare.json", encoding: .utf8) == text)
    }

    @Test("rare refuses with status 2 and one line: no trigger for stuck, a call graph, a bad --effort, an existing --out")
    func refusals() throws {
        let out = try CLI.temporaryDirectory().appendingPathComponent("x").path
        func refused(_ args: [String], _ words: String) throws {
            let r = try CLI.run(["rare"] + args + ["--out", out], in: CLI.packageRoot)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.contains(words), "\(r.stderr)")
        }
        try refused(["experiments/rare-collapse.yaml", "--event", "stuck"], "server: --event stuck needs a trigger")
        try refused(["experiments/call-graph.yaml", "--event", "collapse"], "services: rare estimates one server")
        try refused(["experiments/rare-collapse.yaml", "--event", "collapse", "--effort", "5"], "--effort must be between 20 and 100000")
        try refused(["experiments/rare-collapse.yaml", "--event", "sometimes"], "sometimes")
        try refused(["experiments/rare-collapse.yaml", "--event", "collapse", "--variant", "nope"], "no such variant")
        #expect(!FileManager.default.fileExists(atPath: out))
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try refused(["experiments/rare-collapse.yaml", "--event", "collapse"], "already exists")
    }
}
