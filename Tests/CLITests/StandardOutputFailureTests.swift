import Foundation
import RetryStormKit
import TestSupport
import Testing

/// A failed write to standard output or error is never a success: `/dev/full` (ENOSPC) and a
/// file-size limit (`ulimit -f`, EFBIG) end every command that writes to stdout with status 2
/// and one line saying so and what was written; a closed pipe stays 141 (`SignalAndLimitTests`).
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct StandardOutputFailureTests {
    /// One command that writes to standard output, and what its failure line says it leaves.
    struct Command: CustomStringConvertible, Sendable {
        var args: [String]
        /// The end of the line after the reason: "" for a command that writes no files.
        var leaves: String
        /// Notes it writes to stderr before its output: they stay, before the line.
        var notes = false
        var description: String { args.joined(separator: " ") }
    }

    /// Every command that writes to stdout (`retrystorm --help` lists them), run in ``project()``.
    static let commands: [Command] = [
        Command(args: ["keys"], leaves: ""),
        Command(args: ["metrics"], leaves: ""),
        Command(args: ["schema"], leaves: ""),
        Command(args: ["--help"], leaves: ""),
        Command(args: ["run", "--help"], leaves: ""),
        Command(args: ["help", "policy"], leaves: ""),
        Command(args: ["--version"], leaves: ""),
        Command(args: ["validate", "s.yaml"], leaves: ""),
        Command(args: ["policy", "export", "s.yaml"], leaves: ""),
        Command(args: ["policy", "export", "s.yaml", "--format", "envoy"], leaves: "", notes: true),
        Command(args: ["policy", "import", "grpc.json", "--service", "shop.Cart", "--method", "Checkout"], leaves: "", notes: true),
        Command(args: ["run", "s.yaml", "--out", "r"], leaves: "; the results were written to r"),
        Command(args: ["compare", "s.yaml", "--vary", "policy.max_attempts=2,3", "--out", "c"], leaves: "; the results were written to c"),
        Command(args: ["sweep", "s.yaml", "--grid", "policy.max_attempts=2,3", "--out", "w"], leaves: "; the results were written to w"),
        Command(
            args: ["tune", "s.yaml", "--grid", "policy.max_attempts=2,3", "--objective", "tts_p99_s", "--refine", "0", "--out", "t"],
            leaves: "; the results were written to t"),
        Command(args: ["merge", "s0", "s1", "--out", "m"], leaves: "; the results were written to m"),
        Command(args: ["chart", "done"], leaves: "; the charts were written to done"),
        Command(args: ["report", "done"], leaves: "; done/report.html was written")
    ]

    /// A project: OutputSafetyTests' small scenario, its results in `done`, two shards of it in
    /// `s0` and `s1`, and the gRPC service config of `experiments/`.
    func project() throws -> URL {
        let dir = try OutputSafetyTests().project()
        for args in [["--out", "done"], ["--shard", "0/2", "--out", "s0"], ["--shard", "1/2", "--out", "s1"]] {
            let r = try CLI.run(["run", "s.yaml", "--progress", "none"] + args, in: dir)
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("experiments/grpc-service-config.json"), to: dir.appendingPathComponent("grpc.json"))
        return dir
    }

    /// What `dir` holds, the results of `done` with their contents (but report.html's: `report`
    /// titles it after the name scenario.yaml gives, where `run` took the file's, "s").
    func state(_ dir: URL) -> [String] {
        let done = dir.appendingPathComponent("done")
        let files = CLI.entries(done).map { name in
            "done/\(name): " + (name == "report.html" ? "" : ((try? CLI.read(done.appendingPathComponent(name))) ?? "?").prefix(200))
        }
        return (CLI.entries(dir) + files).sorted()
    }

    /// The names a command's results take in the project (`r`, `c`, …), absent before it runs.
    func created(_ command: Command) -> [String] {
        guard let i = command.args.firstIndex(of: "--out") else { return [] }
        return [command.args[i + 1]]
    }

    func quoted(_ args: [String]) -> String { args.map { "'\($0)'" }.joined(separator: " ") }

    /// What `command` writes to stderr before its output (its notes), then `line`.
    func expected(_ command: Command, _ line: String, in dir: URL) throws -> String {
        guard command.notes else { return line }
        let reference = try CLI.run(command.args, in: dir)
        #expect(reference.status == 0 && !reference.stderr.isEmpty, "\(command): \(reference.stderr)")
        return reference.stderr + line
    }

    /// Today's main exits 0 with nothing on stdout and nothing on stderr: `policy export … >
    /// policy.json && deploy policy.json` deploys an empty file.
    @Test("stdout on /dev/full: status 2 and one line 'standard output could not be written: No space left on device'", arguments: commands)
    func fullDevice(command: Command) throws {
        let dir = try project()
        let before = state(dir)
        let r = try CLI.shell("exec \"$RETRYSTORM\" \(quoted(command.args)) >/dev/full", in: dir)
        #expect(!r.signalled && r.status == 2, "\(command): status \(r.status) \(r.stderr)")
        let line = "retrystorm: error: standard output could not be written: No space left on device\(command.leaves)\n"
        let want = try expected(command, line, in: dir)
        #expect(r.stderr == want)
        #expect(state(dir) == (before + created(command)).sorted(), "\(command): \(CLI.entries(dir))")
        for out in created(command) {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(out).appendingPathComponent("summary.csv").path))
        }
    }

    /// Today's main exits 0 with its output cut at the limit: an exported policy that is not
    /// JSON, a table without its last lines.
    @Test("stdout past ulimit -f: status 2, one line naming the limit; the output cut is never a success", arguments: commands)
    func fileSizeLimit(command: Command) throws {
        let dir = try project()
        let before = state(dir)
        // stdout.txt is a byte short of the limit of 1 MiB, so the first write is cut and the
        // next fails; the results themselves are far smaller than the limit.
        let r = try CLI.shell(
            "truncate -s 1048575 ../stdout.txt && ulimit -f 1024 && exec \"$RETRYSTORM\" \(quoted(command.args)) >>../stdout.txt", in: dir)
        #expect(!r.signalled && r.status == 2, "\(command): status \(r.status) \(r.stderr)")
        let line =
            "retrystorm: error: standard output could not be written: file too large for the file-size limit of 1,048,576 bytes (ulimit -f)\(command.leaves)\n"
        let want = try expected(command, line, in: dir)
        #expect(r.stderr == want)
        let size = (try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("../stdout.txt").path)[.size] as? Int) ?? 0
        #expect(size == 1_048_576, "\(command): stdout.txt holds \(size) bytes")
        #expect(state(dir) == (before + created(command)).sorted(), "\(command): \(CLI.entries(dir))")
    }

    /// Today's main exits 0: the perf line and the warnings it could not write are lost unseen.
    @Test("stderr on /dev/full: status 2, stdout as it is; both on /dev/full: status 2", arguments: [false, true])
    func fullStandardError(stdoutToo: Bool) throws {
        let dir = try project()
        let r = try CLI.shell(
            "exec \"$RETRYSTORM\" run s.yaml --out r --progress none 2>/dev/full\(stdoutToo ? " >/dev/full" : "")", in: dir)
        #expect(!r.signalled && r.status == 2, "status \(r.status)")
        #expect(r.stderr == "")
        let table = try CLI.read(dir.appendingPathComponent("r/table.txt"))
        #expect(r.stdout == (stdoutToo ? "" : table + "results: r\n"))
        #expect(!CLI.entries(dir).contains { $0.contains(".tmp-") || $0.contains(".old-") }, "\(CLI.entries(dir))")
    }

    /// Today's main dropped every write (EBADF) and exited 0; and the first file it opened took
    /// the number 1, so what it printed could land in a result file.
    @Test("stdout closed before the start (>&-): status 2, 'Bad file descriptor', the results whole and free of the table")
    func closedAtStart() throws {
        let dir = try OutputSafetyTests().project()
        let keys = try CLI.shell("exec \"$RETRYSTORM\" keys >&-", in: dir)
        #expect(keys.status == 2 && keys.stderr == "retrystorm: error: standard output could not be written: Bad file descriptor\n", "\(keys.stderr)")
        let run = try CLI.shell("exec \"$RETRYSTORM\" run s.yaml --out r --progress none >&-", in: dir)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == "retrystorm: error: standard output could not be written: Bad file descriptor; the results were written to r\n")
        let reference = try CLI.run(["run", "s.yaml", "--out", "again", "--progress", "none"], in: dir)
        #expect(reference.status == 0, "\(reference.stderr)")
        for name in ["summary.csv", "timeseries.csv", "table.txt"] {
            #expect(try CLI.read(dir.appendingPathComponent("r/\(name)")) == CLI.read(dir.appendingPathComponent("again/\(name)")), "\(name)")
        }
    }
}
