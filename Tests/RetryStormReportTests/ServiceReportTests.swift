import Foundation
import RetryStormKit
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import SVGCharts
import TestSupport
import Testing

/// A call graph as a reviewer meets it (issue 28): each service's load over time, where the
/// requests land, the report's sentence naming the layer that amplifies, and a trigger window
/// behind the first service named after its service.
@Suite("Call graphs in charts and report")
struct ServiceReportTests {
    /// gateway → backend → db, one call per request on each edge.
    static let chain = """
        name: chain
        seed: 1
        horizon: 60s
        clients: {count: 10, rate: 1/s, timeout: 1s}
        policy: {max_attempts: 3}
        services:
          - name: gateway
            server.capacity: 100/s
            calls: [{to: backend}]
          - name: backend
            server.capacity: 100/s
            calls: [{to: db}]
          - name: db
            server.capacity: 50/s
        """

    /// The call-graph section's note and sentences for a study of `points`, whose services' requests per
    /// user operation are `perOperation[point][service][replication]` (gateway, backend, db).
    static func section(_ perOperation: [String: [[Double]]], points: [String], kind: StudyKind = .compare) throws -> (
        note: String, sentences: [String], notes: [String]
    ) {
        let services = ["gateway", "backend", "db"]
        var summaries: [SummaryRecord] = []
        var records: [ServiceRecord] = []
        for point in points {
            let own = try #require(perOperation[point])
            for r in own[0].indices {
                var values = [Double](repeating: 0, count: SummaryRecord.metrics.count)
                values[SummaryRecord.metrics.firstIndex(of: .operations)!] = 1000
                summaries.append(SummaryRecord(variant: point, replication: r, seed: 1, clients: 10, values: values))
                for (s, service) in services.enumerated() {
                    var row = [Double](repeating: 0, count: ServiceRecord.metrics.count)
                    row[ServiceRecord.metrics.firstIndex(of: .requestsPerOperation)!] = own[s][r]
                    // A chain whose every request makes its one call: the calls to a service
                    // are its caller's requests, and the first service's the 1,000 operations.
                    row[ServiceRecord.metrics.firstIndex(of: .requests)!] = own[s][r] * 1000
                    row[ServiceRecord.metrics.firstIndex(of: .calls)!] = s == 0 ? 1000 : own[s - 1][r] * 1000
                    records.append(ServiceRecord(variant: point, replication: r, service: service, values: row))
                }
            }
        }
        var results = StudyResults(kind: kind, scenario: chain, summaries: summaries)
        results.services = records
        let run = try RunDirectory(results: results, scenario: ScenarioLoader.parse(text: chain, path: "chain.yaml"))
        let html = ReportPage.html(run, charts: [])
        let section = try #require(
            html.components(separatedBy: "<section id=\"call-graph\">").dropFirst().first?.components(separatedBy: "</section>").first)
        let note = section.components(separatedBy: "<p class=\"note\">").dropFirst().first?.components(separatedBy: "</p>").first ?? ""
        let sentences = section.components(separatedBy: "<p>").dropFirst().map {
            ($0.components(separatedBy: "</p>").first ?? "").replacingOccurrences(of: "&#39;", with: "'")
        }
        let notes = section.components(separatedBy: "<p class=\"note\">").dropFirst().map { $0.components(separatedBy: "</p>").first ?? "" }
        return (note, sentences, notes)
    }

    static func sentences(_ perOperation: [String: [[Double]]], points: [String], kind: StudyKind = .compare) throws -> [String] {
        try section(perOperation, points: points, kind: kind).sentences
    }

    @Test("the sentence names the service whose growth over its caller is clearly the largest, with its intervals")
    func clearLayer() throws {
        // Growths: gateway 1, backend 1.8, db 3 in every replication.
        let said = try Self.sentences(
            ["base": [[1, 1, 1], [1.80, 1.82, 1.78], [5.40, 5.46, 5.34]]], points: ["base"], kind: .run)
        #expect(
            said == [
                "The requests multiply most at db: it receives 5.40 (±0.15) requests per user operation, 3.00× the calls backend made."
            ])
    }

    /// Growths per replication: gateway 0.5, 1.4, 0.9 (its requests per user operation); backend
    /// 1.8, 2.2, 2.0; db 2.3, 1.9, 2.2. db's and backend's are clearly above 1 (db: 2.13, 95%
    /// interval ±0.52; backend: 2.00 ±0.50), but db minus backend is 0.5, -0.3, 0.2, an interval
    /// (0.13 ±1.00) holding 0: neither is named alone. gateway's 0.933 ±1.120 (s = 0.451) is below both by
    /// its mean but not clearly (db minus gateway: 1.8, 0.5, 1.3, 1.20 ±1.63), and adds nothing by
    /// its mean: too noisy to rank.
    @Test("noise: when the largest growth is not clearly above another layer's, the sentence names both and says why")
    func noise() throws {
        let gateway = [0.5, 1.4, 0.9]
        let backend = zip(gateway, [1.8, 2.2, 2.0]).map { ($0 * $1 * 1e6).rounded() / 1e6 }
        let db = zip(backend, [2.3, 1.9, 2.2]).map { ($0 * $1 * 1e6).rounded() / 1e6 }
        let said = try Self.sentences(["base": [gateway, backend, db]], points: ["base"], kind: .run)
        #expect(
            said == [
                "The requests multiply most at db or backend, their difference within noise or too small to matter: db receives 3.96 (±4.70) requests per user operation, 2.13× (±0.52) the calls backend made; backend receives 1.93 (±2.72) requests per user operation, 2.00× (±0.50) the calls gateway made; too noisy to rank: gateway at 0.933× (±1.120)."
            ])
    }

    @Test("no layer adds requests: growths within the minimum difference of 1 are not called amplification")
    func noAmplification() throws {
        let said = try Self.sentences(["base": [[1, 1, 1], [1, 1, 1], [1.004, 1.002, 1.006]]], points: ["base"], kind: .run)
        #expect(
            said == [
                "No service receives clearly more requests than the calls its callers made: the largest growth is db's, 1.00× (±0.005) the calls backend made."
            ])
    }

    /// With several variants each sentence says what the variant lost, so fewer requests
    /// downstream are never read apart from the operations given up; one replication names the
    /// largest growth without an interval, and the lead says that nothing is told from noise.
    @Test("a comparison leads each sentence with the variant and its lost share; one replication has no intervals")
    func comparison() throws {
        let (note, said, _) = try Self.section(
            ["retry-everywhere": [[1.5], [2.25], [6.75]], "top-only": [[1.5], [1.5], [1.5]]], points: ["retry-everywhere", "top-only"])
        #expect(
            note.hasSuffix(
                "One replication: no intervals, so no layer can be told from another by more than noise (run with --replications 3 or more)."))
        #expect(
            said == [
                "In retry-everywhere, which lost 0% of its user operations, the requests multiply most at db: it receives 6.75 requests per user operation, 3.00× the calls backend made.",
                "In top-only, which lost 0% of its user operations, the requests multiply most at gateway: it receives 1.50 requests per user operation, 1.50× the user operations (the clients' retries)."
            ])
    }

    /// Issue 40: the section wrote sentences for 6 of 10 variants. A compare's every variant has
    /// one; a sweep's first six (in the report's order) do, and a note says the table has the rest.
    @Test("every variant of a compare gets a sentence; a sweep's first six, with a note")
    func everyVariant() throws {
        let names = (1...10).map { "v\($0)" }
        let growing = [[1.0, 1, 1], [1.80, 1.82, 1.78], [5.40, 5.46, 5.34]]
        let all = Dictionary(uniqueKeysWithValues: names.map { ($0, growing) })
        let compare = try Self.section(all, points: names)
        #expect(compare.sentences.count == 10 && compare.sentences.allSatisfy { $0.contains("multiply most at db") })
        #expect(compare.sentences.map { $0.components(separatedBy: ",").first ?? "" } == names.map { "In \($0)" })
        let sweep = try Self.section(all, points: names, kind: .sweep)
        #expect(sweep.sentences.count == 6)
        #expect(sweep.notes.contains("The first 6 of the 10 points in the report&#39;s order; every point is in the table."), "\(sweep.notes)")
        #expect(!compare.notes.contains { $0.hasPrefix("The first") })
    }

    @Test("a window of a service behind the first is labelled with its name; the first service's keeps the server's words")
    func windowLabels() {
        let db = IncidentMarks.Window(from: 60, to: 90, fraction: 0.2, disturbedAt: 60, service: "db")
        #expect(IncidentMarks.label(db) == "db capacity 20% 60–90 s")
        #expect(IncidentMarks.label(IncidentMarks.Window(from: 60, to: 90, fraction: 0, disturbedAt: 60, service: "db")) == "db down 60–90 s")
        #expect(IncidentMarks.label(IncidentMarks.Window(from: 60, to: 90, fraction: 0, disturbedAt: 60)) == "server down 60–90 s")
    }

    /// tiny-services.yaml: db (the third service) loses 90% of its capacity at 5 s for 10 s, then
    /// ramps back over 10 s; api's capacity never drops.
    @Test("the services fixture: db's outage is shaded and named on load.svg and every panel of load_services.svg")
    func fixtureWindows() throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path("services"))
        for series in run.timeSeries {
            let windows = IncidentMarks.windows(series, scenario: run.scenario.base)
            #expect(windows.map(IncidentMarks.label) == ["db capacity down to 10% 5–25 s"])
        }
        let chart = try #require(ChartSet.charts(for: run).first { $0.fileName == "load_services.svg" })
        let grid = try #require(chart.chart as? SmallMultiples)
        #expect(grid.panels.map(\.title) == ["api (capacity 40/s)", "cache (capacity 400/s)", "db (capacity 40–80/s)"])
        for panel in grid.panels { #expect(panel.annotations == [.xInterval(from: 5, to: 25, label: "")]) }
        #expect(grid.subtitle?.hasPrefix("one offered line per variant · shaded: db capacity down to 10% 5–25 s") == true)
    }

    /// services.csv, no-edge-retries, db: requests_per_operation 1.666667 and 1.680000, mean 1.6733335.
    @Test("amplification_services.svg: a slot per service, a dot per variant at the mean of services.csv's requests_per_operation")
    func amplificationChart() throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path("services"))
        let chart = try #require(ChartSet.charts(for: run).first { $0.fileName == "amplification_services.svg" })
        let plot = try #require(chart.chart as? DotPlot)
        #expect(plot.categories.map(\.name) == ["api", "cache", "db"])
        #expect(plot.series.map { $0.components(separatedBy: " (").first ?? "" } == ["no-edge-retries", "small-db"])
        let db = try #require(plot.categories.last?.estimates.first ?? nil)
        #expect(abs(db.value - 1.6733335) < 1e-9)
        #expect(plot.highlight == nil)
        // Without failures: api once per operation, cache once per api request, db twice (count: 2).
        #expect(plot.categories.map(\.reference) == [1, 1, 2] && plot.categoryReferenceLabel == "when nothing fails")
        #expect(plot.references.isEmpty)
    }

    /// Issue 40: the amplification chart's reference is each service's level without failures,
    /// not 1 everywhere: a user operation puts 2 requests on a database its api calls twice.
    @Test("a service's level without failures is the sum over its callers of their level times their calls")
    func levelsWithoutFailures() throws {
        let yaml = """
            horizon: 30s
            services:
              - name: api
                calls: [{to: cache, count: 3}, {to: db, count: 2, parallel: true}]
              - name: cache
                calls: [{to: db}]
              - name: db
              - name: audit
            """
        let s = try ScenarioLoader.parse(text: yaml, path: "l.yaml").base
        // db: 2 from api, and 3 × 1 from cache; audit is called by nobody.
        #expect(ServiceAmplificationChart.levelsWithoutFailures(s) == ["api": 1, "cache": 3, "db": 5, "audit": 0])
        #expect(try ServiceAmplificationChart.levelsWithoutFailures(ScenarioLoader.parse(text: "horizon: 30s\n", path: "o.yaml").base).isEmpty)
    }
}
