import Foundation
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
            return FileManager.default.isExecutableFile(atPath: env) ? .success(URL(fileURLWithPath: env))
                : .failure(NoBinary(description: "RETRYSTORM_BIN=\(env) is not an executable file"))
        }
        let products = Bundle.module.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent()
        let candidate = products.appendingPathComponent("retrystorm")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            return .failure(NoBinary(description: "no retrystorm beside the test bundle in \(products.path): build the tests and the "
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

    private static let launchLock = NSLock()

    /// Starts `p`, one launch at a time across the test process: Foundation's Process.run()
    /// copies the environment and may change the working directory while it spawns, and two at
    /// once from parallel tests crashed it (a bad read in memmove). The children run in parallel.
    static func launch(_ p: Process) throws { try launchLock.withLock { try p.run() } }

    /// Runs `retrystorm args…` in `directory` and waits for it; with `addressSpaceKiB`, under
    /// that address-space limit (`ulimit -v`, set by a shell that then execs the binary, so a
    /// signal is still seen as the binary's).
    @discardableResult
    static func run(_ args: [String], in directory: URL? = nil, timeout: Double = 600, addressSpaceKiB: Int? = nil) throws -> Result {
        if let kib = addressSpaceKiB {
            return try run(program: URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit -v \(kib) && exec \"$0\" \"$@\"", try binary.path] + args,
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

    /// Runs `program args…` in `directory` and waits for it.
    static func run(program: URL, _ args: [String], in directory: URL?, timeout: Double) throws -> Result {
        let p = Process()
        p.executableURL = program
        p.arguments = args
        if let directory { p.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try launch(p)
        let killer = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        // Read both pipes at once, before waiting: a child that fills one pipe while the other is
        // being read to its end would block forever.
        let (o, e) = drain(out, err)
        p.waitUntilExit()
        let timedOut = killer.isCancelled == false && p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGTERM
        killer.cancel()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self),
                      signalled: p.terminationReason == .uncaughtSignal, timedOut: timedOut)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL { try Scratch.directory() }

    static func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// Reads two pipes to their ends concurrently.
    static func drain(_ out: Pipe, _ err: Pipe) -> (Data, Data) {
        final class Box: @unchecked Sendable { var data = Data() }
        let box = Box()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { box.data = err.fileHandleForReading.readDataToEndOfFile() }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        return (o, box.data)
    }

    /// A `retrystorm` process started in the background, its stderr captured.
    final class Background: @unchecked Sendable {
        let process = Process()
        private let err = Pipe()

        convenience init(_ args: [String], in directory: URL? = nil) throws {
            try self.init(program: try CLI.binary, args, in: directory)
        }

        /// `bash -c script`, `$RETRYSTORM` being the binary.
        convenience init(shell script: String, in directory: URL? = nil) throws {
            try self.init(program: URL(fileURLWithPath: "/bin/bash"), ["-c", "RETRYSTORM=\(try CLI.binary.path)\n" + script], in: directory)
        }

        init(program: URL, _ args: [String], in directory: URL?) throws {
            process.executableURL = program
            process.arguments = args
            if let directory { process.currentDirectoryURL = directory }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            try process.run()
        }

        /// Waits for it to end: its status and stderr.
        func finish() -> (status: Int32, stderr: String) {
            let e = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: e, as: UTF8.self))
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

    /// The names in `dir`, hidden ones included.
    static func entries(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }
}
