import Foundation
import Testing

/// The fixture run directories under Fixtures/ (made by Fixtures/make-fixtures.sh) and their
/// golden outputs under Fixtures/golden/<directory>/.
///
/// To rewrite the goldens after an intended change (the one switch every golden test honours,
/// CONTRIBUTING.md):
///
///     RETRYSTORM_RECORD_GOLDENS=1 swift test -c release --filter Golden
///
/// Recording fails the tests, so a run with the switch left on never passes. Rerun without it,
/// review the diff and render the SVGs (`rsvg-convert -w 1200 -b white f.svg -o f.png`) and look
/// at them before committing. On a mismatch the actual output is written to
/// $TMPDIR/retrystorm-charts-actual/<directory>/<name>.
enum ChartsFixtures {
    /// run-2reps: a `run` with 2 replications; compare: three variants with compare.csv;
    /// sweep: a 3 × 3 grid with sweep.csv and tune.json; sweep-1d: a tune over one key, refined
    /// (values unevenly spaced); sweep-invalid: a 3 × 3 sweep with invalid combinations left out;
    /// populations: two rollout stages of a fleet with two client populations.
    static let directories = ["run-2reps", "compare", "sweep", "sweep-1d", "sweep-invalid", "populations"]

    static func path(_ directory: String) -> String {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(directory).path
    }

    static var recording: Bool { ProcessInfo.processInfo.environment["RETRYSTORM_RECORD_GOLDENS"] == "1" }

    /// Compares `text` with Fixtures/golden/`directory`/`name` byte for byte, or records it and
    /// fails (RETRYSTORM_RECORD_GOLDENS=1).
    static func checkGolden(_ directory: String, _ name: String, _ text: String,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        if recording {
            let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/golden/\(directory)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent(name)
            let changed = (try? String(contentsOf: file, encoding: .utf8)) != text
            try Data(text.utf8).write(to: file)
            Issue.record("recorded golden golden/\(directory)/\(name) (\(changed ? "changed" : "unchanged")); rerun without RETRYSTORM_RECORD_GOLDENS",
                         sourceLocation: sourceLocation)
            return
        }
        let url = URL(fileURLWithPath: path("golden/\(directory)/\(name)"))
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing golden golden/\(directory)/\(name); record with RETRYSTORM_RECORD_GOLDENS=1", sourceLocation: sourceLocation)
            return
        }
        guard text != expected else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("retrystorm-charts-actual/\(directory)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: folder.appendingPathComponent(name))
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let b = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        Issue.record("golden/\(directory)/\(name) differs at line \(line + 1); actual written to \(folder.path)",
                     sourceLocation: sourceLocation)
    }

    /// A fresh copy of a fixture directory in a temporary directory named `name`.
    static func copy(_ directory: String, as name: String = UUID().uuidString) throws -> String {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("retrystorm-charts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let target = parent.appendingPathComponent(name)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: path(directory)), to: target)
        return target.path
    }
}
