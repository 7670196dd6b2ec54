import Foundation

/// The package's checkout: the root that holds Package.swift, found from this file's path at
/// compile time. Tests read committed files through it (docs, experiments, results, fixtures and
/// golden files), never through a copy in a test bundle that a build may not have refreshed.
public enum Repository {
    /// The package root (Tests/TestSupport/Repository.swift, three levels up).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `path`, relative to the package root.
    public static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// The text of the committed file at `path` (relative to the package root).
    public static func text(_ path: String) throws -> String { try String(contentsOf: url(path), encoding: .utf8) }
}

/// Fresh directories under the system's temporary directory, all in one directory of the test
/// process that goes when the process exits: a run of the suite makes about 1,700 of them, and
/// left behind they filled a developer's disk over a few days.
public enum Scratch {
    /// A new, empty directory named `prefix`-UUID.
    public static func directory(_ prefix: String = "retrystorm-test") throws -> URL {
        let d = parent.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }

    /// This process's directory of scratch directories, removed at its exit.
    static let parent: URL = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("retrystorm-tests-\(getpid())")
        // A process before this one with the same id left it: nothing in it is this run's.
        try? FileManager.default.removeItem(at: d)
        atexit { Scratch.removeParent() }
        return d
    }()

    private static func removeParent() { try? FileManager.default.removeItem(at: parent) }
}
