import Foundation
import RetryStormKit
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import TestSupport
import Testing

/// table.txt (what `run`, `compare`, `sweep` and `tune` print) writes every value as report.html
/// and the heatmaps do: ``ColumnFormat`` over all the points, one unit per column named under
/// its label, counts whole.
@Suite("Terminal tables")
struct TerminalTableTests {
    static func table(_ directory: String) throws -> String {
        let run = try RunDirectory.load(path: ChartsFixtures.path(directory))
        return StudyReport.text(kind: run.results.kind, loaded: run.scenario, metrics: run.metrics)
    }

    @Test("Golden: table.txt for each fixture directory", arguments: ChartsFixtures.directories)
    func golden(directory: String) throws {
        try ChartsFixtures.golden(directory).check("table.txt", try Self.table(directory))
    }

    /// compare/summary.csv, per replication: peak_load_ratio no-jitter 2.9, 2.475, 3.075 (mean
    /// 2.82); tts_p99_s inf, 18.55, inf (two replications lost more than 1%: never; their mean never);
    /// gave_up_fraction 0.045, 0, 0.0325: 2.58%, its interval cut at 0 by the range of a share.
    @Test("compare: the no-jitter row prints the report's numbers, units under the labels; the charts quote its lost share alike")
    func compareRow() throws {
        let text = try Self.table("compare")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("  variant        peak load  amplification"), "\(lines[1])")
        #expect(lines[2].contains("(×)  (attempts/op)") && lines[2].contains("(s)") && lines[2].contains("(%)"), "\(lines[2])")
        let row = try #require(lines.first { $0.hasPrefix("  no-jitter ") })
        #expect(row.contains(" 2.82 ±"), "\(row)")
        #expect(row.contains("  never  "), "\(row)")
        #expect(text.contains("  never: an operation that gave up, was blocked or is unfinished never succeeded"), "\(text)")
        #expect(row.contains(" 2.58 [0.00, 8.35] *"), "\(row)")
        // The time-to-success charts name the same share beside the variant: its lost share, which
        // is the give-up share here (the fixture has nothing blocked or unfinished).
        for chart in ["tts_cdf.svg", "tts_tail.svg"] {
            #expect(
                try #require(try ChartsContentTests.charts("compare")[chart]).chart.svg().contains(">no-jitter (2.58% lost)</text>"), "\(chart)")
        }
    }

    @Test(
        "every value of table.txt prints as in report.html's tables, in the same unit",
        arguments: ["compare", "sweep", "sweep-1d", "populations"])
    func sameAsReport(directory: String) throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path(directory))
        let text = try Self.table(directory)
        let html = try ReportGoldenTests.page(directory)
        let rows = text.split(separator: "\n").map(String.init)
        for column in StudyTable.shown(run.metrics, order: Array(run.metrics.names.indices)) {
            let format = ColumnFormat(metric: column.metric, table: run.metrics)
            for name in run.metrics.names {
                guard let ci = run.metrics.interval(name, column.metric), ci.mean.isFinite else { continue }
                let row = try #require(rows.first { $0.hasPrefix("  \(name) ") }, "\(name)")
                let spread = format.spread(ci)
                #expect(row.contains(" " + format.cell(ci)), "\(name) \(column.metric): \(row)")
                let cell = format.number(ci.mean) + (spread.map { "<span class=\"ci\">\($0)</span>" } ?? "")
                #expect(html.contains(">" + cell + "</td>"), "\(name) \(column.metric): \(cell) not in report.html")
            }
        }
    }

    /// run-2reps: counts are whole numbers (a mean of two replications' counts rounds), each
    /// time row names its unit beside the label.
    @Test("run: counts whole, each row's unit beside its label")
    func runSummary() throws {
        let text = try Self.table("run-2reps")
        let run = try RunDirectory.load(path: ChartsFixtures.path("run-2reps"))
        let name = try #require(run.metrics.names.first)
        for metric in [Metric.operations, .succeeded, .attempts, .rejected] {
            let ci = try #require(run.metrics.interval(name, metric))
            let whole = ColumnFormat(metric: metric, table: run.metrics).number(ci.mean)
            #expect(!whole.contains("."), "\(metric): \(whole)")
            #expect(text.contains(" \(whole) ±") || text.contains(" \(whole)\n"), "\(metric): \(whole)")
        }
        let p99 = ColumnFormat(metric: .ttsP99, table: run.metrics)
        #expect(text.contains("time to success p99 (\(p99.unitSymbol))"))
    }
}
