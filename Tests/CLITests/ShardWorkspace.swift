import Foundation
import Testing

/// A scratch copy of three shards of one compare study (made once per test process, copied for
/// every test), to tamper with and hand to `merge`.
struct ShardWorkspace {
    /// The study: tiny.yaml, two variants × three replications, three shards. Each shard holds
    /// two tasks, so its summary.csv has two rows and timeseries.csv 2 × 12.
    static let studyArguments = [
        "compare", CLI.fixture("tiny.yaml").path, "--vary", "policy.backoff.jitter=none,full",
        "--replications", "3", "--jobs", "1"
    ]
    static let made: Result<URL, any Error> = Result { try makeShards() }

    /// Writes the shards `s0`, `s1`, `s2`, and `other1`: shard 1 of the same study with another seed.
    static func makeShards() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        for i in 0..<3 {
            let r = try CLI.run(studyArguments + ["--shard", "\(i)/3", "--out", dir.appendingPathComponent("s\(i)").path])
            guard r.status == 0 else { throw ShardSetupError(message: r.stderr) }
        }
        let other = try CLI.run(studyArguments + ["--seed", "12", "--shard", "1/3", "--out", dir.appendingPathComponent("other1").path])
        guard other.status == 0 else { throw ShardSetupError(message: other.stderr) }
        return dir
    }

    struct ShardSetupError: Error { var message: String }

    /// This workspace's directory, holding copies of the shards.
    let root: URL

    init() throws {
        let source = try Self.made.get()
        root = try CLI.temporaryDirectory()
        for name in ["s0", "s1", "s2", "other1"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
    }

    /// The path of shard `i` as given to merge.
    func shard(_ i: Int) -> String { root.appendingPathComponent("s\(i)").path }

    /// `shard(i)/name`, as merge names it.
    func file(_ i: Int, _ name: String) -> String { (shard(i) as NSString).appendingPathComponent(name) }

    func read(_ i: Int, _ name: String) throws -> String { try CLI.read(URL(fileURLWithPath: file(i, name))) }

    func write(_ i: Int, _ name: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: file(i, name))) }

    /// The lines of a file (without their line breaks; the text ends with one).
    func lines(_ i: Int, _ name: String) throws -> [String] {
        try read(i, name).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    func writeLines(_ i: Int, _ name: String, _ lines: [String]) throws { try write(i, name, lines.map { $0 + "\n" }.joined()) }

    /// Runs `merge` on `directories` (default: the three shards) into `root/merged`.
    func merge(_ directories: [String]? = nil) throws -> CLI.Result {
        try CLI.run(["merge"] + (directories ?? [shard(0), shard(1), shard(2)]) + ["--out", root.appendingPathComponent("merged").path], timeout: 60)
    }

    /// The output directory and any staging directory (`.merged.tmp-PID`) in the workspace.
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0 == "merged" || $0.hasPrefix(".merged") }.sorted()
    }

    /// Expects merge to have refused with status 2 and one line naming `file:line:`, mentioning
    /// `fragment`, and to have left no output or staging directory.
    func expectRefusal(
        _ r: CLI.Result, file: String, line: Int, _ fragment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(!r.signalled, "signal \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.status == 2, "status \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        let prefix = "retrystorm: error: \(file):\(line): "
        #expect(r.stderr.hasPrefix(prefix), "expected \(prefix)…, got: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.filter { $0 == "\n" }.count == 1 && r.stderr.hasSuffix("\n"), "not one line: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(fragment), "expected '\(fragment)' in: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(try leftovers() == [], "left behind", sourceLocation: sourceLocation)
    }

    /// The 1-based line of the first line of `text` containing `needle` (0 when none does).
    static func line(of needle: String, in text: String) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.contains(needle) } ?? -1) + 1
    }

    /// Replaces the value on shard.json's first line holding `"key" :` (a one-line value) with
    /// `value`, and returns that line's number.
    @discardableResult
    func setManifestValue(_ i: Int, _ key: String, _ value: String) throws -> Int {
        var lines = try self.lines(i, "shard.json")
        guard let k = lines.firstIndex(where: { $0.contains("\"\(key)\" :") }) else { throw ShardSetupError(message: "no \(key)") }
        let head = lines[k][..<lines[k].range(of: "\"\(key)\" :")!.upperBound]
        lines[k] = head + " " + value + (lines[k].hasSuffix(",") ? "," : "")
        try writeLines(i, "shard.json", lines)
        return k + 1
    }
}
