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

/// Fresh directories under the system's temporary directory.
public enum Scratch {
    /// A new, empty directory named `prefix`-UUID.
    public static func directory(_ prefix: String = "retrystorm-test") throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }
}
