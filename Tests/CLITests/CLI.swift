import Foundation

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

    /// The binary next to the test bundle (same build configuration), or `RETRYSTORM_BIN`.
    static let binary: URL = {
        if let env = ProcessInfo.processInfo.environment["RETRYSTORM_BIN"] { return URL(fileURLWithPath: env) }
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for dir in [products, products.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("retrystorm")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/release/retrystorm")
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) -> URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(name)
    }

    /// Runs `retrystorm args…` in `directory` and waits for it.
    @discardableResult
    static func run(_ args: [String], in directory: URL? = nil, timeout: Double = 600) throws -> Result {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        if let directory { p.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let killer = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        // Read before waiting so a full pipe cannot block the child.
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let timedOut = killer.isCancelled == false && p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGTERM
        killer.cancel()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self),
                      signalled: p.terminationReason == .uncaughtSignal, timedOut: timedOut)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("retrystorm-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }

    static func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }
}
