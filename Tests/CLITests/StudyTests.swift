import Foundation
import TestSupport
import Testing

/// compare, sweep, tune, shards and merge, release gates — through the built CLI.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct StudyTests {
    static let tiny = CLI.fixture("tiny.yaml").path

    func files(_ dir: URL, _ names: [String]) throws -> [String] {
        try names.map { try CLI.read(dir.appendingPathComponent($0)) }
    }

    @Test("compare --vary: one row per variant and metric in compare.csv; common random numbers give every variant the same arrivals")
    func compareVary() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("c")
        let r = try CLI.run([
            "compare", Self.tiny, "--vary", "policy.backoff.jitter=none,full,equal", "--set", "clients.arrival=poisson",
            "--set", "clients.rate=0.2/s", "--replications", "3", "--out", out.path
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("jitter=none") && r.stdout.contains("jitter=equal") && r.stdout.contains("choose this for that column"))
        let compare = try CLI.read(out.appendingPathComponent("compare.csv")).split(separator: "\n")
        #expect(compare[0] == "variant,metric,mean,ci95_low,ci95_high,replications,diff_mean,diff_ci95_low,diff_ci95_high")
        let metrics = compare.dropFirst().filter { $0.hasPrefix("jitter=none,") }.count
        #expect(compare.count == 1 + 3 * metrics)
        // Poisson arrivals come from their own stream: replication r has the same operation count in every variant.
        let summary = try CLI.read(out.appendingPathComponent("summary.csv")).split(separator: "\n").dropFirst()
        var operations: [String: Set<String>] = [:]
        for row in summary {
            let f = row.split(separator: ",")
            operations[String(f[1]), default: []].insert(String(f[4]))
        }
        #expect(operations.count == 3 && operations.values.allSatisfy { $0.count == 1 }, "\(operations)")
        // The variants differ where the policy matters.
        let p99 = compare.filter { $0.contains(",tts_success_p99_s,") }.map { $0.split(separator: ",")[2] }
        #expect(Set(p99).count == 3)
    }

    @Test("sweep over a log range: sweep.csv has one column per swept key and the generated values")
    func sweepGrid() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("s")
        let r = try CLI.run([
            "sweep", Self.tiny, "--grid", "policy.backoff.base=100ms...1s:log:3", "--grid", "policy.max_attempts=2,4",
            "--replications", "2", "--out", out.path
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let sweep = try CLI.read(out.appendingPathComponent("sweep.csv")).split(separator: "\n")
        #expect(sweep[0] == "variant,policy.backoff.base,policy.max_attempts,metric,mean,ci95_low,ci95_high,replications")
        // 100 ms · √10^k: 100ms, 316ms, 1s — three significant digits.
        let names = Set(sweep.dropFirst().map { String($0.split(separator: ",")[0]) })
        #expect(
            names == [
                "base=100ms+max_attempts=2", "base=100ms+max_attempts=4", "base=316ms+max_attempts=2",
                "base=316ms+max_attempts=4", "base=1s+max_attempts=2", "base=1s+max_attempts=4"
            ])
        // timeseries.csv holds the first two points by p99 (sweep.csv's order for the tables), each
        // by replication, for load.svg and failures.svg; no tts_quantiles.csv.
        let summary = try CLI.read(out.appendingPathComponent("summary.csv")).split(separator: "\n")
        let p99 = summary[0].split(separator: ",").firstIndex(of: "tts_p99_s")!
        var means: [String: [Double]] = [:]
        for row in summary.dropFirst() {
            let f = row.split(separator: ",")
            means[String(f[0]), default: []].append(Double(f[p99])!)
        }
        let order = sweep.dropFirst().map { String($0.split(separator: ",")[0]) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let first = order.enumerated().sorted {
            let a = means[$0.1]!.reduce(0, +)
            let b = means[$1.1]!.reduce(0, +)
            return (a.isNaN ? .infinity : a, $0.0) < (b.isNaN ? .infinity : b, $1.0)
        }.prefix(2).map(\.1)
        let series = try CLI.read(out.appendingPathComponent("timeseries.csv")).split(separator: "\n").dropFirst()
        var seen: [String] = []
        for row in series {
            let v = String(row.split(separator: ",")[0])
            if seen.last != v { seen.append(v) }
        }
        #expect(seen == first, "\(seen) against \(first)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("tts_quantiles.csv").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("load.svg").path))
    }

    /// With populations, the shards also hold populations.csv (and timeseries_populations.csv
    /// beside time series), which merge must carry over as it does the other tables; a call graph's
    /// shards services.csv and edges.csv (and timeseries_services.csv beside time series).
    @Test(
        "three shards, run as separate processes, merge into exactly the unsharded bytes",
        arguments: ["compare", "sweep", "run", "compare with populations", "sweep with populations", "run with services", "sweep with services"])
    func shardsMerge(study: String) throws {
        let dir = try CLI.temporaryDirectory()
        let command = String(study.split(separator: " ")[0])
        let populations = study.hasSuffix("with populations")
        let services = study.hasSuffix("with services")
        let extra: [String] =
            switch command {
            case "compare": ["--vary", "policy.backoff.jitter=none,full"]
            case "sweep" where services: ["--grid", "policy.backoff.base=200ms,1s"]
            case "sweep": ["--grid", "policy.backoff.base=200ms,1s", "--grid", "policy.backoff.max=2s,8s"]
            default: []
            }
        let scenario =
            populations ? CLI.fixture("tiny-populations.yaml").path : services ? CLI.fixture("tiny-services.yaml").path : Self.tiny
        let common = [command, scenario, "--replications", "3", "--jobs", "2"] + extra
        let whole = dir.appendingPathComponent("whole")
        #expect(try CLI.run(common + ["--out", whole.path]).status == 0)
        var shards: [String] = []
        for i in 0..<3 {
            let s = dir.appendingPathComponent("shard\(i)")
            let r = try CLI.run(common + ["--shard", "\(i)/3", "--out", s.path, "--jobs", "1"])
            #expect(r.status == 0, "\(r.stderr)")
            shards.append(s.path)
        }
        let merged = dir.appendingPathComponent("merged")
        let m = try CLI.run(["merge", shards[2], shards[0], shards[1], "--out", merged.path])
        #expect(m.status == 0, "\(m.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: whole.path).filter { $0 != "perf.json" }.sorted()
        #expect(names.contains("summary.csv"))
        // A sweep's too: its first two points', which merge picks from every shard's series.
        #expect(names.contains("timeseries.csv"))
        #expect(names.contains("populations.csv") == populations)
        #expect(names.contains("timeseries_populations.csv") == (populations && command == "compare"))
        #expect(names.contains("services.csv") == services && names.contains("edges.csv") == services)
        for name in names {
            #expect(
                try CLI.read(merged.appendingPathComponent(name)) == (try CLI.read(whole.appendingPathComponent(name))), "\(command): \(name) differs"
            )
        }
        let missing = try CLI.run(["merge", shards[0], shards[1], "--out", dir.appendingPathComponent("bad").path])
        #expect(missing.status == 2 && missing.stderr.contains("missing shard 2/3 of 3"))
    }

    @Test("tune: deterministic, and its choice meets the constraints; impossible constraints exit 1")
    func tune() throws {
        let dir = try CLI.temporaryDirectory()
        let args = [
            "tune", Self.tiny, "--grid", "policy.backoff.base=100ms...2s:log:4", "--objective", "tts_success_p99_s",
            "--constraint", "peak_load_ratio<=4", "--replications", "2"
        ]
        let a = try CLI.run(args + ["--out", dir.appendingPathComponent("a").path])
        let b = try CLI.run(args + ["--out", dir.appendingPathComponent("b").path, "--jobs", "1"])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stdout.contains("recommended  policy.backoff.base="))
        let tuneA = try CLI.read(dir.appendingPathComponent("a/tune.csv"))
        #expect(tuneA == (try CLI.read(dir.appendingPathComponent("b/tune.csv"))))
        #expect(b.status == 0)
        let first = tuneA.split(separator: "\n")[1].split(separator: ",", omittingEmptySubsequences: false)
        #expect(first[0] == "1" && first[3] == "true")
        // The chosen point's peak load in sweep.csv meets the constraint.
        let sweep = try CLI.read(dir.appendingPathComponent("a/sweep.csv")).split(separator: "\n")
        let peak = sweep.first { $0.hasPrefix("\(first[1]),") && $0.contains(",peak_load_ratio,") }!.split(separator: ",")
        #expect(Double(peak[3])! <= 4)
        let impossible = try CLI.run([
            "tune", Self.tiny, "--grid", "policy.backoff.base=100ms,1s", "--objective", "tts_success_p99_s",
            "--constraint", "amplification<=0.5", "--refine", "0", "--out", dir.appendingPathComponent("c").path
        ])
        #expect(impossible.status == 1 && impossible.stderr.contains("no evaluated point meets every constraint"))
    }

    @Test("--expect and the scenario's expect: block gate a release: exit 1 with a report naming the variant and value, files still written")
    func releaseGates() throws {
        let dir = try CLI.temporaryDirectory()
        let pass = try CLI.run(["run", Self.tiny, "--expect", "amplification<=10", "--out", dir.appendingPathComponent("p").path])
        #expect(pass.status == 0 && pass.stderr.contains("expectations: all 1 met"))
        let fail = try CLI.run([
            "compare", Self.tiny, "--vary", "policy.max_attempts=1,5", "--expect", "max_attempts=5:gave_up==0",
            "--expect", "peak_load_ratio<=100", "--out", dir.appendingPathComponent("f").path
        ])
        #expect(fail.status == 1)
        #expect(fail.stderr.contains("1 expectation failed (results were written):"))
        #expect(fail.stderr.contains("max_attempts=5:gave_up==0 (--expect max_attempts=5:gave_up==0): max_attempts=5 has gave_up = "))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("f/compare.csv").path))
        // In the scenario file, with a line number in the report.
        let file = dir.appendingPathComponent("gated.yaml")
        try (try CLI.read(CLI.fixture("tiny.yaml")) + "expect:\n  - peak_load_ratio<=1\n").write(to: file, atomically: true, encoding: .utf8)
        let gated = try CLI.run(["run", file.path, "--out", dir.appendingPathComponent("g").path])
        #expect(gated.status == 1 && gated.stderr.contains("peak_load_ratio<=1 (\(file.path):"))
        let typo = try CLI.run(["run", Self.tiny, "--expect", "peak_lod_ratio<=1", "--out", dir.appendingPathComponent("t").path])
        #expect(typo.status == 2 && typo.stderr.contains("Did you mean 'peak_load_ratio'?"))
    }

    @Test(
        "bad study options get status 2 and one message",
        arguments: [
            (["sweep", "--grid", "policy.backoff.bse=1s,2s"], "Did you mean 'policy.backoff.base'?"),
            (["sweep", "--grid", "policy.backoff.base=2s...1s:log:3"], "a range needs LO < HI"),
            (["sweep", "--grid", "policy.backoff.base=1s,fast"], "field 'policy.backoff.base'"),
            (["sweep"], "nothing to sweep"),
            (["compare"], "nothing to compare"),
            (["run", "--shard", "3/3"], "--shard takes i/n with 0 ≤ i < n"),
            (["tune", "--grid", "policy.max_attempts=2,3"], "tune needs an objective")
        ])
    func badStudyOptions(args: [String], fragment: String) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run([args[0], Self.tiny] + args.dropFirst() + ["--out", dir.appendingPathComponent("o").path])
        #expect(r.status == 2, "\(args): \(r.stderr)")
        #expect(r.stderr.contains(fragment), "\(args): \(r.stderr)")
    }
}
