import Foundation
import TestSupport
import Testing

/// `report`, `chart` and `merge` read result and shard directories bounded by what they read and
/// by the machine's memory (ResultsBudget): a kernel file that reports size 0 (/proc), a FIFO,
/// a device, a directory where a file belongs, results larger than `ulimit -v` or than the
/// machine are refused with status 2 and one line naming the file — never a trap, an abort, a
/// block or the OOM killer.
///
/// Against main before this work (RETRYSTORM_BIN=/tmp/rs-old, through a wrapper setting
/// `ulimit -v 8000000` for the sparse cases): /proc/self/pagemap as any of these files traps
/// (Foundation's readBytesFromFile, signal 4); a FIFO, /dev/zero or a directory were "cannot be
/// read"; results too large for `ulimit -v` abort (signal 6, "failed to allocate"); a 5 GiB sparse
/// CSV is read whole (10 GB resident) before a parse error.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ResultsBoundsTests {
    /// A run of tiny.yaml (2 KB of results), made once.
    static let tiny: Result<URL, any Error> = Result {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["run", CLI.fixture("tiny.yaml").path, "--out", dir.appendingPathComponent("tiny").path])
        guard r.status == 0 else { throw ShardWorkspace.ShardSetupError(message: r.stderr) }
        return dir.appendingPathComponent("tiny")
    }

    /// A run over 600,000 one-second buckets (41 MB of timeseries.csv), and the same as a shard
    /// (`--shard 0/1`), made once: `large` and `large-shard`.
    static let large: Result<URL, any Error> = Result {
        let dir = try CLI.temporaryDirectory()
        let yaml = "name: large\nhorizon: 600000s\nbucket: 1s\nclients: {count: 10, arrival: poisson, rate: 0.0001/s}\n"
        try yaml.write(to: dir.appendingPathComponent("large.yaml"), atomically: true, encoding: .utf8)
        for (out, extra) in [("large", [String]()), ("large-shard", ["--shard", "0/1"])] {
            let r = try CLI.run(["run", "large.yaml", "--out", out, "--progress", "none"] + extra, in: dir)
            guard r.status == 0 else { throw ShardWorkspace.ShardSetupError(message: r.stderr) }
        }
        return dir
    }

    /// `n` with commas between groups of three digits, as messages print a count of bytes.
    static func grouped(_ n: Int64) -> String {
        let digits = String(n)
        return digits.enumerated().map { i, c in i > 0 && (digits.count - i) % 3 == 0 ? ",\(c)" : "\(c)" }.joined()
    }

    /// `merge` of `w`'s three shards into `w.root/merged`.
    static func mergeArguments(_ w: ShardWorkspace) -> [String] {
        ["merge", w.shard(0), w.shard(1), w.shard(2), "--out", w.root.appendingPathComponent("merged").path]
    }

    /// A fresh copy of `source`, to tamper with.
    static func copy(_ source: URL) throws -> URL {
        let dir = try CLI.temporaryDirectory().appendingPathComponent(source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: dir)
        return dir
    }

    /// Replaces `dir/name` by a symbolic link to `target`.
    static func link(_ dir: URL, _ name: String, to target: String) throws {
        let file = dir.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: target)
    }

    /// The refusal every case expects: status 2 by exit, one line, no trace.
    static func expectRefusal(_ r: CLI.Result, _ what: String) {
        #expect(!r.signalled && !r.timedOut, "\(what): signal or hang (status \(r.status)): \(r.stderr.prefix(600))")
        #expect(r.status == 2, "\(what): status \(r.status): \(r.stderr.prefix(600))")
        #expect(r.stderr.hasPrefix("retrystorm: error: ") && r.stderr.split(separator: "\n").count == 1, "\(what): \(r.stderr.prefix(600))")
    }

    /// The kernel files: /proc/kallsyms reports size 0 and holds megabytes (5.4 MB here);
    /// /proc/self/pagemap reports size 0 and yields 8 bytes for each page of the reader's
    /// address space (256 GB of a 47-bit one).
    static let kallsyms = "/proc/kallsyms", pagemap = "/proc/self/pagemap"
    static let haveProc = FileManager.default.fileExists(atPath: kallsyms) && FileManager.default.fileExists(atPath: pagemap)

    /// Every case runs under `ulimit -v 4000000` (3.8 GiB): it bounds what main's reader took
    /// of pagemap, and gives the budget a known limit to name.
    static let procLimit = 4_000_000

    /// (file replaced, by what, the expected message after "DIR/file"; a trailing "…" means
    /// a prefix). Caps: command.txt 4 MiB (StudyCommand.maxBytes), scenario.yaml 16 MiB
    /// (InputFile.maxScenarioBytes); a CSV's cap is the memory left (ResultsBudget).
    static let procCases: [(String, String, String)] = [
        ("summary.csv", kallsyms, ":1: missing column 'variant'"),
        ("timeseries.csv", kallsyms, ":1: missing column 'variant'"),
        ("summary.csv", pagemap, ": holds more than …"),
        ("tts_quantiles.csv", pagemap, ": holds more than …"),
        ("command.txt", pagemap, ": holds more than 4,194,304 bytes, the most read from one file"),
        ("scenario.yaml", pagemap, ": holds more than 16,777,216 bytes, the most read from one file")
    ]

    @Test(
        "a kernel file that reports size 0 as a result file: report and chart stop at the cap, status 2, one line naming the file",
        .enabled(if: haveProc), arguments: ["report", "chart"], procCases.indices)
    func procfsResults(command: String, index: Int) throws {
        let (name, target, expected) = Self.procCases[index]
        let dir = try Self.copy(try Self.tiny.get())
        try Self.link(dir, name, to: target)
        let r = try CLI.run([command, dir.path], timeout: 60, addressSpaceKiB: Self.procLimit)
        let what = "\(command) with \(name) → \(target)"
        Self.expectRefusal(r, what)
        let line = "retrystorm: error: \(dir.path)/\(name)" + expected.replacingOccurrences(of: "…", with: "")
        #expect(expected.hasSuffix("…") ? r.stderr.hasPrefix(line) : r.stderr == line + "\n", "\(what): \(r.stderr)")
        if expected.hasSuffix("…") {
            #expect(r.stderr.contains("but the address-space limit (ulimit -v) allows"), "\(what): \(r.stderr)")
        }
    }

    /// (shard, file replaced, by what, the expected message after "SHARD/file"). shard.json's
    /// cap is 1 GiB or the memory left, whichever is less: here the memory left.
    static let procShardCases: [(Int, String, String, String)] = [
        (1, "shard.json", kallsyms, ":1: not a shard manifest: …"),
        (1, "shard.json", pagemap, ": holds more than …"),
        (1, "timeseries.csv", kallsyms, ":1: column 1 is '…"),
        (2, "summary.csv", pagemap, ": holds more than …"),
        (0, "command.txt", pagemap, ": holds more than 4,194,304 bytes, the most read from one file")
    ]

    @Test(
        "a kernel file that reports size 0 as a shard's file: merge stops at the cap, status 2, one line naming the file, nothing written",
        .enabled(if: haveProc), arguments: procShardCases.indices)
    func procfsShards(index: Int) throws {
        let (shard, name, target, expected) = Self.procShardCases[index]
        let w = try ShardWorkspace()
        try Self.link(URL(fileURLWithPath: w.shard(shard)), name, to: target)
        let r = try CLI.run(Self.mergeArguments(w), timeout: 60, addressSpaceKiB: Self.procLimit)
        let what = "merge with s\(shard)/\(name) → \(target)"
        Self.expectRefusal(r, what)
        let line = "retrystorm: error: \(w.file(shard, name))" + expected.replacingOccurrences(of: "…", with: "")
        #expect(expected.hasSuffix("…") ? r.stderr.hasPrefix(line) : r.stderr == line + "\n", "\(what): \(r.stderr)")
        #expect(CLI.entries(w.root) == ["other1", "s0", "s1", "s2"], "\(what): \(CLI.entries(w.root))")
    }

    /// How each kind of file that is not regular is named (InputFile.kind).
    static let notRegular: [(String, String)] = [("fifo", "a FIFO (named pipe)"), ("directory", "a directory"), ("/dev/zero", "a device")]

    /// Puts `kind` at `file`: a FIFO, a directory, or a symbolic link to a device.
    static func place(_ kind: String, at file: URL) throws {
        try? FileManager.default.removeItem(at: file)
        switch kind {
        case "fifo": #expect(mkfifo(file.path, 0o600) == 0)
        case "directory": try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        default: try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: kind)
        }
    }

    @Test(
        "a FIFO, a directory or a device where a result file belongs: status 2 at once, naming what it is; report, chart and merge",
        arguments: ["report", "chart", "merge"], notRegular.indices)
    func notRegularFiles(command: String, index: Int) throws {
        let (kind, named) = Self.notRegular[index]
        let r: CLI.Result
        let file: String
        if command == "merge" {
            let w = try ShardWorkspace()
            for (i, name) in [(0, "shard.json"), (1, "timeseries.csv"), (2, "summary.csv")] {
                try Self.place(kind, at: URL(fileURLWithPath: w.file(i, name)))
            }
            file = w.file(0, "shard.json")
            r = try CLI.run(Self.mergeArguments(w), timeout: 20)
        } else {
            let dir = try Self.copy(try Self.tiny.get())
            try Self.place(kind, at: dir.appendingPathComponent("summary.csv"))
            file = dir.appendingPathComponent("summary.csv").path
            r = try CLI.run([command, dir.path], timeout: 20)
        }
        Self.expectRefusal(r, "\(command), \(kind)")
        #expect(r.stderr == "retrystorm: error: \(file): is \(named), not a regular file\n", "\(command), \(kind): \(r.stderr)")
    }

    /// 300,000 KiB of address space: the binary maps about 77 MiB before it reads, so the budget
    /// allows 80% of about 216 MiB; the large results need 32 MiB + 10 × 41 MB.
    static let tightLimit = 300_000

    @Test(
        "results too large for ulimit -v: report, chart and merge refuse with status 2 naming the limit, never a signal; small results still go through",
        arguments: ["report", "chart", "merge"])
    func addressSpace(command: String) throws {
        let made = try Self.large.get()
        let source = made.appendingPathComponent(command == "merge" ? "large-shard" : "large")
        let dir = try Self.copy(source)
        let out = dir.deletingLastPathComponent().appendingPathComponent("merged")
        let args = command == "merge" ? ["merge", dir.path, "--out", out.path] : [command, dir.path]
        let clock = Date()
        let r = try CLI.run(args, timeout: 60, addressSpaceKiB: Self.tightLimit)
        Self.expectRefusal(r, command)
        let size = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("timeseries.csv").path)[.size] as? Int ?? 0
        #expect(
            r.stderr.hasPrefix("retrystorm: error: \(dir.path)/timeseries.csv: \(Self.grouped(Int64(size))) bytes; reading these results"),
            "\(r.stderr)")
        #expect(r.stderr.contains(", but the address-space limit (ulimit -v) allows "), "\(r.stderr)")
        #expect(Date().timeIntervalSince(clock) < 10, "refused before reading")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // What fits is not refused: the 2 KB of tiny results under the same limit.
        var smallArgs = [command, try Self.copy(try Self.tiny.get()).path]
        if command == "merge" {
            let w = try ShardWorkspace()
            smallArgs = Self.mergeArguments(w)
        }
        let fits = try CLI.run(smallArgs, timeout: 60, addressSpaceKiB: Self.tightLimit)
        #expect(fits.status == 0 && !fits.signalled, "\(command) of small results: \(fits.stderr)")
    }

    /// 250,000 rows of timeseries.csv, each its own replication (14.4 MB): within the first
    /// estimate under ulimit -v 350000 (32 MiB + 10 × 14.4 MB, against 80% of about 264 MiB
    /// left), but every row starts a record of 23 arrays (about 1.4 KB parsed, 340 MB in all):
    /// main aborted ("failed to allocate"), here the parse stops near line 80,000.
    @Test(
        "a table whose every row starts a record: report and chart stop the parse where memory runs out, status 2 naming the file and line",
        arguments: ["report", "chart"])
    func fragmented(command: String) throws {
        let dir = try Self.copy(try Self.tiny.get())
        let file = dir.appendingPathComponent("timeseries.csv")
        let header = try CLI.read(file).split(separator: "\n")[0]
        let zeros = Array(repeating: "0", count: header.split(separator: ",").count - 2).joined(separator: ",")
        var text = header + "\n"
        for r in 0..<250_000 { text += "base,\(r),\(zeros)\n" }
        try text.write(to: file, atomically: true, encoding: .utf8)
        let r = try CLI.run([command, dir.path], timeout: 60, addressSpaceKiB: 350_000)
        Self.expectRefusal(r, command)
        #expect(r.stderr.hasPrefix("retrystorm: error: \(file.path):"), "\(r.stderr)")
        #expect(
            r.stderr.contains(": parsed up to here, these results take more memory than the address-space limit (ulimit -v) leaves ("), "\(r.stderr)")
    }

    /// The sparse file's size: 5 GiB, or an eighth of physical memory on a larger machine, so
    /// that ten bytes of memory per byte of it (ResultsBudget.expansion) always pass 80% of
    /// physical memory. A sparse file takes no disk space.
    static let sparseBytes = max(Int64(5) << 30, Int64(ProcessInfo.processInfo.physicalMemory / 8))

    @Test(
        "a multi-GB sparse results CSV: refused within seconds, before it is read, status 2 naming the file and its size",
        arguments: ["report", "chart", "merge"])
    func sparse(command: String) throws {
        let r: CLI.Result
        let file: URL
        let clock = Date()
        if command == "merge" {
            let w = try ShardWorkspace()
            file = URL(fileURLWithPath: w.file(1, "timeseries.csv"))
            #expect(truncate(file.path, off_t(Self.sparseBytes)) == 0)
            defer { try? FileManager.default.removeItem(at: file) }
            r = try CLI.run(Self.mergeArguments(w), timeout: 60)
        } else {
            let dir = try Self.copy(try Self.tiny.get())
            file = dir.appendingPathComponent("timeseries.csv")
            #expect(truncate(file.path, off_t(Self.sparseBytes)) == 0)
            defer { try? FileManager.default.removeItem(at: file) }
            r = try CLI.run([command, dir.path], timeout: 60)
        }
        Self.expectRefusal(r, command)
        #expect(r.stderr.hasPrefix("retrystorm: error: \(file.path): \(Self.grouped(Self.sparseBytes)) bytes; reading these results"), "\(r.stderr)")
        #expect(r.stderr.contains(" allows "), "\(r.stderr)")
        #expect(Date().timeIntervalSince(clock) < 5, "refused before reading: \(Date().timeIntervalSince(clock)) s")
    }
}
