import Foundation
import TestSupport
import Testing

/// Seeded, bounded fuzz tests of the files RetryStorm reads besides scenarios: curve files
/// (`load.csv`, `server.capacity_csv`, a service's `services.NAME.server.capacity_csv`) and
/// result and shard directories (`report`, `chart`, `merge`). Mutants are cut short, given huge, NaN or binary values, `\r`s and enormous lines;
/// files are swapped, deleted, or replaced by a FIFO, a directory, a kernel file that reports
/// size 0 or a link to /dev/zero. Every mutant exits 0 or 2 with one line on stderr, never a
/// trap, a signal or a hang, and leaves nothing half-written.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct InputFuzzTests {
    typealias LCG = MergeFuzzTests.LCG

    /// What a byte string can be replaced by, for a file that is read.
    static let specials = ["fifo", "directory", "/dev/zero", "/proc/kallsyms", "/proc/self/pagemap", "/proc/self/status"]

    /// Puts `special` (``specials``) at `file`.
    static func place(_ special: String, at file: URL) throws {
        try? FileManager.default.removeItem(at: file)
        switch special {
        case "fifo": _ = mkfifo(file.path, 0o600)
        case "directory": try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        default: try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: special)
        }
    }

    static let values = [
        "1e308", "1e400", "-1e308", "nan", "NaN", "inf", "-inf", "99999999999999999999", "-0", "0x10", "1e-400",
        "", " ", "1,2", "\"3\"", "1_000", "٣", "\u{0}", "9223372036854775808", "4.9e-324"
    ]

    /// One to three mutations of `bytes`: cut, bytes flipped, a value replaced, `\r`s, an
    /// enormous line (up to 2 MB), lines deleted, duplicated or swapped.
    static func mutate(_ bytes: [UInt8], _ rng: inout LCG) -> [UInt8] {
        var b = bytes
        for _ in 0...rng.below(3) {
            switch rng.below(8) {
            case 0: b = Array(b.prefix(rng.below(b.count + 1)))
            case 1:
                for _ in 0...rng.below(4) where !b.isEmpty { b[rng.below(b.count)] = UInt8(truncatingIfNeeded: rng.next()) }
            case 2:
                var lines = b.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
                let i = rng.below(lines.count)
                var fields = lines[i].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(Array.init)
                fields[rng.below(fields.count)] = Array(rng.pick(values).utf8)
                lines[i] = Array(fields.joined(separator: [UInt8(ascii: ",")]))
                b = Array(lines.joined(separator: [10]))
            case 3: b = b.flatMap { $0 == 10 && rng.below(2) == 0 ? [13, 10] : [$0] }
            case 4: b.insert(13, at: rng.below(b.count + 1))
            case 5:
                let line = [UInt8](repeating: rng.pick([UInt8(ascii: "9"), UInt8(ascii: ","), UInt8(ascii: "a"), 0]), count: 1 + rng.below(2_000_000))
                b.insert(contentsOf: line, at: rng.below(b.count + 1))
            case 6:
                var lines = b.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
                let i = rng.below(lines.count)
                if rng.below(2) == 0 { lines.remove(at: i) } else { lines.insert(lines[i], at: i) }
                if lines.isEmpty { lines = [[]] }
                b = Array(lines.joined(separator: [10]))
            default:
                var lines = b.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
                lines.swapAt(rng.below(lines.count), rng.below(lines.count))
                b = Array(lines.joined(separator: [10]))
            }
        }
        return b
    }

    /// The outcome every mutant must have: no trap, signal or hang; 0, or 2 with one line.
    static func check(_ r: CLI.Result, _ context: @autoclosure () -> String) {
        #expect(!r.timedOut && !r.signalled, "trap or hang (status \(r.status)): \(context())")
        #expect([0, 2].contains(r.status), "status \(r.status): \(context())")
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Backtrace"), "trace: \(context())")
        if r.status == 2 {
            #expect(r.stderr.hasPrefix("retrystorm: error: ") && r.stderr.filter { $0 == "\n" }.count == 1, "not one line: \(context())")
        }
    }

    /// Every fuzzed command runs under `ulimit -v 2000000` (1.9 GiB): a kernel file that reports
    /// size 0 is read up to what that leaves (about 120 MB of results), not up to this machine's
    /// memory — and a reader without a bound (main's) fails there instead of exhausting the machine.
    static let limit = 2_000_000

    /// How long one fuzzed command may run before it counts as a hang: each takes well under a
    /// second alone, but CI machines are shared, and a 30 s limit failed once on a 2-core machine
    /// busy compiling beside the suite (a report killed at 30 s, status 130).
    static let hang = 120.0

    static let scenario = "horizon: 30s\nclients: {count: 50, rate: 1/s, timeout: 2s}\nserver: {capacity: 100/s}\n"

    @Test(
        "200 mutated load.csv and server.capacity_csv files (a service's too): validate (every tenth, run) exits 0 or 2 with one line — no trap, signal or hang, no output left by a refusal"
    )
    func curveFiles() throws {
        let dir = try CLI.temporaryDirectory()
        // Each seed: the scenario's keys (naming the file), the file and its text.
        let seeds: [(keys: String, file: String, text: String)] = [
            ("load.csv: traffic.csv\n", "traffic.csv", "t_s,multiplier\n0,1\n10,3\n12.5,0.5\n20,1\n"),
            ("server.capacity_csv: capacity.csv\n", "capacity.csv", "t_s,capacity_per_s\n0,100\n5,10\n15,100\n"),
            (
                "services:\n  - {name: api, server: {capacity: 100/s}, calls: [{to: db}]}\n  - {name: db, server.capacity_csv: capacity.csv}\n",
                "capacity.csv", "t_s,capacity_per_s\n0,100\n5,10\n15,100\n"
            )
        ]
        var rng = LCG(x: 20_261_126)
        var outcomes = [Int32: Int]()
        for n in 0..<200 {
            let seed = rng.pick(seeds)
            let file = dir.appendingPathComponent(seed.file)
            var what = "mutated"
            if rng.below(20) == 0 {
                what = rng.pick(Self.specials)
                try Self.place(what, at: file)
            } else {
                try? FileManager.default.removeItem(at: file)
                try Data(Self.mutate(Array(seed.text.utf8), &rng)).write(to: file)
            }
            let yaml = dir.appendingPathComponent("s.yaml")
            let head =
                seed.keys.hasPrefix("services") ? Self.scenario.replacingOccurrences(of: "server: {capacity: 100/s}\n", with: "") : Self.scenario
            try (head + seed.keys).write(to: yaml, atomically: true, encoding: .utf8)
            let out = dir.appendingPathComponent("o\(n)")
            let args = n % 10 == 0 ? ["run", yaml.path, "--out", out.path, "--jobs", "1", "--progress", "none"] : ["validate", yaml.path]
            let r = try CLI.run(args, timeout: Self.hang, addressSpaceKiB: Self.limit)
            outcomes[r.status, default: 0] += 1
            let shown =
                what == "mutated"
                ? (try? Data(contentsOf: file)).map { String(decoding: $0.prefix(300), as: UTF8.self).debugDescription } ?? "" : what
            Self.check(r, "mutant \(n) of \(seed.file) (\(what)): \(shown)\n--- stderr:\n\(r.stderr.prefix(1000))")
            if r.status == 2 { #expect(!FileManager.default.fileExists(atPath: out.path), "mutant \(n): output left") }
            if r.signalled || r.timedOut { break }
        }
        // Both sides are reached: some mutants stay valid curves, most are refused.
        #expect((outcomes[0] ?? 0) > 20 && (outcomes[2] ?? 0) > 70, "\(outcomes)")
    }

    /// The result directories fuzzed: a run, a compare, a sweep and a run with populations of
    /// the tiny fixtures, made once.
    static let directories: Result<URL, any Error> = Result {
        let root = try CLI.temporaryDirectory()
        let tiny = CLI.fixture("tiny.yaml").path
        for (name, args) in [
            ("run", ["run", tiny]), ("compare", ["compare", tiny, "--vary", "policy.backoff.jitter=none,full", "--replications", "2"]),
            ("sweep", ["sweep", tiny, "--grid", "policy.max_attempts=2,3", "--replications", "2"]),
            ("populations", ["run", CLI.fixture("tiny-populations.yaml").path])
        ] {
            let r = try CLI.run(args + ["--out", root.appendingPathComponent(name).path, "--jobs", "1"])
            guard r.status == 0 else { throw ShardWorkspace.ShardSetupError(message: r.stderr) }
        }
        return root
    }

    /// The files report and chart read, that a mutation may touch.
    static let read = [
        "timeseries.csv", "summary.csv", "tts_quantiles.csv", "compare.csv", "sweep.csv", "table.txt", "command.txt",
        "scenario.yaml", "populations.csv", "timeseries_populations.csv"
    ]

    /// One mutation of the directory `dir`: a file's bytes (``mutate(_:_:)``), two files swapped,
    /// a file deleted or replaced by a special file (``specials``); a description.
    static func mutate(directory dir: URL, files: [String], _ rng: inout LCG) throws -> String {
        let name = rng.pick(files)
        let file = dir.appendingPathComponent(name)
        // An earlier mutation of this directory may have deleted or moved it: nothing to mutate.
        var info = stat()
        guard lstat(file.path, &info) == 0 else { return "keep \(name) (already gone)" }
        switch rng.below(10) {
        case 0:
            let other = rng.pick(files)
            guard lstat(dir.appendingPathComponent(other).path, &info) == 0 else { return "keep \(name) (\(other) already gone)" }
            let temporary = dir.appendingPathComponent("swap.tmp")
            try FileManager.default.moveItem(at: file, to: temporary)
            if other != name { try FileManager.default.moveItem(at: dir.appendingPathComponent(other), to: file) }
            try FileManager.default.moveItem(at: temporary, to: dir.appendingPathComponent(other))
            return "swap \(name) and \(other)"
        case 1:
            try FileManager.default.removeItem(at: file)
            return "delete \(name)"
        case 2:
            let special = rng.pick(Self.specials)
            try Self.place(special, at: file)
            return "\(name) := \(special)"
        default:
            // Only a regular file's bytes (not a FIFO or /proc file an earlier mutation put there).
            guard isRegular(file) else { return "keep \(name)" }
            let bytes = try [UInt8](Data(contentsOf: file))
            try Data(Self.mutate(bytes, &rng)).write(to: file)
            return "mutate \(name)"
        }
    }

    /// Whether `file` is a regular file itself (not a link, a FIFO or a directory).
    static func isRegular(_ file: URL) -> Bool {
        var info = stat()
        return lstat(file.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    @Test(
        "300 mutated result directories (bytes, swapped, deleted, FIFO, /proc, /dev/zero): report and chart exit 0 or 2 with one line, leave no partial file"
    )
    func resultDirectories() throws {
        let made = try Self.directories.get()
        let kinds = ["run", "compare", "sweep", "populations"]
        var rng = LCG(x: 20_261_127)
        var outcomes = [Int32: Int]()
        for n in 0..<300 {
            let kind = rng.pick(kinds)
            let dir = try CLI.temporaryDirectory().appendingPathComponent(kind)
            try FileManager.default.copyItem(at: made.appendingPathComponent(kind), to: dir)
            let files = Self.read.filter { FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path) }
            var notes: [String] = []
            for _ in 0...rng.below(2) { notes.append(try Self.mutate(directory: dir, files: files, &rng)) }
            let before = Set(CLI.entries(dir))
            let command = rng.pick(["report", "chart"])
            let r = try CLI.run([command, dir.path], timeout: Self.hang, addressSpaceKiB: Self.limit)
            outcomes[r.status, default: 0] += 1
            Self.check(r, "mutant \(n): \(command) \(kind): \(notes.joined(separator: "; "))\n--- stderr:\n\(r.stderr.prefix(1000))")
            // Only whole files were added: report.html or the charts, each moved into place.
            let added = Set(CLI.entries(dir)).subtracting(before)
            #expect(added.allSatisfy { $0 == "report.html" || $0.hasSuffix(".svg") }, "mutant \(n): \(added.sorted())")
            if r.status == 2 { #expect(added.isEmpty, "mutant \(n): a refusal wrote \(added.sorted())") }
            try? FileManager.default.removeItem(at: dir.deletingLastPathComponent())
            if r.signalled || r.timedOut { break }
        }
        #expect((outcomes[0] ?? 0) > 20 && (outcomes[2] ?? 0) > 150, "\(outcomes)")
    }

    @Test(
        "60 shard directories with files swapped, deleted, or made a FIFO, /proc or /dev/zero: merge exits 0 or 2 with one line, writes nothing on a refusal"
    )
    func shardDirectories() throws {
        var rng = LCG(x: 20_261_128)
        var outcomes = [Int32: Int]()
        for n in 0..<60 {
            let w = try ShardWorkspace()
            let shard = rng.below(3)
            let dir = URL(fileURLWithPath: w.shard(shard))
            let files = ["shard.json", "summary.csv", "timeseries.csv", "tts_quantiles.csv", "command.txt", "scenario.yaml"]
            var note = ""
            switch rng.below(3) {
            case 1:
                let name = rng.pick(files)
                let special = rng.pick(Self.specials)
                try Self.place(special, at: dir.appendingPathComponent(name))
                note = "\(name) := \(special)"
            case 0:
                // Two shards' copies of one file swapped.
                let name = rng.pick(files)
                let other = (shard + 1) % 3
                let a = dir.appendingPathComponent(name)
                let b = URL(fileURLWithPath: w.file(other, name))
                let t = w.root.appendingPathComponent("t")
                try FileManager.default.moveItem(at: a, to: t)
                try FileManager.default.moveItem(at: b, to: a)
                try FileManager.default.moveItem(at: t, to: b)
                note = "swap s\(shard)/\(name) and s\(other)/\(name)"
            default:
                note = try Self.mutate(directory: dir, files: files, &rng)
            }
            let r = try CLI.run(ResultsBoundsTests.mergeArguments(w), timeout: Self.hang, addressSpaceKiB: Self.limit)
            outcomes[r.status, default: 0] += 1
            Self.check(r, "mutant \(n): s\(shard): \(note)\n--- stderr:\n\(r.stderr.prefix(1000))")
            if r.status == 2 { #expect(try w.leftovers() == [], "mutant \(n): left behind") }
            if r.signalled || r.timedOut { break }
        }
        #expect((outcomes[2] ?? 0) > 40, "\(outcomes)")
    }
}
