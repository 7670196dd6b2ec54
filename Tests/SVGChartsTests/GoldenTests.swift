// Golden-file tests: each chart's SVG must match Golden/<name>.svg byte for byte.
//
// To regenerate the goldens after an intended change, run (from the package
// root; the one switch every golden test of RetryStorm honours, CONTRIBUTING.md):
//
//     RETRYSTORM_RECORD_GOLDENS=1 swift test -c release --filter GoldenTests
//
// In record mode the tests write Golden/<name>.svg next to this source file
// (found through #filePath) instead of comparing, and fail, so that a run with
// the switch left on never passes. Rebuild and rerun without it, review the
// diff, render them (rsvg-convert -w 1200 -b white f.svg -o f.png) and look
// before committing. On a mismatch the actual output is written to
// $TMPDIR/svgcharts-actual/<name>.svg for diffing.
import Foundation
import SVGCharts
import Testing

struct GoldenTests {
    static let cases: [(String, any Chart)] = [
        ("line-basic", Fixtures.lineBasic),
        ("line-many-series", Fixtures.lineManySeries),
        ("line-edge-cases", Fixtures.lineEdgeCases),
        ("stacked-attempts", Fixtures.stacked),
        ("small-multiples", Fixtures.smallMultiples),
        ("cdf-duration", Fixtures.cdfDuration),
        ("cdf-number", Fixtures.cdfNumber),
        ("bar-ci", Fixtures.barCI),
        ("bar-log-long-names", Fixtures.barLogLongNames),
        ("heatmap-tuning", Fixtures.heatmap),
        ("heatmap-units", Fixtures.heatmapUnits),
        ("heatmap-log-counts", Fixtures.heatmapLogCounts),
        ("heatmap-dense", Fixtures.heatmapDense),
        ("tts-tail", Fixtures.ttsTail),
        ("dots-tts", Fixtures.dotsTimeToSuccess),
        ("dots-peak-load", Fixtures.dotsPeakLoad),
        ("sweep-line-log", Fixtures.sweepLine),
        ("sweep-line-linear", Fixtures.sweepLinear),
    ]

    @Test(arguments: cases.map(\.0))
    func matchesGolden(name: String) throws {
        let chart = try #require(Self.cases.first { $0.0 == name }?.1)
        let svg = chart.svg()
        #expect(SVGCheck.problems(svg) == [])
        try Golden.check(name, svg)
    }
}

enum Golden {
    static var recording: Bool {
        ProcessInfo.processInfo.environment["RETRYSTORM_RECORD_GOLDENS"] == "1"
    }

    static func check(_ name: String, _ svg: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if recording {
            let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("\(name).svg")
            let changed = (try? String(contentsOf: file, encoding: .utf8)) != svg
            try Data(svg.utf8).write(to: file)
            Issue.record("recorded golden Golden/\(name).svg (\(changed ? "changed" : "unchanged")); rerun without RETRYSTORM_RECORD_GOLDENS",
                         sourceLocation: sourceLocation)
            return
        }
        guard let url = Bundle.module.url(forResource: name, withExtension: "svg", subdirectory: "Golden") else {
            Issue.record("missing golden Golden/\(name).svg; record with RETRYSTORM_RECORD_GOLDENS=1", sourceLocation: sourceLocation)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if svg != expected {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("svgcharts-actual")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? Data(svg.utf8).write(to: folder.appendingPathComponent("\(name).svg"))
            let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let b = svg.split(separator: "\n", omittingEmptySubsequences: false)
            let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            Issue.record(
                "\(name).svg differs from golden at line \(line + 1); actual written to \(folder.path)",
                sourceLocation: sourceLocation)
        }
    }
}
