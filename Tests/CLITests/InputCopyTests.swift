import Foundation
import TestSupport
import Testing

/// Experiments are identified by their inputs' contents (issue 24): every result directory keeps
/// a copy of each input file (`load.csv`, `server.capacity_csv`) and its scenario.yaml names the
/// copies, shard.json records their SHA-256, and merge refuses shards whose inputs differ and reads
/// the copies, never the files — whatever the working directory, after the files changed, moved
/// or were deleted.
///
/// Expected hashes come from coreutils' `sha256sum` (``MergeIntegrityTests/sha256(_:)``), not from
/// the library's SHA-256.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct InputCopyTests {
    static let scenario = """
        name: replay
        horizon: 60s
        clients: {count: 100, rate: 1/s, timeout: 2s}
        server:
          capacity: 150/s
          capacity_csv: "capacity.csv"   # a brownout replayed
        load.csv: traffic.csv
        policy: {max_attempts: 3}

        """
    static let traffic = "t_s,multiplier\n0,1\n10,2\n20,1\n"
    static let capacity = "t_s,capacity_per_s\n0,150\n20,30\n30,30\n40,150\n"

    /// A fresh directory holding `name` (the scenario) and its two CSV files.
    func project(_ name: String = "scenario.yaml", traffic: String = Self.traffic, capacity: String = Self.capacity) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try Self.scenario.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        try traffic.write(to: dir.appendingPathComponent("traffic.csv"), atomically: true, encoding: .utf8)
        try capacity.write(to: dir.appendingPathComponent("capacity.csv"), atomically: true, encoding: .utf8)
        return dir
    }

    /// Every file in `dir` (hidden ones too) with its bytes, perf.json left out.
    static func files(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in CLI.entries(dir) where name != "perf.json" {
            out[name] = try Data(contentsOf: dir.appendingPathComponent(name))
        }
        return out
    }

    /// Expects `a` and `b` to hold the same file names with the same bytes.
    static func expectSame(_ a: URL, _ b: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let x = try files(a)
        let y = try files(b)
        #expect(x.keys.sorted() == y.keys.sorted(), "\(x.keys.sorted()) vs \(y.keys.sorted())", sourceLocation: sourceLocation)
        for (name, data) in x where y[name] != nil {
            #expect(data == y[name], "\(name) differs", sourceLocation: sourceLocation)
        }
    }

    static let study = ["compare", "scenario.yaml", "--vary", "policy.backoff.base=100ms,1s", "--replications", "2", "--jobs", "1"]

    /// Runs shard `i` of 3 of ``study`` in `dir` into `dir/s<i>`.
    func shard(_ i: Int, in dir: URL) throws {
        let r = try CLI.run(Self.study + ["--shard", "\(i)/3", "--out", "s\(i)"], in: dir)
        #expect(r.status == 0, "shard \(i): \(r.stderr)")
    }

    @Test(
        "shards whose load.csv or capacity CSV changed between jobs: merge exits 2 naming the key, the file and both hashes, and writes nothing",
        arguments: [
            ("load.csv", "traffic.csv", "t_s,multiplier\n0,1\n10,3\n20,1\n"),
            ("server.capacity_csv", "capacity.csv", "t_s,capacity_per_s\n0,150\n20,40\n30,40\n40,150\n")
        ])
    func changedInputRefused(key: String, file: String, changed: String) throws {
        let dir = try project()
        let before = try CLI.read(dir.appendingPathComponent(file))
        try shard(0, in: dir)
        try shard(1, in: dir)
        try changed.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
        try shard(2, in: dir)
        let old = try MergeIntegrityTests.sha256(before)
        let new = try MergeIntegrityTests.sha256(changed)
        let manifest = try CLI.read(dir.appendingPathComponent("s2/shard.json"))
        // The input's object opens six lines above its sha256 (keys sorted: bytes, copy, file, from, key, sha256).
        let line = ShardWorkspace.line(of: "\"sha256\" : \"\(new)\"", in: manifest) - 6
        let r = try CLI.run(["merge", "s0", "s1", "s2", "--out", "merged"], in: dir)
        #expect(r.status == 2, "status \(r.status): \(r.stderr)")
        #expect(
            r.stderr
                == "retrystorm: error: s2/shard.json:\(line): \(key) (\(file), set in the scenario) has SHA-256 \(new) here but \(old) in s0/shard.json: the shards read different contents of the file; run every shard on the same inputs\n",
            "\(r.stderr)")
        #expect(!CLI.entries(dir).contains("merged"))
    }

    @Test(
        "merge from another working directory, where other files have the inputs' names, and after the inputs were deleted, gives the unsharded bytes"
    )
    func mergeAnywhere() throws {
        let dir = try project()
        for i in 0..<3 { try shard(i, in: dir) }
        let whole = try CLI.run(Self.study + ["--out", "whole"], in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")
        // Elsewhere, a traffic.csv and a capacity.csv with other contents: a merge that read them would draw other charts.
        let elsewhere = try project("other.yaml", traffic: "t_s,multiplier\n0,1\n40,3\n50,1\n", capacity: "t_s,capacity_per_s\n0,150\n")
        let there = try CLI.run(["merge"] + (0..<3).map { dir.appendingPathComponent("s\($0)").path } + ["--out", "merged"], in: elsewhere)
        #expect(there.status == 0, "\(there.stderr)")
        try Self.expectSame(dir.appendingPathComponent("whole"), elsewhere.appendingPathComponent("merged"))
        for name in ["traffic.csv", "capacity.csv"] { try FileManager.default.removeItem(at: dir.appendingPathComponent(name)) }
        let here = try CLI.run(["merge", "s0", "s1", "s2", "--out", "merged"], in: dir)
        #expect(here.status == 0, "\(here.stderr)")
        try Self.expectSame(dir.appendingPathComponent("whole"), dir.appendingPathComponent("merged"))
    }

    @Test(
        "a result directory moved elsewhere, its inputs deleted: report, chart and a rerun of DIR/scenario.yaml work from any directory, byte for byte"
    )
    func movedResults() throws {
        let first = try CLI.temporaryDirectory()
        let source = first.appendingPathComponent("s")
        try FileManager.default.moveItem(at: try project(), to: source)
        let r = try CLI.run(["run", "s/scenario.yaml", "--out", "results"], in: first)
        #expect(r.status == 0, "\(r.stderr)")
        let second = try CLI.temporaryDirectory()
        let moved = second.appendingPathComponent("s")
        try FileManager.default.moveItem(at: first.appendingPathComponent("results"), to: moved)
        try FileManager.default.removeItem(at: source)
        let written = try Self.files(moved)
        let unrelated = try CLI.temporaryDirectory()
        let report = try CLI.run(["report", moved.path], in: unrelated)
        #expect(report.status == 0, "\(report.stderr)")
        let chart = try CLI.run(["chart", moved.path], in: unrelated)
        #expect(chart.status == 0, "\(chart.stderr)")
        #expect(try Self.files(moved) == written, "report and chart drew something else than the run did")
        // The same relative path to the scenario as the first run typed, so command.txt is the same too.
        let rerun = try CLI.run(["run", "s/scenario.yaml", "--out", "rerun"], in: second)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        try Self.expectSame(moved, second.appendingPathComponent("rerun"))
    }

    @Test("a shard keeps copies byte-identical to its inputs, shard.json records their SHA-256, scenario.yaml names the copies")
    func copiesAndHashes() throws {
        let dir = try project()
        try shard(0, in: dir)
        let s0 = dir.appendingPathComponent("s0")
        let manifest = try CLI.read(s0.appendingPathComponent("shard.json"))
        var scenario = Self.scenario
        for (key, slug, file, text) in [
            ("load.csv", "load-csv", "traffic.csv", Self.traffic),
            ("server.capacity_csv", "server-capacity-csv", "capacity.csv", Self.capacity)
        ] {
            let sha = try MergeIntegrityTests.sha256(text)
            let copy = "input-\(slug)-\(sha.prefix(16)).csv"
            #expect(try CLI.read(s0.appendingPathComponent(copy)) == text, "\(copy)")
            #expect(
                manifest.contains(
                    """
                          "bytes" : \(text.utf8.count),
                          "copy" : "\(copy)",
                          "file" : "\(file)",
                          "from" : "scenario",
                          "key" : "\(key)",
                          "sha256" : "\(sha)"
                    """), "\(key) not recorded: \(manifest)")
            scenario = scenario.replacingOccurrences(
                of: key == "load.csv" ? "load.csv: traffic.csv" : "capacity_csv: \"capacity.csv\"",
                with: key == "load.csv" ? "load.csv: \(copy)" : "capacity_csv: \(copy)")
        }
        #expect(try CLI.read(s0.appendingPathComponent("scenario.yaml")) == scenario)
        #expect(!CLI.entries(s0).contains("inputs.json"), "nothing named by an option")
    }

    @Test("paths from --set and --grid are copied too and listed in inputs.json; report and merge read those copies from anywhere")
    func optionPaths() throws {
        let dir = try project()
        let spike = "t_s,multiplier\n0,1\n30,4\n35,1\n"
        let other = "t_s,capacity_per_s\n0,150\n10,75\n15,150\n"
        try spike.write(to: dir.appendingPathComponent("spike.csv"), atomically: true, encoding: .utf8)
        try other.write(to: dir.appendingPathComponent("other.csv"), atomically: true, encoding: .utf8)
        let args = [
            "sweep", "scenario.yaml", "--grid", "load.csv=traffic.csv,spike.csv", "--grid", "policy.max_attempts=2,3",
            "--set", "server.capacity_csv=other.csv", "--replications", "2", "--jobs", "1"
        ]
        for i in 0..<2 {
            let r = try CLI.run(args + ["--shard", "\(i)/2", "--out", "s\(i)"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let whole = try CLI.run(args + ["--out", "whole"], in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")
        func record(_ key: String, _ from: String, _ file: String, _ text: String) throws -> String {
            let sha = try MergeIntegrityTests.sha256(text)
            let slug = key == "load.csv" ? "load-csv" : "server-capacity-csv"
            return """
                    {
                      "bytes" : \(text.utf8.count),
                      "copy" : "input-\(slug)-\(sha.prefix(16)).csv",
                      "file" : "\(file)",
                      "from" : "\(from)",
                      "key" : "\(key)",
                      "sha256" : "\(sha)"
                    }
                """
        }
        // Ordered by key, then setter ("--grid" before "scenario"), then path.
        let expected =
            "{\n  \"inputs\" : [\n"
            + [
                try record("load.csv", "--grid", "spike.csv", spike), try record("load.csv", "--grid", "traffic.csv", Self.traffic),
                try record("server.capacity_csv", "--set", "other.csv", other)
            ].joined(separator: ",\n") + "\n  ]\n}\n"
        #expect(try CLI.read(dir.appendingPathComponent("whole/inputs.json")) == expected)
        for (text, slug) in [(spike, "load-csv"), (Self.traffic, "load-csv"), (other, "server-capacity-csv"), (Self.capacity, "server-capacity-csv")]
        {
            let name = "input-\(slug)-\(try MergeIntegrityTests.sha256(text).prefix(16)).csv"
            #expect(try CLI.read(dir.appendingPathComponent("whole").appendingPathComponent(name)) == text, "\(name)")
        }
        for name in ["traffic.csv", "capacity.csv", "spike.csv", "other.csv"] {
            try FileManager.default.removeItem(at: dir.appendingPathComponent(name))
        }
        let unrelated = try CLI.temporaryDirectory()
        let merged = try CLI.run(
            ["merge", dir.appendingPathComponent("s0").path, dir.appendingPathComponent("s1").path, "--out", "merged"], in: unrelated)
        #expect(merged.status == 0, "\(merged.stderr)")
        try Self.expectSame(dir.appendingPathComponent("whole"), unrelated.appendingPathComponent("merged"))
        let written = try Self.files(dir.appendingPathComponent("whole"))
        let report = try CLI.run(["report", dir.appendingPathComponent("whole").path], in: unrelated)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try Self.files(dir.appendingPathComponent("whole")) == written)
    }

    @Test("merge refuses a copy that no longer has its recorded SHA-256, naming the copy and both hashes")
    func editedCopyRefused() throws {
        let dir = try project()
        for i in 0..<3 { try shard(i, in: dir) }
        let sha = try MergeIntegrityTests.sha256(Self.traffic)
        let copy = "input-load-csv-\(sha.prefix(16)).csv"
        let edited = "t_s,multiplier\n0,1\n10,9\n20,1\n"
        try edited.write(to: dir.appendingPathComponent("s0").appendingPathComponent(copy), atomically: true, encoding: .utf8)
        let r = try CLI.run(["merge", "s0", "s1", "s2", "--out", "merged"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("retrystorm: error: s0/shard.json:"), "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "s0/\(copy) has SHA-256 \(try MergeIntegrityTests.sha256(edited)), but s0/shard.json records \(sha) for it: the copy was changed"),
            "\(r.stderr)")
        #expect(r.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!CLI.entries(dir).contains("merged"))
    }

    @Test("a shard.json written before input hashes (no `inputs`) is refused on line 1 as an older retrystorm's, nothing written")
    func olderShardRefused() throws {
        let w = try ShardWorkspace()
        let file = URL(fileURLWithPath: w.file(1, "shard.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(object["inputs"] != nil)
        object["inputs"] = nil
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: file)
        try w.expectRefusal(
            try w.merge(), file: w.file(1, "shard.json"), line: 1,
            "written by an older retrystorm (no hashes of its input files); re-run the shard with this version")
    }

    @Test(
        "a file the scenario names is copied even when --set replaces it (report loads scenario.yaml as written); a missing one is refused up front")
    func replacedFileStillCopied() throws {
        let dir = try project()
        try "t_s,multiplier\n0,1\n".write(to: dir.appendingPathComponent("flat.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "scenario.yaml", "--set", "load.csv=flat.csv", "--out", "o"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let copy = "input-load-csv-\(try MergeIntegrityTests.sha256(Self.traffic).prefix(16)).csv"
        #expect(try CLI.read(dir.appendingPathComponent("o").appendingPathComponent(copy)) == Self.traffic)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("traffic.csv"))
        let missing = try CLI.run(["run", "scenario.yaml", "--set", "load.csv=flat.csv", "--out", "p"], in: dir)
        #expect(missing.status == 2)
        #expect(
            missing.stderr.hasPrefix("retrystorm: error: scenario.yaml:7:11: field 'load.csv': cannot read traffic.csv: No such file or directory"),
            "\(missing.stderr)")
        #expect(!CLI.entries(dir).contains("p"))
    }

    @Test(
        "--force replaces a directory without the marker that holds only RetryStorm's files, copies and inputs.json included; not one holding a look-alike"
    )
    func copiesAreRetryStormsOwn() throws {
        let dir = try project()
        for (name, owned) in [
            ("input-load-csv-0123456789abcdef.csv", true), ("input-load.csv", false), ("input-load-csv-0123456789ABCDEF.csv", false)
        ] {
            let out = dir.appendingPathComponent("old")
            try? FileManager.default.removeItem(at: out)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            for file in ["summary.csv", "inputs.json", name] {
                try "x".write(to: out.appendingPathComponent(file), atomically: true, encoding: .utf8)
            }
            let r = try CLI.run(["run", "scenario.yaml", "--out", "old", "--force"], in: dir)
            #expect(r.status == (owned ? 0 : 2), "\(name): \(r.stderr)")
            #expect(CLI.entries(out).contains(name) == !owned, "\(name)")
        }
    }
}
