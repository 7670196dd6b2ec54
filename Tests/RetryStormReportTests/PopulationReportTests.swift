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
        #expect(first.contains("<td>280</td><td>280</td><td>49.5<span class=\"ci\">±43.1</span></td>"))
        #expect(first.contains("<td>2.48<span class=\"ci\">±1.29</span></td></tr>"))
        #expect(html.contains("<h3>Populations: time to success</h3>"))
    }

    @Test("a scenario without populations has no populations chart and no populations table")
    func absent() throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path("compare"))
        #expect(!ChartSet.charts(for: run).contains { $0.fileName == "load_populations.svg" })
        #expect(!(try ReportGoldenTests.page("compare")).contains("<h3>Populations"))
    }
}
