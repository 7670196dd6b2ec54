// Golden-file tests: each chart's SVG must match Golden/<name>.svg byte for byte.
//
// To regenerate the goldens after an intended change, run (from the package
// root; the one switch every golden test of RetryStorm honours, CONTRIBUTING.md):
//
//     RETRYSTORM_RECORD_GOLDENS=1 swift test -c release --skip-build --filter GoldenTests
//
// In record mode the tests write Golden/<name>.svg in the checkout instead of
// comparing, and fail, so that a run with the switch left on never passes (TestSupport's
// `Golden`). Rerun without it, review the diff, render them (rsvg-convert -w 1200
// -b white f.svg -o f.png) and look before committing. On a mismatch the actual
// output is written under $TMPDIR/retrystorm-golden-actual/ for diffing.
import Foundation
import SVGCharts
import TestSupport
import Testing

struct GoldenTests {
    static let golden = Golden("Tests/SVGChartsTests/Golden")

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
        ("sweep-line-linear", Fixtures.sweepLinear)
    ]

    @Test(arguments: cases.map(\.0))
    func matchesGolden(name: String) throws {
        let chart = try #require(Self.cases.first { $0.0 == name }?.1)
        let svg = chart.svg()
        #expect(SVGCheck.problems(svg) == [])
        try Self.golden.check("\(name).svg", svg)
    }
}
