import Foundation
import RetryStormEngine
import RetryStormKit
import TestSupport
import Testing

/// edges.csv (issue 40): one row per `calls[]` entry of a call graph, made through `Experiment`,
/// the code path of `retrystorm run` and `compare`; its counts add up to services.csv's, and it
/// reads back (and a directory without it still reads).
@Suite("Edge outputs")
struct EdgeOutputTests {
    typealias S = ServiceOutputTests

    /// ServiceOutputTests.threeLayers: every call fails after all its attempts. frontend → backend:
    /// the frontend's 30 requests each make one call of 4 attempts (120, 90 retries), each
    /// answered 503; a call lasts 4 backend requests of 46 ms and 3 backoffs of 10 ms, 214 ms
    /// (214,433,791.5 ns in its histogram bin). backend → db: 120 calls of 5 attempts (600, 480
    /// retries), each answered 500, lasting 5 × 1 ms + 4 × 10 ms = 45 ms (44,957,695.5 ns).
    /// Nothing hedged, timed out or refused by a budget.
    @Test("edges.csv: every column of each edge, in the scenario's order")
    func edgesFile() throws {
        let results = try Experiment(scenario: S.threeLayers()).run(ExperimentOptions(replications: 1))
        #expect(
            S.file(results, "edges.csv") == """
                variant,replication,caller,callee,calls,attempts,retries,hedges,budget_denied,timed_out,failed,latency_p50_s,latency_p99_s
                base,0,frontend,backend,30,120,90,0,0,0,120,0.214434,0.214434
                base,0,backend,db,120,600,480,0,0,0,600,0.044958,0.044958

                """)
        let db = try #require(results.study.edges.last)
        #expect(db.caller == "backend" && db.callee == "db" && db.value(.attempts) == 600 && db.value(.requests) == nil)
        #expect(
            results.files.map(\.name).filter { $0.contains("services") || $0.contains("edges") }
                == ["services.csv", "edges.csv", "timeseries_services.csv"])
    }

    /// experiments/call-graph.yaml's five variants (a chain over a database with an outage: retries,
    /// per-hop budgets, deadlines, refusals and timeouts), 120 s with a 10 s warmup: for every
    /// service behind the first, its edges' rows sum to its services.csv row.
    @Test("experiments/call-graph.yaml: each service's edges sum to its services.csv counts, failed to failed + rejected")
    func edgesSumToServices() throws {
        let experiment = try Experiment(
            contentsOf: Repository.url("experiments/call-graph.yaml"), overrides: ["horizon=120s", "warmup=10s", "clients.count=1000"])
        let study = try experiment.compare(ExperimentOptions(replications: 1)).study
        var checked = 0
        for s in study.services {
            let into = study.edges.filter { $0.variant == s.variant && $0.replication == s.replication && $0.callee == s.service }
            guard !into.isEmpty else { continue }
            let sum = { (m: Metric) in into.reduce(0.0) { $0 + $1.value(m)! } }
            for m in [Metric.calls, .attempts, .retries, .budgetDenied, .timedOut] {
                #expect(sum(m) == s.value(m), "\(s.variant) \(s.service) \(m.name)")
            }
            #expect(sum(.failed) == s.value(.failed)! + s.value(.rejected)!, "\(s.variant) \(s.service) failed")
            checked += 1
        }
        #expect(checked == 5 * 4)
        // The storm reached the edges' every outcome somewhere.
        for m in [Metric.retries, .budgetDenied, .timedOut, .failed] { #expect(study.edges.contains { $0.value(m)! > 0 }, "\(m.name)") }
    }

    @Test("edges.csv reads back equal; a directory written before it existed reads with no edges")
    func roundTrip() throws {
        var fewer = S.threeLayers()
        fewer.policy.maxAttempts = 1
        let results = try Experiment(scenario: S.threeLayers(), variants: [("three", S.threeLayers()), ("one", fewer)])
            .compare(ExperimentOptions(replications: 2))
        let files = ResultsCodec.encode(results.study)
        let read = try ResultsCodec.decode(Dictionary(uniqueKeysWithValues: files), directory: "compare")
        #expect(read.edges.count == 2 * 2 * 2 && read.edges == results.study.edges)
        #expect(read.edges.filter { $0.variant == "one" }.map { $0.value(.calls) } == [10, 40, 10, 40])
        var changed = read
        changed.edges[1].values[0] += 1
        #expect(changed.edges != read.edges)
        // An older directory: no edges.csv.
        let older = try ResultsCodec.decode(Dictionary(uniqueKeysWithValues: files.filter { $0.0 != "edges.csv" }), directory: "older")
        #expect(older.edges.isEmpty && older.services == read.services && older.summaries == read.summaries)
    }
}
