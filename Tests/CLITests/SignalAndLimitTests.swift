import Foundation
import RetryStormKit
import TestSupport
import Testing

/// No command ends by a signal: a closed pipe, SIGTERM or SIGHUP, a file-size limit, a full
/// disk or an address-space limit each end it with a documented status and one line (or none,
/// for a closed pipe), and nothing half-written is left behind.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct SignalAndLimitTests {
    /// A scenario whose result directory takes `chart` and `report` about a second to redraw
    /// (100,000 buckets of 10 ms per replication): long enough to be interrupted while they work.
    static let large = """
        horizon: 1000s
        bucket: 10ms
        clients: {count: 50, arrival: poisson, rate: 0.1/s}
        variants:
          - {name: a}
          - {name: b, policy.max_attempts: 2}

        """

    func project() throws -> URL { try OutputSafetyTests().project() }

    /// Runs `args` with standard output or error being a pipe whose reader has already gone.
    func closed(_ args: [String], stream: Int32, in dir: URL) throws -> (status: Int32, signalled: Bool, other: String) {
        let closedStdout = stream == STDOUT_FILENO
        let outcome = try ChildProcess.spawn(
            try CLI.binary.path, args, directory: dir.path, stdout: closedStdout ? .closedPipe : .capture,
            stderr: closedStdout ? .capture : .closedPipe
        ).finish(timeout: 600)
        let r = CLI.Result(outcome)
        return (r.status, r.signalled, closedStdout ? r.stderr : r.stdout)
    }

    static let commands: [[String]] = [
        ["keys"], ["metrics"], ["schema"], ["--help"], ["--version"], ["validate", "s.yaml"], ["validate", "missing.yaml"],
        ["run", "s.yaml", "--out", "r"], ["compare", "s.yaml", "--vary", "policy.max_attempts=2,3", "--out", "c"],
        ["sweep", "s.yaml", "--grid", "policy.max_attempts=2,3", "--out", "w"], ["policy", "export", "s.yaml"],
        ["chart", "done"], ["report", "done"], ["merge", "nothing", "--out", "m"]
    ]

    /// Today's main died of SIGPIPE (schema, keys: 141 as a signal) or trapped in FileHandle
    /// (132) writing the perf line or an error to a closed stderr.
    @Test(
        "a closed stdout or stderr ends every command quietly: status 0 or 141, never a signal, nothing half-written",
        arguments: commands.indices)
    func closedPipes(index: Int) throws {
        let dir = try project()
        #expect(try CLI.run(["run", "s.yaml", "--out", "done"], in: dir).status == 0)
        let args = Self.commands[index]
        for stream in [STDOUT_FILENO, STDERR_FILENO] {
            let r = try closed(args, stream: stream, in: dir)
            #expect(!r.signalled, "\(args) with fd \(stream) closed: killed by signal \(r.status)")
            // Status 2 for the commands whose input is bad (missing.yaml, merge of nothing) when
            // the closed stream is stdout: their one line goes to stderr, which is open.
            let expected: Set<Int32> = stream == STDOUT_FILENO && (args.contains("missing.yaml") || args[0] == "merge") ? [2] : [0, 141]
            #expect(expected.contains(r.status), "\(args) with fd \(stream) closed: status \(r.status) \(r.other)")
            #expect(!CLI.entries(dir).contains { $0.contains(".tmp-") || $0.contains(".old-") }, "\(args): \(CLI.entries(dir))")
        }
        // The results a closed pipe found already written stay whole.
        if let out = args.firstIndex(of: "--out").map({ args[$0 + 1] }), args[0] != "merge" {
            #expect(CLI.entries(dir.appendingPathComponent(out)).contains("summary.csv"), "\(args)")
        }
    }

    @Test(
        "SIGTERM and SIGHUP stop chart and report with status 130; every file is the old or the new one, no temporary file is left",
        arguments: [(["chart"], SIGTERM), (["chart"], SIGHUP), (["report"], SIGTERM), (["report"], SIGHUP)])
    func redrawInterrupted(command: [String], signal: Int32) throws {
        let dir = try CLI.temporaryDirectory()
        try Self.large.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["compare", "s.yaml", "--replications", "2", "--out", "big"], in: dir).status == 0)
        let results = dir.appendingPathComponent("big")
        let before = Dictionary(uniqueKeysWithValues: CLI.entries(results).map { ($0, try? Data(contentsOf: results.appendingPathComponent($0))) })
        let p = try CLI.Background(command + ["big"], in: dir)
        usleep(400_000)
        #expect(p.isRunning, "\(command) ended before it could be interrupted: make the fixture larger")
        p.send(signal)
        let (status, stderr, signalled) = p.finish()
        // Today's main: killed by the signal itself (143, 129).
        #expect(!signalled && status == 130, "signalled: \(signalled) \(status) \(stderr)")
        #expect(stderr.contains("retrystorm: interrupted;"), "\(stderr)")
        #expect(CLI.entries(results) == before.keys.sorted(), "files appeared or went: \(CLI.entries(results))")
        for (name, data) in before {
            // Redrawing gives the same bytes, so an old and a new file are equal: any other
            // content is a half-written one.
            #expect((try? Data(contentsOf: results.appendingPathComponent(name))) == data, "\(name) changed")
        }
    }

    @Test(
        "the other signals that would end a command (SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM) stop it like SIGTERM: 130, nothing left",
        arguments: [SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM])
    func otherSignals(signal: Int32) throws {
        let dir = try project()
        let run = try CLI.Background(["run", "s.yaml", "--out", "a/out"] + OutputSafetyTests.slow, in: dir)
        #expect(CLI.wait { CLI.entries(dir.appendingPathComponent("a")).contains { $0.hasPrefix(".out.tmp-") } })
        run.send(signal)
        let (status, stderr, signalled) = run.finish()
        #expect(!signalled && status == 130, "\(status) \(stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a").path), "\(CLI.entries(dir))")
    }

    /// A soft CPU-time limit sends SIGXCPU (the hard one, SIGKILL, cannot be caught: what such a
    /// run leaves, the next run removes — OwnershipTests).
    @Test("a CPU-time limit (ulimit -S -t, SIGXCPU) is exit 2 naming it, with nothing left behind")
    func cpuTimeLimit() throws {
        let dir = try project()
        let r = try CLI.shell(
            "ulimit -S -t 1; exec \"$RETRYSTORM\" run s.yaml --out a/out \(OutputSafetyTests.slow.joined(separator: " ")) --set clients.count=1000000",
            in: dir)
        #expect(r.status == 2 && !r.signalled, "\(r.status) \(r.stderr)")
        #expect(r.stderr.hasSuffix("retrystorm: error: the CPU-time limit (ulimit -t) was reached; no results were written\n"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a").path), "\(CLI.entries(dir))")
    }

    @Test(
        "a file-size limit (ulimit -f, SIGXFSZ) is exit 2 with 'file too large', and nothing is left behind",
        arguments: ["run s.yaml --out a/b/out", "compare s.yaml --vary policy.max_attempts=2,3 --out a/b/out", "run s.yaml --out done --force"])
    func fileSizeLimit(command: String) throws {
        let dir = try project()
        #expect(try CLI.run(["run", "s.yaml", "--out", "done"], in: dir).status == 0)
        let earlier = try CLI.read(dir.appendingPathComponent("done/summary.csv"))
        let before = CLI.entries(dir)
        // 16 KiB: the scenario's timeseries.csv is larger.
        let r = try CLI.shell("ulimit -f 16; exec \"$RETRYSTORM\" \(command)", in: dir)
        // Today's main: killed by SIGXFSZ (153), its staging directory and reservation left behind.
        #expect(r.status == 2 && !r.signalled, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("file too large") && r.stderr.contains("16,384 bytes") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(CLI.entries(dir) == before, "left behind: \(CLI.entries(dir))")
        #expect(try CLI.read(dir.appendingPathComponent("done/summary.csv")) == earlier)
    }

    @Test("chart and report under a file-size limit: exit 2, the files as they were, no temporary file", arguments: ["chart", "report"])
    func redrawFileSizeLimit(command: String) throws {
        let dir = try project()
        #expect(try CLI.run(["run", "s.yaml", "--out", "done"], in: dir).status == 0)
        let results = dir.appendingPathComponent("done")
        let before = Dictionary(uniqueKeysWithValues: CLI.entries(results).map { ($0, try? Data(contentsOf: results.appendingPathComponent($0))) })
        let r = try CLI.shell("ulimit -f 4; exec \"$RETRYSTORM\" \(command) done", in: dir)
        #expect(r.status == 2 && !r.signalled && r.stderr.contains("file too large"), "\(r.status) \(r.stderr)")
        #expect(CLI.entries(results) == before.keys.sorted(), "\(CLI.entries(results))")
        for (name, data) in before { #expect((try? Data(contentsOf: results.appendingPathComponent(name))) == data, "\(name) changed") }
    }

    static let canMount = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

    /// Today's main said "the file system refused it".
    @Test(
        "a full disk: exit 2 naming 'No space left on device'; nothing half-written, earlier results kept", .enabled(if: canMount),
        arguments: ["run ../s.yaml --out out", "run ../s.yaml --out done --force", "chart done", "report done"])
    func fullDisk(command: String) throws {
        let dir = try project()
        let disk = dir.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        // A 1 MiB file system in a mount namespace of its own: the results of the first run
        // fit, then a file of zeros fills what is left.
        let r = try CLI.shell(
            """
            exec unshare --mount bash -c '
              mount -t tmpfs -o size=1m tmpfs disk && cd disk &&
              "$0" run ../s.yaml --out done >/dev/null 2>&1 &&
              (dd if=/dev/zero of=filler bs=1k count=2000 2>/dev/null; true) &&
              find . -type f | sort | xargs md5sum > ../before.txt &&
              "$0" \(command); status=$?
              find . -type f | sort | xargs md5sum > ../after.txt; ls -a > ../entries.txt; exit $status' "$RETRYSTORM"
            """, in: dir)
        #expect(r.status == 2 && !r.signalled, "\(r.status) \(r.stderr)")
        #expect(r.stderr.hasSuffix("No space left on device\n") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(try CLI.read(dir.appendingPathComponent("before.txt")) == CLI.read(dir.appendingPathComponent("after.txt")))
        #expect(try CLI.read(dir.appendingPathComponent("entries.txt")) == ".\n..\ndone\nfiller\n")
    }

    /// What the Swift runtime writes before `main` when the address space left cannot hold its
    /// crash handler (Swift 6.3 on Linux).
    static let runtimeBacktraceLine = "swift runtime: crash handler installation failed; disabling backtracing."

    /// Today's main trapped (SIGSEGV, SIGABRT, SIGILL in the runtime's allocations) with a few
    /// MiB of address space left, and Dispatch's signal sources hung `keys` at `ulimit -v 80000`.
    @Test(
        "under any ulimit -v every command exits 0 or 2 with one line, never by a signal or a hang",
        arguments: [
            ["keys"], ["schema"], ["validate", "s.yaml"], ["run", "s.yaml", "--out", "o"], ["chart", "done"], ["report", "done"],
            ["compare", "s.yaml", "--vary", "policy.max_attempts=2,3", "--jobs", "2", "--out", "c"]
        ])
    func addressSpaceLimit(args: [String]) throws {
        let dir = try project()
        #expect(try CLI.run(["run", "s.yaml", "--out", "done"], in: dir).status == 0)
        var statuses: Set<Int32> = []
        // From below what the dynamic loader needs to well above what the commands need (KiB).
        for limit in stride(from: 70_000, through: 160_000, by: 6_000) {
            let quoted = args.map { "'\($0)'" }.joined(separator: " ")
            let r = try CLI.shell("ulimit -v \(limit); exec \"$RETRYSTORM\" \(quoted); ", in: dir, timeout: 60)
            if r.signalled && r.stderr.isEmpty {
                // In the last few hundred KiB above what the loader needs, libswiftCore's own
                // load-time registration (swift_addNewDSOImage, called by the loader before main:
                // no code of ours has run) can fail to allocate and trap. Measured on Swift 6.3.1
                // with gdb: SIGILL in _registerProtocols at `ulimit -v 82000`, where 81,750 KiB
                // fails in the loader and 82,250 KiB reaches RetryStorm's own refusal. Allowed
                // only there: 256 KiB less, the loader itself must fail.
                let below = try CLI.shell("ulimit -v \(limit - 256); exec \"$RETRYSTORM\" \(quoted); ", in: dir, timeout: 60)
                #expect(below.status == 127, "ulimit -v \(limit) \(args): a signal above the loader's window \(below.status)")
                continue
            }
            #expect(!r.signalled && !r.timedOut, "ulimit -v \(limit) \(args): signal or hang \(r.status) \(r.stderr.prefix(300))")
            if r.status == 127 {
                // The dynamic loader, before any of RetryStorm's code runs.
                #expect(r.stderr.contains("error while loading shared libraries"), "\(r.stderr.prefix(300))")
            } else {
                #expect([0, 2].contains(r.status), "ulimit -v \(limit) \(args): status \(r.status) \(r.stderr.prefix(300))")
                // Within a few hundred KiB above what the loader needs, the Swift runtime's own
                // initialiser (in libswiftCore, before any code of ours, which cannot silence it)
                // fails to install its crash handler and says so on a line of its own; the line
                // RetryStorm writes is still the one.
                let ours = r.stderr.split(separator: "\n").filter { !$0.hasPrefix(Self.runtimeBacktraceLine) }
                if r.status == 2 { #expect(ours.count == 1 && r.stderr.contains("ulimit -v"), "\(r.stderr)") }
            }
            statuses.insert(r.status)
            if let out = args.firstIndex(of: "--out").map({ args[$0 + 1] }) {
                try? FileManager.default.removeItem(at: dir.appendingPathComponent(out))
            }
        }
        #expect(statuses.contains(0) && statuses.contains(2), "the range does not span refusal and success: \(statuses)")
    }

    @Test(
        "variant and population names a spreadsheet would run as a formula are refused, naming the field",
        arguments: ["=cmd", "+1", "-x", "@SUM"])
    func formulaNames(name: String) throws {
        let dir = try project()
        let variant = "horizon: 10s\nvariants:\n  - {name: '\(name)', policy.max_attempts: 2}\n"
        try variant.write(to: dir.appendingPathComponent("v.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["validate", "v.yaml"], in: dir)
        #expect(
            r.status == 2
                && r.stderr
                    == "retrystorm: error: v.yaml:3:5: field 'variants.name': '\(name)' starts with '\(name.first!)', which a spreadsheet runs as a formula when it opens the CSV files: start the name with a letter or a digit\n",
            "\(r.stderr)")
        // Population names hold letters, digits, - and _: of the formula characters, only '-'.
        guard name.first == "-" else { return }
        let population = "horizon: 10s\npopulations:\n  - {name: '\(name)', share: 10%}\n  - {name: v1, share: 90%}\n"
        try population.write(to: dir.appendingPathComponent("p.yaml"), atomically: true, encoding: .utf8)
        let p = try CLI.run(["validate", "p.yaml"], in: dir)
        #expect(p.status == 2 && p.stderr.contains("field 'populations.name': '\(name)' starts with '-'"), "\(p.stderr)")
    }

}
