import Foundation
import RetryStormKit
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import SVGCharts
import TestSupport
import Testing

/// The populations fixture (Fixtures/populations: `compare` of populations.yaml, two rollout
/// stages, 2 replications) as a reader meets it: whose load reaches the server over time, and each
/// population's outcome in the report's tables.
@Suite("Populations in charts and report")
struct PopulationReportTests {
    static func run() throws -> RunDirectory {
        try RunDirectory.load(path: ChartsFixtures.path("populations"))
    }

    /// Every attempt of this scenario reaches the server (no network loss, no client-side
    /// refusal), so the populations' offered counts add up to timeseries.csv's `offered` in every
    /// bucket of every replication, and so do their means.
    @Test("load_populations.svg: one panel per variant, one band per population, the top edge is load.svg's offered load bucket by bucket")
    func stackedLoad() throws {
        let run = try Self.run()
        let chart = try #require(ChartSet.charts(for: run).first { $0.fileName == "load_populations.svg" })
        let panels = try #require(chart.chart as? SmallMultiples).panels
        #expect(panels.map(\.title) == ["30%-upgraded", "70%-upgraded"])
        for (panel, series) in zip(panels, run.timeSeries) {
            // Drawn top band first: its staircase is the cumulative total (two points per bucket).
            #expect(panel.series.map(\.name) == ["new", "old"])
            let top = panel.series[0].points.enumerated().filter { $0.offset % 2 == 0 }.map(\.element.y)
            let offered = series.perSecond(.offered)
            #expect(top.count == offered.count)
            for (b, (a, e)) in zip(top, offered).enumerated() { #expect(abs(a - e) < 1e-9, "\(panel.title) bucket \(b)") }
        }
    }

    /// populations.csv, 30%-upgraded, old SDK: gave_up_fraction 0.460714 and 0.528571 — mean
    /// 0.494643 (49.5%); s = 0.067857 / √2 = 0.047982, half-width t(0.975, 1) · s / √2 =
    /// 12.706 · 0.047982 / 1.41421 = 0.4311 (±43.1 points). Its amplification 2.382143 and
    /// 2.585714: 2.48, half-width 12.706 · 0.143945 / 1.41421 = 1.29.
    @Test("the report's populations table: a row per variant and population, in the study's order, with means and intervals")
    func table() throws {
        let html = try ReportGoldenTests.page("populations")
        let section = try ReportPageTests.slice(html, from: "<h3>Populations: outcome</h3>", to: "</table>")
        let rows = section.components(separatedBy: "<tr><th scope=\"row\">").dropFirst()
        #expect(
            rows.map { $0.components(separatedBy: "</th>").prefix(2).joined(separator: "/").replacingOccurrences(of: "<th scope=\"row\">", with: "") }
                == ["30%-upgraded/old", "30%-upgraded/new", "70%-upgraded/old", "70%-upgraded/new"])
        let first = try #require(rows.first)
        // Clients, operations, lost (= gave up here: nothing blocked or unfinished, so those two
        // columns are left out), gave up.
        #expect(
            first.contains("<td>280</td><td>280</td><td>49.5<span class=\"ci\">±43.1</span></td><td>49.5<span class=\"ci\">±43.1</span></td></tr>"))
        #expect(!section.contains(">blocked<") && !section.contains(">unfinished<"))
        // The retries table: amplification, then retries refused (none: its budget never ran dry).
        let retries = try ReportPageTests.slice(html, from: "<h3>Populations: retries</h3>", to: "</table>")
        let firstRetries = try #require(retries.components(separatedBy: "<tr><th scope=\"row\">").dropFirst().first)
        #expect(firstRetries.contains("<td>2.48<span class=\"ci\">±1.29</span></td><td>0</td></tr>"))
        #expect(html.contains("<h3>Populations: time to success</h3>"))
    }

    /// populations.csv's gave_up_fraction (nothing blocked or unfinished, so lost = gave up):
    /// 30%-upgraded old 0.460714, 0.528571 → 49.5% ±43.1 (above); new 0.225, 0.375 → 30.0%, s =
    /// 0.106066, half-width 12.706 · 0.106066 / √2 = 0.953, cut to [0, 1]. 70%-upgraded old
    /// 0.491667, 0.583333 → 53.8%, half-width 0.582 → [0, 1]; new 0.285714, 0.382143 → 33.4%, s =
    /// 0.068185, half-width 0.6126 → [0, 0.947]. Most lost first.
    @Test("the populations section says which population loses what, most first, with intervals")
    func losses() throws {
        let html = try ReportGoldenTests.page("populations")
        #expect(html.contains("<p>In 30%-upgraded, old loses 49.5% (±43.1) of its operations; new loses 30.0% [0, 100].</p>"))
        #expect(html.contains("<p>In 70%-upgraded, old loses 53.8% [0, 100] of its operations; new loses 33.4% [0.0, 94.7].</p>"))
    }

    /// tts_populations.svg: one category per variant and population, each labelled with its lost
    /// share (as above), p50 and p99 among successes from populations.csv.
    @Test("tts_populations.svg: each population's p50 and p99 among successes, labelled with the share it lost")
    func timeToSuccessByPopulation() throws {
        let run = try Self.run()
        let chart = try #require(ChartSet.charts(for: run).first { $0.fileName == "tts_populations.svg" })
        let plot = try #require(chart.chart as? DotPlot)
        #expect(
            plot.categories.map(\.name) == [
                "30%-upgraded · old (49.5% lost)", "30%-upgraded · new (30.0% lost)", "70%-upgraded · old (53.8% lost)",
                "70%-upgraded · new (33.4% lost)"
            ])
        let table = run.metrics
        let p99 = try #require(table.populations["new"]?.interval("30%-upgraded", .ttsSuccessP99)?.mean)
        #expect(plot.categories[1].estimates[1]?.value == p99)
        // Without populations there is no such chart.
        let compare = try RunDirectory.load(path: ChartsFixtures.path("compare"))
        #expect(!ChartSet.charts(for: compare).contains { $0.fileName == "tts_populations.svg" })
    }

    @Test("a scenario without populations has no populations chart and no populations table")
    func absent() throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path("compare"))
        #expect(!ChartSet.charts(for: run).contains { $0.fileName == "load_populations.svg" })
        #expect(!(try ReportGoldenTests.page("compare")).contains("<h3>Populations"))
    }
}

/// The cause ``GuardRefusals`` gives for a ratio budget that never fills.
@Suite("Guards that bite")
struct GuardRefusalCauseTests {
    /// The SRE book's budget (10%, a 120 s window, no reserve): a retry takes 1 / 10% = 10
    /// requests' deposits. 150 operations of 10 clients over 1,000 s is 0.015 req/s per client:
    /// 0.015 × 120 × 10% = 0.18 of one retry, so it never fills. At 1 req/s: 1 × 120 × 10% = 12
    /// retries' worth, so no cause is given; nor for a budget that is no ratio.
    @Test("a per-client ratio budget: 'never fills' when rate × window × percent < 1, nothing otherwise")
    func cause() {
        #expect(
            GuardRefusals.cause(.ratio(.sreBook), operations: 150, clients: 10, hosts: 1, seconds: 1000)
                == "at 0.015 req/s per client a 10% budget never fills (0.015 req/s × 120 s window × 10% = 0.18 of the one retry it must save up)"
        )
        #expect(GuardRefusals.cause(.ratio(.sreBook), operations: 10_000, clients: 10, hosts: 1, seconds: 1000) == nil)
        #expect(GuardRefusals.cause(.unlimited, operations: 150, clients: 10, hosts: 1, seconds: 1000) == nil)
        // Two hosts halve each client's rate per host: 0.0075 × 120 × 10% = 0.09.
        #expect(
            GuardRefusals.cause(.ratio(.sreBook), operations: 150, clients: 10, hosts: 2, seconds: 1000)?
                .hasPrefix("at 0.0075 req/s per client and host a 10% budget never fills (0.0075 req/s × 120 s window × 10% = 0.09 of") == true)
    }
}
