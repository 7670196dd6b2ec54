import Foundation
import RetryStormKit
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import SVGCharts
import TestSupport
import Testing

/// graph.svg (issue 40): the call graph as the report shows it, its numbers read from services.csv.
@Suite("Call-graph diagram in charts and report")
struct CallGraphDiagramTests {
    /// api calls cache once and db twice at once; cache calls db: db has two callers.
    static let diamond = """
        name: diamond
        seed: 1
        horizon: 60s
        clients: {count: 10, rate: 1/s, timeout: 1s}
        policy: {max_attempts: 3}
        services:
          - name: api
            server.capacity: 100/s
            calls: [{to: cache}, {to: db, count: 2, parallel: true}]
          - name: cache
            server.capacity: 100/s
            calls: [{to: db}]
          - name: db
            server.capacity: 50/s
        """

    /// Per replication (two): requests per user operation, attempts per call and peak load ratio.
    static let values: [String: [(perOperation: Double, perCall: Double, peak: Double)]] = [
        "api": [(1.2, 1.2, 0.5), (1.4, 1.4, 0.7)],
        "cache": [(1.0, 1.0, 0.1), (1.2, 1.1, 0.1)],
        "db": [(6, 2, 2.0), (8, 2.5, 3.0)]
    ]

    static func run(_ yaml: String = diamond, edges: [EdgeRecord] = []) throws -> RunDirectory {
        var summaries: [SummaryRecord] = []
        var records: [ServiceRecord] = []
        for r in 0..<2 {
            var values = [Double](repeating: 0, count: SummaryRecord.metrics.count)
            values[SummaryRecord.metrics.firstIndex(of: .operations)!] = 1000
            summaries.append(SummaryRecord(variant: "base", replication: r, seed: 1, clients: 10, values: values))
            for service in ["api", "cache", "db"] {
                let v = Self.values[service]![r]
                var row = [Double](repeating: 0, count: ServiceRecord.metrics.count)
                row[ServiceRecord.metrics.firstIndex(of: .requestsPerOperation)!] = v.perOperation
                row[ServiceRecord.metrics.firstIndex(of: .attemptsPerCall)!] = v.perCall
                row[ServiceRecord.metrics.firstIndex(of: .peakLoadRatio)!] = v.peak
                if service == "api" { row[ServiceRecord.metrics.firstIndex(of: .calls)!] = 1000 }
                records.append(ServiceRecord(variant: "base", replication: r, service: service, values: row))
            }
        }
        var results = StudyResults(kind: .run, scenario: yaml, summaries: summaries)
        results.services = records
        results.edges = edges
        return try RunDirectory(results: results, scenario: ScenarioLoader.parse(text: yaml, path: "diamond.yaml"))
    }

    static func diagram(_ run: RunDirectory) throws -> GraphDiagram {
        let chart = try #require(ChartSet.charts(for: run).first { $0.fileName == "graph.svg" })
        return try #require(chart.chart as? GraphDiagram)
    }

    /// Means over the two replications: api 1.3 requests per user operation, peak 0.6×; cache 1.1
    /// and 0.1×, its one caller's edge 1.05 attempts per call; db 7 and 2.5×, called by api and
    /// cache, so its edges are unknown from services.csv.
    /// edges.csv's calls and attempts per replication (1,000 user operations in each): api→cache
    /// 1,320/1,200 and 1,400/1,400 attempts per call, 1.1 and 1.0 (mean 1.05), 1.32 and 1.40 per
    /// operation (1.36); api→db 4,800/2,400 and 6,160/2,800, 2.0 and 2.2 (2.10), 4.80 and 6.16
    /// (5.48); cache→db 1,980/1,320 and 2,520/1,400, 1.5 and 1.8 (1.65), 1.98 and 2.52 (2.25).
    @Test("with edges.csv every edge gets its own numbers, db's two callers apart")
    func edgesFromEdgesCSV() throws {
        let rows: [(String, String, Int, Double, Double)] = [
            ("api", "cache", 0, 1200, 1320), ("api", "db", 0, 2400, 4800), ("cache", "db", 0, 1320, 1980),
            ("api", "cache", 1, 1400, 1400), ("api", "db", 1, 2800, 6160), ("cache", "db", 1, 1400, 2520)
        ]
        let edges = rows.map { caller, callee, r, calls, attempts in
            var values = [Double](repeating: 0, count: EdgeRecord.metrics.count)
            values[EdgeRecord.metrics.firstIndex(of: .calls)!] = calls
            values[EdgeRecord.metrics.firstIndex(of: .attempts)!] = attempts
            return EdgeRecord(variant: "base", replication: r, caller: caller, callee: callee, values: values)
        }
        let d = try Self.diagram(Self.run(edges: edges))
        #expect(
            d.edges.map(\.label) == [
                ["1.05 att/call", "1.36 req/op"], ["×2 at once", "2.10 att/call", "5.48 req/op"], ["1.65 att/call", "2.25 req/op"]
            ])
    }

    @Test("boxes: requests per user operation and peak load; an edge into a one-caller service gets its numbers, else —")
    func labels() throws {
        let d = try Self.diagram(Self.run())
        #expect(d.nodes.map(\.name) == ["api", "cache", "db"])
        #expect(d.nodes.map(\.lines) == [["1.30 req/op", "peak 0.600×"], ["1.10 req/op", "peak 0.100×"], ["7.00 req/op", "peak 2.50×"]])
        #expect(
            d.edges == [
                GraphDiagram.Edge(from: 0, to: 1, label: ["1.05 att/call", "1.10 req/op"]),
                GraphDiagram.Edge(from: 0, to: 2, label: ["×2 at once", "—"]),
                GraphDiagram.Edge(from: 1, to: 2, label: ["—"])
            ])
    }

    @Test("an edge of a service whose calls run in stages names its stage")
    func stages() throws {
        let staged = Self.diamond.replacingOccurrences(
            of: "calls: [{to: cache}, {to: db, count: 2, parallel: true}]",
            with: "calls: [{to: cache, stage: 1}, {to: db, count: 2, parallel: true, stage: 2}]")
        let d = try Self.diagram(Self.run(staged))
        #expect(d.edges.map(\.label) == [["stage 1", "1.05 att/call", "1.10 req/op"], ["stage 2", "×2 at once", "—"], ["—"]])
        let chart = try #require(ChartSet.charts(for: Self.run(staged)).first { $0.fileName == "graph.svg" })
        #expect(chart.caption.contains("\"stage N\": the calls of one stage go out together, stages in order."))
        #expect(try !ChartSet.charts(for: Self.run()).first { $0.fileName == "graph.svg" }!.caption.contains("stage"))
    }

    @Test("the focus is marked: by default the highest peak (db), else the one focus: names")
    func focus() throws {
        let byPeak = try Self.diagram(Self.run())
        #expect(byPeak.nodes.map(\.isFocus) == [false, false, true])
        #expect(byPeak.focusLegend == "focus: db, where the storm lands")
        let named = try Self.diagram(Self.run(Self.diamond + "\nfocus: cache\n"))
        #expect(named.nodes.map(\.isFocus) == [false, true, false])
        #expect(named.focusLegend == "focus: cache, as chosen")
    }

    @Test("the caption says what the marks mean")
    func caption() throws {
        let chart = try #require(ChartSet.charts(for: Self.run()).first { $0.fileName == "graph.svg" })
        #expect(chart.caption.contains("The red border and tag mark the focus"))
        #expect(chart.caption.contains("\"×N at once\": each request makes N calls in parallel"))
        #expect(chart.caption.contains("\"—\": not measured per edge (a result directory without edges.csv, for a service with several callers)"))
    }

    @Test("graph.svg comes before the other service charts, and into the report with them")
    func order() throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path("services"))
        let names = ChartSet.charts(for: run).map(\.fileName)
        let graph = try #require(names.firstIndex(of: "graph.svg"))
        #expect(names[graph + 1] == "load_services.svg")
        let html = ReportPage.html(run, charts: ChartSet.charts(for: run))
        let at = try #require(html.range(of: "<title>Call graph — tiny-services</title>"))
        #expect(at.upperBound < html.range(of: "<title>Load by service")!.lowerBound)
    }

    @Test("a one-hop run has no graph.svg", arguments: ["run-2reps", "compare", "sweep", "populations"])
    func oneHop(directory: String) throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path(directory))
        #expect(!ChartSet.charts(for: run).contains { $0.fileName == "graph.svg" })
    }
}
