import Foundation
import TestSupport
import Testing

/// Verdicts that do not reward failure, metrics that do not depend on the horizon, bounded
/// intervals, gates on bounds and percentages, and every mistake refused before anything runs.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct AnswerTests {
    static let jitter = CLI.packageRoot.appendingPathComponent("experiments/jitter-comparison.yaml").path
    static let quickstart = CLI.packageRoot.appendingPathComponent("experiments/quickstart.yaml").path

    func table(_ stdout: String, row name: String) -> [String] {
        let line = stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + " ") }
        return line.map { String($0) }.map { [$0] } ?? []
    }

    @Test(
        "a variant that loses 98% of its operations is never best on time to success or recovery; compare.csv has paired differences from the baseline"
    )
    func verdictsDoNotRewardFailure() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["compare", Self.jitter, "--replications", "4", "--out", "o", "--baseline", "exponential"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let noBackoff = table(r.stdout, row: "no-backoff").first ?? ""
        // Columns: peak, amplification, p50, p99, gave up %, recovery, stuck, wasted (no unfinished
        // column: nothing was unfinished): no-backoff has the lowest recovery and loses 98% (so its
        // p50 and p99 over every operation are never); it is never stuck, and is not marked for it.
        let cells = noBackoff.components(separatedBy: "  ").filter { !$0.isEmpty }
        #expect(cells.count == 9, "\(noBackoff)")
        for c in [3, 4, 6, 7] where c < cells.count { #expect(!cells[c].contains("*"), "column \(c): \(noBackoff)") }
        #expect(r.stdout.contains("no * for no-backoff, full-jitter and decorrelated, which lose clearly more operations"), "\(r.stdout)")
        // compare.csv: the baseline's difference columns are empty; others are paired differences.
        let rows = try CLI.read(dir.appendingPathComponent("o/compare.csv")).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows[0].hasSuffix("replications,diff_mean,diff_ci95_low,diff_ci95_high"))
        #expect(rows.contains { $0.hasPrefix("exponential,peak_load_ratio,") && $0.hasSuffix(",,,") })
        let summary = try CLI.read(dir.appendingPathComponent("o/summary.csv")).split(separator: "\n")
        let col = summary[0].split(separator: ",").firstIndex(of: "peak_load_ratio")!
        func values(_ v: String) -> [Double] { summary.dropFirst().filter { $0.hasPrefix(v + ",") }.map { Double($0.split(separator: ",")[col])! } }
        let d = zip(values("full-jitter"), values("exponential")).map { $0 - $1 }
        let mean = d.reduce(0, +) / Double(d.count)
        let row = rows.first { $0.hasPrefix("full-jitter,peak_load_ratio,") }!.split(separator: ",")
        #expect(abs(Double(row[6])! - mean) < 1e-6, "diff_mean is the mean of the per-replication differences")
    }

    @Test("--baseline must name a variant (with a suggestion)")
    func unknownBaseline() throws {
        let r = try CLI.run(["compare", Self.jitter, "--baseline", "full-jiter", "--out", "/nonexistent/never"])
        #expect(r.status == 2 && r.stderr.contains("Did you mean 'full-jitter'?"), "\(r.stderr)")
    }

    @Test("incident metrics do not depend on the quiet time simulated after the recovery; whole-run ones do")
    func horizonIndependence() throws {
        var incident: [[String]] = []
        var amplification: [String] = []
        for horizon in ["400s", "600s", "1200s"] {
            let dir = try CLI.temporaryDirectory()
            let r = try CLI.run(["run", Self.quickstart, "--set", "horizon=\(horizon)", "--replications", "2", "--out", "o"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            let lines = try CLI.read(dir.appendingPathComponent("o/summary.csv")).split(separator: "\n").map {
                $0.split(separator: ",", omittingEmptySubsequences: false)
            }
            let header = lines[0]
            let cols = ["incident_tts_p50_s", "incident_tts_p99_s", "incident_gave_up_fraction", "recovered", "recovery_after_trigger_s"]
                .map { header.firstIndex(of: Substring($0))! }
            incident.append(lines.dropFirst().flatMap { row in cols.map { String(row[$0]) } })
            amplification.append(String(lines[1][header.firstIndex(of: "amplification")!]))
        }
        #expect(incident[0] == incident[1] && incident[1] == incident[2], "\(incident)")
        #expect(Set(amplification).count > 1, "the whole run does depend on it: \(amplification)")
    }

    @Test("intervals respect a metric's bounds: a count's low end is never below 0")
    func boundedIntervals() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["compare", Self.jitter, "--replications", "3", "--out", "o"], in: dir)
        #expect(r.status == 0)
        let rows = try CLI.read(dir.appendingPathComponent("o/compare.csv")).split(separator: "\n").dropFirst()
        var checked = 0
        for row in rows {
            let f = row.split(separator: ",", omittingEmptySubsequences: false)
            guard let low = Double(f[3]), low.isFinite, !f[1].hasPrefix("diff") else { continue }
            #expect(low >= 0, "\(row)")
            if f[1].hasSuffix("fraction") || f[1] == "recovered" { #expect(Double(f[4])! <= 1, "\(row)") }
            checked += 1
        }
        // A compare.csv without rows, or without a finite interval, would check nothing (225 of 225 now).
        #expect(checked > 0, "rows with a finite low end checked: \(checked) of \(rows.count)")
    }

    @Test(
        "gates: percentages for fractions and a bound of the interval instead of the mean",
        arguments: [
            ("gave_up_fraction<=20%", 0), ("gave_up_fraction<=10%", 1), ("peak_load_ratio.ci95_high<=100", 0),
            ("peak_load_ratio.ci95_low>=100", 1), ("gave_up_fraction.ci95_high<=0.2", 0)
        ])
    func gates(expectation: String, status: Int32) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["run", Self.quickstart, "--replications", "2", "--out", "o", "--expect", expectation], in: dir)
        #expect(r.status == status, "\(expectation): \(r.stderr)")
    }

    @Test(
        "mistakes are exit 2 before anything runs, with a suggestion",
        arguments: [
            (["run", "Q", "--expect", "nosuch:tts_p99_s<=1"], "'nosuch' is not a variant of this study"),
            (["run", "Q", "--expect", "gave_up_fractoin<=1%"], "Did you mean 'gave_up_fraction'?"),
            (["run", "Q", "--expect", "peak_load_ratio<=50%"], "is not a fraction"),
            (["compare", "J", "--expect", "full-jiter:tts_p99_s<=1"], "Did you mean 'full-jitter'?"),
            (["sweep", "Q", "--grid", "policy.backoff.bsae=1s,2s"], "Did you mean 'policy.backoff.base'?"),
            (["tune", "Q", "--grid", "policy.backoff.base=1s,2s", "--objective", "tts_p99"], "Did you mean"),
            (["compare", "Q", "--vary", "policy.max_attempts=2,3", "--vary", "policy.max_attempts=4"], "is named twice in --vary"),
            (["compare", "J", "--set", "policy.backoff.jitter=none"], "conflicts with variant"),
            (["compare", "Q", "--vary", "policy.max_attempts=2,3", "--set", "policy.max_attempts=4"], "conflicts with --vary policy.max_attempts"),
            (["sweep", "Q", "--grid", "policy.max_attempts=2,5", "--set", "policy.max_attempts=3"], "conflicts with --grid policy.max_attempts")
        ])
    func refusedUpFront(args: [String], fragment: String) throws {
        let dir = try CLI.temporaryDirectory()
        let resolved = args.map { $0 == "Q" ? Self.quickstart : $0 == "J" ? Self.jitter : $0 }
        let clock = Date()
        let r = try CLI.run(resolved + ["--out", "o"], in: dir)
        #expect(r.status == 2 && r.stderr.contains(fragment), "\(args): \(r.stderr)")
        #expect(Date().timeIntervalSince(clock) < 5, "refused before running")
        #expect(CLI.entries(dir).isEmpty, "nothing written")
        // validate refuses the same, with the same options.
        let v = try CLI.run(["validate"] + resolved.dropFirst(), in: dir)
        if resolved[0] != "tune" || !args.contains("--objective") || true {
            #expect(v.status == 2 && v.stderr.contains(fragment), "validate \(args): \(v.stderr)")
        }
    }

    @Test("a misspelt metric in the scenario's expect:, a misspelt grid key or an unknown objective: validate says so, as run would")
    func validateMatchesRun() throws {
        for (yaml, fragment) in [
            ("expect: [gave_up_fractoin<=1%]\n", "Did you mean 'gave_up_fraction'?"),
            ("grid: [\"policy.backoff.bsae=1s,2s\"]\n", "Did you mean 'policy.backoff.base'?"),
            ("grid: [\"policy.backoff.base=1s,2s\"]\nobjective: tts_p99\n", "is not a metric")
        ] {
            let dir = try CLI.temporaryDirectory()
            try ("horizon: 30s\n" + yaml).write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
            let v = try CLI.run(["validate", "x.yaml"], in: dir)
            #expect(v.status == 2 && v.stderr.contains(fragment), "\(yaml): \(v.stderr)")
        }
    }

    @Test("long runs print progress lines when stderr is not a terminal (and nothing with --progress none)")
    func progressLines() throws {
        let dir = try CLI.temporaryDirectory()
        // 80 million events: 5.7 s at the 14 million events per second this run measures on a
        // 2-core VM (`retrystorm run` prints the rate), so past the first line at 2 s with room for
        // a machine three times as fast; 30 s of it took 1.7 s there, too close to that line.
        try "horizon: 100s\nclients: {count: 400000, rate: 1/s}\nserver: {capacity: 500000/s}\n"
            .write(to: dir.appendingPathComponent("slow.yaml"), atomically: true, encoding: .utf8)
        let lines = try CLI.run(["run", "slow.yaml", "--out", "a", "--progress", "lines"], in: dir)
        #expect(lines.status == 0 && lines.stderr.contains("run: simulated "), "\(lines.stderr)")
        let none = try CLI.run(["run", "slow.yaml", "--out", "b", "--progress", "none"], in: dir)
        #expect(none.status == 0 && !none.stderr.contains("simulated "), "\(none.stderr)")
    }
}
