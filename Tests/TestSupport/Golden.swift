import Foundation
import Testing

/// Golden files: outputs compared byte for byte with a committed copy.
///
/// The one switch of every golden test (CONTRIBUTING.md, "Golden files"):
///
///     RETRYSTORM_RECORD_GOLDENS=1 swift test -c release --skip-build --filter '[Gg]olden'
///
/// rewrites the committed files from the current build and **fails** each test that recorded,
/// saying what it wrote and whether it changed, so a run with the switch left on never passes.
/// Goldens are read from the checkout (``Repository``), where they are recorded, so a recorded
/// golden counts at once, without a rebuild to copy it into a test bundle. On a mismatch the
/// actual output is written to `$TMPDIR/retrystorm-golden-actual/<folder>/<name>` for diffing.
public struct Golden: Sendable {
    /// Whether this run records instead of comparing (`RETRYSTORM_RECORD_GOLDENS=1`).
    public static var recording: Bool { ProcessInfo.processInfo.environment["RETRYSTORM_RECORD_GOLDENS"] == "1" }

    /// The folder of the golden files, relative to the package root (e.g. `Tests/SVGChartsTests/Golden`).
    public let folder: String

    public init(_ folder: String) { self.folder = folder }

    /// Compares `text` with the golden file `name` in ``folder``, or records it and fails.
    public func check(_ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = Repository.url(folder).appendingPathComponent(name)
        let label = "\(folder)/\(name)"
        let committed = try? String(contentsOf: file, encoding: .utf8)
        if Self.recording {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            Issue.record(
                "recorded golden \(label) (\(committed == text ? "unchanged" : "changed")); rerun without RETRYSTORM_RECORD_GOLDENS",
                sourceLocation: sourceLocation)
            return
        }
        guard let committed else {
            Issue.record("missing golden \(label); record it with RETRYSTORM_RECORD_GOLDENS=1", sourceLocation: sourceLocation)
            return
        }
        guard text != committed else { return }
        let actual = FileManager.default.temporaryDirectory.appendingPathComponent("retrystorm-golden-actual/\(folder)")
        try? FileManager.default.createDirectory(at: actual, withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: actual.appendingPathComponent(name))
        Issue.record(
            "\(label) differs at line \(Self.firstDifferentLine(committed, text)); actual written to \(actual.path)/\(name)",
            sourceLocation: sourceLocation)
    }

    /// The 1-based number of the first line where `a` and `b` differ.
    static func firstDifferentLine(_ a: String, _ b: String) -> Int {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false)
        return ((0..<min(x.count, y.count)).first { x[$0] != y[$0] } ?? min(x.count, y.count)) + 1
    }
}
