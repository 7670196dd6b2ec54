import Foundation
import RetryStormKit
import TestSupport

/// Runs the built `retrystorm` binary and captures what a user would see.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The process ended by a signal (a trap, a crash) rather than by exiting.
        var signalled = false
        /// It was killed after running longer than its timeout.
        var timedOut = false
    }

    /// A missing binary: the CLI tests refuse to run rather than run another build's.
    struct NoBinary: Error, CustomStringConvertible {
        var description: String
    }

    /// The `retrystorm` of this very build: the one in the products directory that holds this test
    /// target's resource bundle (`.build/<triple>/release/` beside `RetryStorm_CLITests.resources`
    /// on Linux, `.bundle` on macOS), or `RETRYSTORM_BIN` when set. Never a fallback: a test run
    /// that found no binary there once ran `.build/release/retrystorm`, whichever build had left it
    /// — an old binary, or the release one under a debug test build — and could pass against it.
    static let located: Swift.Result<URL, NoBinary> = {
        if let env = ProcessInfo.processInfo.environment["RETRYSTORM_BIN"] {
            return FileManager.default.isExecutableFile(atPath: env)
                ? .success(URL(fileURLWithPath: env))
                : .failure(NoBinary(description: "RETRYSTORM_BIN=\(env) is not an executable file"))
        }
        let products = Bundle.module.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent()
        let candidate = products.appendingPathComponent("retrystorm")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            return .failure(
                NoBinary(
                    description: "no retrystorm beside the test bundle in \(products.path): build the tests and the "
                        + "CLI together (swift build -c release --build-tests), or name one with RETRYSTORM_BIN"))
        }
        return .success(candidate)
    }()

    /// The binary under test (see ``located``); throws, failing the test, when there is none.
    static var binary: URL {
        get throws(NoBinary) { try located.get() }
    }

    static let packageRoot = Repository.root

    static func fixture(_ name: String) -> URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(name)
    }

    /// Runs `retrystorm args…` in `directory` and waits for it; with `addressSpaceKiB`, under
    /// that address-space limit (`ulimit -v`, set by a shell that then execs the binary, so a
    /// signal is still seen as the binary's).
    @discardableResult
    static func run(_ args: [String], in directory: URL? = nil, timeout: Double = 600, addressSpaceKiB: Int? = nil) throws -> Result {
        if let kib = addressSpaceKiB {
            return try run(
                program: URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit -v \(kib) && exec \"$0\" \"$@\"", try binary.path] + args,
                in: directory, timeout: timeout)
        }
        return try run(program: try binary, args, in: directory, timeout: timeout)
    }

    /// Runs `bash -c script` in `directory` (for `ulimit`, `unshare`, pipes) and waits for it;
    /// `$RETRYSTORM` in the script is the binary.
    @discardableResult
    static func shell(_ script: String, in directory: URL? = nil, timeout: Double = 600) throws -> Result {
        try run(program: URL(fileURLWithPath: "/bin/bash"), ["-c", "RETRYSTORM=\(try binary.path)\n" + script], in: directory, timeout: timeout)
    }

    /// Runs `program args…` in `directory` and waits for it; `environment` replaces this
    /// process's, `stdout` says where the child's standard output goes (its stderr is captured).
    static func run(
        program: URL, _ args: [String], in directory: URL?, timeout: Double,
        environment: [String: String]? = nil, stdout: ChildProcess.Stream = .capture
    ) throws -> Result {
        let outcome = try ChildProcess.spawn(program.path, args, directory: directory?.path, environment: environment, stdout: stdout)
            .finish(timeout: timeout)
        return Result(outcome)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL { try Scratch.directory() }

    static func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// A `retrystorm` process started in the background, its stderr captured.
    final class Background: @unchecked Sendable {
        let child: ChildProcess

        convenience init(_ args: [String], in directory: URL? = nil) throws {
            try self.init(program: try CLI.binary, args, in: directory)
        }

        /// `bash -c script`, `$RETRYSTORM` being the binary.
        convenience init(shell script: String, in directory: URL? = nil) throws {
            try self.init(program: URL(fileURLWithPath: "/bin/bash"), ["-c", "RETRYSTORM=\(try CLI.binary.path)\n" + script], in: directory)
        }

        init(program: URL, _ args: [String], in directory: URL?) throws {
            child = try ChildProcess.spawn(program.path, args, directory: directory?.path, stdout: .discard)
        }

        var pid: pid_t { child.pid }
        var isRunning: Bool { child.isRunning }
        func send(_ signal: Int32) { child.send(signal) }

        private var finished = false

        /// Waits for it to end: its status (the signal's number when a signal ended it), whether a
        /// signal did, and its stderr.
        func finish() -> (status: Int32, stderr: String, signalled: Bool) {
            finished = true
            let r = Result(child.finish())
            return (r.status, r.stderr, r.signalled)
        }

        /// One never finished (a lock holder sent SIGTERM in a `defer`) is killed and reaped here:
        /// a zombie would stall Swift Testing's exit tests (``ChildProcess/abandon()``).
        deinit {
            if !finished { child.abandon() }
        }
    }

    /// Waits up to `seconds` for `condition`, polling.
    @discardableResult
    static func wait(seconds: Double = 30, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// Waits until a run writing `--out NAME` in `dir` has a whole staging directory: its
    /// ownership marker written and its `.retrystorm` marker after it. A SIGKILL sent earlier can
    /// land between `mkdir` and the marker, leaving an unmarked directory that no run may remove
    /// (OwnershipTests keeps such a one), which is not what a test of a killed simulation means.
    static func waitForStaging(in dir: URL, of name: String) -> Bool {
        wait {
            entries(dir).contains {
                $0.hasPrefix(".\(name).tmp-") && entries(dir.appendingPathComponent($0)).contains(".retrystorm")
            }
        }
    }

    /// The names in `dir`, hidden ones included.
    static func entries(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }
}

extension CLI.Result {
    /// What a finished child left: its exit status, or the number of the signal that ended it.
    init(_ outcome: ChildProcess.Outcome) {
        switch outcome.termination {
        case .exited(let code):
            status = code
            signalled = false
        case .signalled(let signal):
            status = signal
            signalled = true
        }
        stdout = String(decoding: outcome.stdout, as: UTF8.self)
        stderr = String(decoding: outcome.stderr, as: UTF8.self)
        timedOut = outcome.timedOut
    }
}
