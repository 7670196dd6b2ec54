import Foundation
import RetryStormKit
import TestSupport
import Testing

/// Nothing RetryStorm did not write is ever replaced or deleted, whatever `--out`, `--force` or the
/// scenario's name say, and two writers never silently overwrite each other.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct OutputSafetyTests {
    static let scenario = """
        horizon: 30s
        clients: {count: 50, arrival: poisson, rate: 0.1/s}

        """

    /// Overrides that make the scenario run for a couple of seconds: long enough to act during it.
    static let slow = ["--set", "clients.count=200000", "--set", "clients.rate=1/s", "--set", "server.capacity=500000/s"]

    /// A project directory: a scenario, a source file, a document in a subdirectory.
    func project(name: String? = nil) throws -> URL {
        // A project of its own inside a fresh directory, so that nothing beside it changes.
        let dir = try CLI.temporaryDirectory().appendingPathComponent("project")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let text = (name.map { "name: \($0)\n" } ?? "") + Self.scenario
        try text.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        try "int main() {}".write(to: dir.appendingPathComponent("main.c"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("docs"), withIntermediateDirectories: true)
        try "thesis".write(to: dir.appendingPathComponent("docs/thesis.tex"), atomically: true, encoding: .utf8)
        return dir
    }

    /// Every file under `dir` with its contents (hidden ones too), to compare before and after.
    func snapshot(_ dir: URL) -> [String: String] {
        var out: [String: String] = [:]
        let base = dir.resolvingSymlinksInPath().path
        guard let e = FileManager.default.enumerator(atPath: base) else { return out }
        while let rel = e.nextObject() as? String {
            out[rel] = (try? String(contentsOfFile: base + "/" + rel, encoding: .utf8)) ?? "<dir>"
        }
        return out
    }

    @Test(
        "a scenario name is never a path: '..', '../../elsewhere', '.hidden' and '/etc' stay one directory under results/",
        arguments: [("'..'", "scenario"), ("'../../elsewhere'", "elsewhere"), ("'.hidden'", "hidden"), ("'/etc'", "etc"), ("'a b/c'", "a-b-c")])
    func namesAreNotPaths(name: String, expected: String) throws {
        let dir = try project(name: name)
        let parent = dir.deletingLastPathComponent()
        let siblings = CLI.entries(parent)
        let before = snapshot(dir)
        let r = try CLI.run(["run", "s.yaml", "--force"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.entries(dir.appendingPathComponent("results")) == [expected], "\(CLI.entries(dir.appendingPathComponent("results")))")
        for (file, contents) in before { #expect(snapshot(dir)[file] == contents, "\(file) changed") }
        #expect(CLI.entries(parent) == siblings && siblings == ["project"], "something was written beside the project: \(CLI.entries(parent))")
    }

    @Test(
        "--force never replaces the current directory, an ancestor, an empty path or a directory RetryStorm did not write",
        arguments: [".", "", "docs/..", "docs", "..", "/"])
    func forceRefusesForeignDirectories(out: String) throws {
        let dir = try project()
        let before = snapshot(dir)
        let r = try CLI.run(["run", "s.yaml", "--out", out, "--force"], in: dir)
        #expect(r.status == 2, "\(out): status \(r.status) \(r.stderr)")
        #expect(r.stderr.hasPrefix("retrystorm: error: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(snapshot(dir) == before, "\(out): the project changed")
        #expect(!CLI.entries(dir.deletingLastPathComponent()).contains { $0.hasSuffix(".tmp-") || $0.contains(".old-") })
    }

    @Test("a directory holding only files RetryStorm writes (results from before the marker) may be replaced with --force")
    func forceReplacesLegacyResults() throws {
        let dir = try project()
        let out = dir.appendingPathComponent("old")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for name in ["summary.csv", "timeseries.csv", "load.svg", "table.txt", "perf.json"] {
            try "earlier".write(to: out.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        #expect(try CLI.run(["run", "s.yaml", "--out", "old", "--force"], in: dir).status == 0)
        #expect(try CLI.read(out.appendingPathComponent("summary.csv")) != "earlier")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(".retrystorm").path))
    }

    @Test("two runs into the same new --out: the second is refused before it runs; the first's results are whole")
    func concurrentWriters() throws {
        let dir = try project()
        let first = try CLI.Background(["run", "s.yaml", "--out", "same"] + Self.slow, in: dir)
        #expect(CLI.wait { FileManager.default.fileExists(atPath: dir.appendingPathComponent("same/.retrystorm-writing").path) })
        let second = try CLI.run(["run", "s.yaml", "--out", "same"], in: dir)
        let (status, stderr, _) = first.finish()
        #expect(second.status == 2 && second.stderr.contains("same: another retrystorm run is writing there (host "), "\(second.stderr)")
        #expect(status == 0, "\(stderr)")
        #expect(try CLI.read(dir.appendingPathComponent("same/scenario.yaml")).contains("horizon: 30s"))
        #expect(try CLI.read(dir.appendingPathComponent("same/summary.csv")).contains("200000"), "the first run's results")
    }

    @Test("a directory that appears or is replaced during a run is never deleted by its commit", arguments: [false, true])
    func commitNeverDeletesNewcomers(force: Bool) throws {
        let dir = try project()
        let out = dir.appendingPathComponent("out")
        if force { #expect(try CLI.run(["run", "s.yaml", "--out", "out"], in: dir).status == 0) }
        let run = try CLI.Background(
            ["run", "s.yaml", "--out", "out"] + Self.slow + (force ? ["--force"] : []),
            in: dir)
        #expect(CLI.wait { CLI.entries(dir).contains { $0.hasPrefix(".out.tmp-") } })
        // Someone else takes the directory over while the run is going.
        try FileManager.default.removeItem(at: out)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try "theirs".write(to: out.appendingPathComponent("theirs.txt"), atomically: true, encoding: .utf8)
        let (status, stderr, _) = run.finish()
        #expect(status == 2 && stderr.contains("by someone else during the run"), "\(stderr)")
        #expect(CLI.entries(out) == ["theirs.txt"])
        #expect(!CLI.entries(dir).contains { $0.contains(".tmp-") || $0.contains(".old-") }, "\(CLI.entries(dir))")
    }

    @Test("an interrupted run into new nested directories leaves none of them behind", arguments: [SIGTERM, SIGHUP])
    func createdParentsRemoved(signal: Int32) throws {
        let dir = try project()
        let run = try CLI.Background(["run", "s.yaml", "--out", "a/b/c/out"] + Self.slow, in: dir)
        #expect(CLI.wait { CLI.entries(dir.appendingPathComponent("a/b/c")).contains { $0.hasPrefix(".out.tmp-") } })
        run.send(signal)
        let (status, stderr, _) = run.finish()
        #expect(status == 130, "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a").path), "\(CLI.entries(dir))")
    }

    @Test("a closed stdout (SIGPIPE) does not kill a run half-way: its results are committed")
    func closedStdout() throws {
        let dir = try project()
        let outcome = try ChildProcess.spawn(
            try CLI.binary.path, ["run", "s.yaml", "--out", "out"], directory: dir.path,
            stdout: .closedPipe, stderr: .discard
        ).finish(timeout: 600)
        #expect(CLI.Result(outcome).signalled == false, "killed by a signal")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/summary.csv").path))
        #expect(!CLI.entries(dir).contains { $0.contains(".tmp-") })
    }

    @Test("every output directory carries the marker that lets --force replace it later")
    func marker() throws {
        let dir = try project()
        #expect(try CLI.run(["run", "s.yaml", "--out", "out"], in: dir).status == 0)
        #expect(try CLI.read(dir.appendingPathComponent("out/.retrystorm")).contains("written by retrystorm"))
    }
}
