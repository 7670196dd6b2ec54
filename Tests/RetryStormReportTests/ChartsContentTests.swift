import Foundation
import RetryStormKit
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import SVGCharts
import TestSupport
import Testing

/// What each chart of issue 14 ("charts that do not mislead") must show, checked on the fixture
/// directories beside the golden files: the kind of chart, the lines and marks it draws, and the
/// caption's verdict, each from the fixture's own numbers.
@Suite("Charts content")
struct ChartsContentTests {
    static func charts(_ directory: String) throws -> [String: NamedChart] {
        let run = try RunDirectory.load(path: ChartsFixtures.path(directory))
        return Dictionary(uniqueKeysWithValues: ChartSet.charts(for: run).map { ($0.fileName, $0) })
    }

    @Test("p50/p99 and peak load are points with whiskers, not bars; a one-key sweep is a line, two keys a heatmap")
    func chartKinds() throws {
        let compare = try Self.charts("compare")
        #expect(compare["tts_p50_p99.svg"]?.chart is DotPlot)
        #expect(compare["peak_load.svg"]?.chart is DotPlot)
        #expect(try Self.charts("sweep-1d").values.allSatisfy { $0.chart is IntervalLineChart })
        #expect(try Self.charts("sweep").values.allSatisfy { $0.chart is Heatmap })
    }

    /// The fixture's summary.csv: gave_up_fraction per replication no-jitter 0.045, 0, 0.0325;
    /// equal-jitter 0.2525, 0.215, 0.25; full-jitter 0.3975, 0.3325, 0.385 — every paired difference
    /// from no-jitter is clearly above 0 (and over 0.1 points), so equal-jitter and full-jitter get
    /// no ★ on p99 among successes. No-jitter's p99 (18.3, 18.6, 18.6 s) is the highest: it beats
    /// no one clearly, so it is not best by default either (issue 26) — no ★ at all.
    @Test("no ★ on p99 for the variants that lose clearly more, nor for no-jitter by default")
    func starOnP99() throws {
        let chart = try #require(try Self.charts("compare")["tts_p50_p99.svg"])
        #expect(
            chart.caption.hasSuffix(
                "No ★: full-jitter is clearly ahead of no-jitter and equal-jitter, with none clearly ahead of it, but it loses clearly more operations. Not for equal-jitter and full-jitter, which lose clearly more operations (fewer survivors look faster and retry less)."
            ), "\(chart.caption)")
        let svg = chart.chart.svg()
        #expect(svg.contains("no ★: the leaders lose more") && !svg.contains("★ lowest p99"))
        // As the tables print the mean 0.0258 (TerminalTableTests): one format everywhere. Lost is
        // gave up + blocked + unfinished; the fixture has no blocked or unfinished operations.
        #expect(svg.contains(">no-jitter (2.58% lost)"))
    }

    /// The survival view (issue 26): the compare fixture's lost shares (gave_up_fraction; no
    /// blocked or unfinished) average no-jitter (0.045 + 0 + 0.0325) / 3, equal-jitter
    /// (0.2525 + 0.215 + 0.25) / 3 and full-jitter (0.3975 + 0.3325 + 0.385) / 3. The CDF of
    /// every operation tops out at 1 minus that share: no-jitter at 97.4%, below the p99 line (its
    /// tts_p99_s is never), not at 100% as a CDF among successes would. The tail chart's lines end
    /// at the same percentile of all operations.
    @Test("tts_cdf.svg and tts_tail.svg count every operation: curves level off at the share that succeeded")
    func survivalView() throws {
        let charts = try Self.charts("compare")
        let cdf = try #require(charts["tts_cdf.svg"]?.chart as? CDFChart)
        let tail = try #require(charts["tts_tail.svg"]?.chart as? LineChart)
        let lost = ["no-jitter": (0.045 + 0 + 0.0325) / 3, "equal-jitter": (0.2525 + 0.215 + 0.25) / 3, "full-jitter": (0.3975 + 0.3325 + 0.385) / 3]
        for (variant, share) in lost {
            let curve = try #require(cdf.series.first { $0.name.hasPrefix(variant + " (") }, "\(variant)")
            #expect(abs((curve.points.map(\.y).max() ?? 0) - (1 - share)) < 1e-9, "\(variant): \(curve.points.map(\.y).max() ?? 0)")
            let line = try #require(tail.series.first { $0.name.hasPrefix(variant + " (") }, "\(variant)")
            #expect((line.points.map(\.x).max() ?? 100) <= (1 - share) * 100 + 1e-9, "\(variant): \(line.points.map(\.x).max() ?? 0)")
        }
        #expect((1 - lost["no-jitter"]!) < 0.99)
        #expect(cdf.subtitle?.hasPrefix("every operation: a lost one never succeeds") == true)
    }

    /// The compare fixture's timeseries.csv has 8,632 rejected attempts (queue limit 30 sheds 503s)
    /// and no failed or offline ones; run-2reps has 1,383.
    @Test("failures.svg draws rejected and throttled attempts when there are any, and only the lines with counts")
    func failuresIncludeRejected() throws {
        for directory in ["compare", "run-2reps"] {
            let chart = try #require(try Self.charts(directory)["failures.svg"])
            let svg = chart.chart.svg()
            #expect(svg.contains("attempts rejected or throttled (503/429)"))
            #expect(!svg.contains("attempts failed (other error responses)"))
            #expect(!svg.contains("attempts offline"))
            #expect(chart.caption.contains("503 from a full queue, 429 when a rate limiter throttles"))
        }
    }

    /// run-2reps is tiny.yaml: capacity drops to 10% from 5 s to 15 s and ramps back linearly by
    /// 25 s; the trigger window is the whole span below nominal, 5–25 s (issue 26).
    @Test("the queue chart is shaded for the incident, like the load chart")
    func queueShaded() throws {
        let charts = try Self.charts("run-2reps")
        for name in ["queue.svg", "load.svg"] {
            #expect(try #require(charts[name]).chart.svg().contains("capacity down to 10% 5–25 s"), "\(name)")
        }
    }

    @Test("tts_tail.svg spreads the tail: p50, p90, p99 and p99.9 evenly on a log(1 − q) axis, time in one unit")
    func tailAxis() throws {
        let svg = try #require(try Self.charts("compare")["tts_tail.svg"]).chart.svg()
        for tick in [">p50<", ">p90<", ">p99<", ">p99.9<"] { #expect(svg.contains(tick), "\(tick)") }
        // From p50 of every operation up, the fixture's ticks are 0.1 and 1 minute: one unit,
        // minutes, in the axis title, and no tick with a unit of its own ("1m"
        // beside "1ms" was the bug).
        #expect(svg.contains("time to success (min, log scale)"))
        #expect(svg.range(of: #">[0-9.]+ ?(ms|s|m|min|h)<"#, options: .regularExpression) == nil)
    }

    /// sweep-invalid sweeps base 250 ms, 1 s, 4 s × max 500 ms, 2 s, 8 s; a max delay below the base
    /// is not a valid scenario: (1 s, 500 ms), (4 s, 500 ms), (4 s, 2 s). Every point loses more
    /// than 1% of its operations (gave_up_fraction 9% to 54%), so every p99 over all operations is
    /// never: dark labelled cells, not hatched as not run. The sweep fixture's p99 among successes
    /// runs from 5.8 s to 25.6 s (less than a decade: a linear colour scale).
    @Test("heatmaps: invalid combinations crossed out apart from points not run; never is a dark labelled cell")
    func heatmapMarks() throws {
        let invalid = try #require(try Self.charts("sweep-invalid")["sweep_tts_p99_s.svg"])
        #expect(invalid.caption.contains("Crossed-out cells are combinations that are not valid scenarios"))
        #expect(!invalid.caption.contains("Hatched"))
        #expect(invalid.caption.contains("Dark cells read never"))
        #expect(invalid.chart.svg().contains(">never</text>") && !invalid.chart.svg().contains("not evaluated"))
        #expect(invalid.chart.svg().contains("invalid combination (not a valid scenario)"))
        // No cell meets the default constraint (peak load at most capacity): said, not left blank.
        #expect(invalid.chart.svg().contains("no cell meets peak load / capacity ≤ 1×"))
        let sweep = try #require(try Self.charts("sweep")["sweep_tts_success_p99_s.svg"])
        #expect(!sweep.caption.contains("log scale"))
        #expect(sweep.caption.contains("2 cells were not run because they are the same configuration as another point"))
    }

    /// The one-key sweep's line charts ring each value whose point loses clearly more operations
    /// than another (paired lost share, over 0.1 points): one dashed ring per such point on a time
    /// or a spike, none on gave up itself, and the caption names the values.
    @Test("a sweep's line chart rings the points that lose clearly more operations, and its caption names them")
    func sweepLineFlagsLosers() throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path("sweep-1d"))
        let losing = run.metrics.losingClearlyMore(among: Array(run.metrics.names.indices))
        #expect(!losing.isEmpty, "the fixture's small bases give up more")
        let charts = try Self.charts("sweep-1d")
        let ring = "stroke-dasharray=\"3 2\""
        for name in ["sweep_tts_success_p99_s.svg", "sweep_peak_load_ratio.svg"] {
            let chart = try #require(charts[name])
            let svg = chart.chart.svg()
            // The rings on the points, and one more in the legend.
            #expect(svg.components(separatedBy: ring).count - 1 == losing.count + 1, "\(name)")
            #expect(svg.contains(">loses clearly more operations</text>"), "\(name)")
            #expect(chart.caption.contains("Dashed rings ("), "\(name): \(chart.caption)")
        }
        if let gaveUp = charts["sweep_gave_up.svg"] { #expect(!gaveUp.chart.svg().contains(ring)) }
    }

    /// The sweep fixture's p99 heatmap (among successes, its tune objective): each cell prints its point's mean as the report's table
    /// column does (three significant digits, one unit), so "5.80" in the chart is "5.80" in the
    /// tables, never "5.8" beside it.
    @Test("heatmap cells print each value as report.html's table does")
    func heatmapLabelsAsTable() throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path("sweep"))
        let svg = try #require(try Self.charts("sweep")["sweep_tts_success_p99_s.svg"]).chart.svg()
        let html = try ReportGoldenTests.page("sweep")
        let format = ColumnFormat(metric: .ttsSuccessP99, table: run.metrics)
        #expect(svg.contains(">time to success p99 among successes (\(format.unitSymbol))</text>"))
        // A point that loses clearly more operations than another carries " †" after its value.
        let losing = run.metrics.losingClearlyMore(among: Array(run.metrics.names.indices))
        #expect(!losing.isEmpty, "the fixture has points that lose clearly more")
        for (p, name) in run.metrics.names.enumerated() {
            let mean = try #require(run.metrics.interval(name, .ttsSuccessP99)).mean
            let label = format.number(mean)
            #expect(svg.contains(">\(label)\(losing.contains(p) ? " †" : "")</text>"), "\(name): \(label)")
            #expect(html.contains(">\(label)<span class=\"ci\">"), "\(name): \(label)")
        }
    }
}
