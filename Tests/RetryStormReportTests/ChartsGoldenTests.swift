import Foundation
import RetryStormKit
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import TestSupport
import Testing

/// Every chart of every fixture directory equals its golden SVG byte for byte.
@Suite("Charts golden files")
struct ChartsGoldenTests {
    static let perVariant = [
        "load.svg", "peak_load.svg", "attempts.svg", "queue.svg", "failures.svg",
        "tts_cdf.svg", "tts_tail.svg", "tts_p50_p99.svg"
    ]
    static let expectedFiles: [String: [String]] = [
        "run-2reps": perVariant,
        "compare": perVariant,
        // A sweep's directory holds summaries only: its charts are the metrics over the grid —
        // tune.json's objective and constrained metrics, else p99 and peak load.
        "sweep": ["sweep_tts_success_p99_s.svg", "sweep_peak_load_ratio.svg", "sweep_gave_up.svg"],
        "sweep-1d": ["sweep_tts_success_p99_s.svg", "sweep_peak_load_ratio.svg"],
        "sweep-invalid": ["sweep_tts_p99_s.svg", "sweep_peak_load_ratio.svg"],
        // With populations, whose load it is comes right after where it comes from.
        "populations": [
            "load.svg", "peak_load.svg", "attempts.svg", "load_populations.svg", "queue.svg", "failures.svg",
            "tts_cdf.svg", "tts_tail.svg", "tts_p50_p99.svg", "tts_populations.svg"
        ],
        // A call graph adds who calls whom, each service's load and where the requests land, after
        // the fleet's load; a one-hop directory above gets none of them.
        "services": [
            "load.svg", "peak_load.svg", "attempts.svg", "graph.svg", "load_services.svg", "amplification_services.svg", "queue.svg", "failures.svg",
            "tts_cdf.svg", "tts_tail.svg", "tts_p50_p99.svg"
        ]
    ]

    @Test("Golden: each builder's SVG for each fixture directory", arguments: ChartsFixtures.directories)
    func golden(directory: String) throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path(directory))
        let charts = ChartSet.charts(for: run)
        #expect(charts.map(\.fileName) == Self.expectedFiles[directory])
        for chart in charts {
            let svg = chart.chart.svg()
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(svg.hasSuffix("</svg>\n"))
            // Non-finite numbers must never reach the drawing.
            for bad in ["nan", "inf\"", "NaN"] { #expect(!svg.contains(bad), "\(chart.fileName) contains \(bad)") }
            try ChartsFixtures.golden(directory).check(chart.fileName, svg)
        }
    }
}
