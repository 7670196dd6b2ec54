import RetryPolicy
import RetryStormEngine
import RetryStormKit
import Testing

/// services.csv and timeseries_services.csv (issue 28, item 4), made through `Experiment`, the
/// code path of `retrystorm run` and `compare`: a call graph's three layers over a failing
/// database, whose every count follows from the attempts per layer.
@Suite("Service outputs")
struct ServiceOutputTests {
    static let second: Int64 = 1_000_000_000

    /// A queue server of 1,000,000 requests per second over 1,000 workers (1 ms a request, so
    /// nothing queues), failing every request with a 500 when `failing`.
    static func server(failing: Bool = false) -> Scenario.Server {
        .init(
            capacity: 1_000_000, profile: .constant,
            model: .queue(.init(workers: 1000, service: .deterministic, limit: nil, dropExpired: false)),
            errors: failing ? .init(serverError: 1) : .none)
    }

    static func policy(attempts: Int) -> RetryPolicy {
        RetryPolicy(backoff: Backoff(kind: .constant, base: second / 100, max: second / 100, jitter: .none), maxAttempts: attempts)
    }

    static func call(_ to: Int, attempts: Int) -> Scenario.Call {
        Scenario.Call(to: to, timeout: 100 * second, policy: policy(attempts: attempts))
    }

    /// CallGraphTests.retriesMultiply's graph: 10 operations at t = 0; the client makes 3 attempts,
    /// the frontend's call 4, the backend's 5, at a database that fails every request. Each layer's
    /// requests are its callers' attempts: 10 × 3 = 30 at the frontend, 30 × 4 = 120 at the
    /// backend, 120 × 5 = 600 at the database; everything ends within 0.6 s, in the first bucket.
    static func threeLayers(warmup: Int64 = 0) -> Scenario {
        let services: [Scenario.Service] = [
            .init(name: "frontend", server: server(), calls: [call(1, attempts: 4)]),
            .init(name: "backend", server: server(), calls: [call(2, attempts: 5)]),
            .init(name: "db", server: server(failing: true))
        ]
        var sc = Scenario(
            name: "graph", seed: 1, horizon: 5 * second, bucket: second,
            clients: .init(count: 10, arrival: .burst(at: 0), timeout: 100 * second), server: services[0].server,
            policy: policy(attempts: 3))
        sc.services = services
        sc.warmup = warmup
        return sc
    }

    static func file(_ results: ExperimentResults, _ name: String) -> String? {
        results.files.first { $0.name == name }?.contents
    }

    @Test("services.csv: every column of each layer, 3 × 4 × 5 = 60 requests per operation at the bottom")
    func servicesFile() throws {
        let results = try Experiment(scenario: Self.threeLayers()).run(ExperimentOptions(replications: 1))
        // frontend: 30 requests (the clients' 10 × 3 attempts), each answered 503; the calls are the 10
        // operations, which all gave up. backend: the frontend's 30 requests each call it once with 4
        // attempts. db: the backend's 120 requests each call it once with 5 attempts; every one fails.
        // Peak load: the requests of the one busy second over 1,000,000/s. No trigger: no incident and
        // nothing to recover from (nan); a run shorter than stuck_window (20 s) is not judged stuck
        // (nan). Latencies, each the same for every request of a service
        // (nothing queues, nothing is random): a db request is served in 1 ms; a backend request
        // takes its 1 ms, then 5 db attempts of 1 ms 10 ms apart, 46 ms; a frontend request its
        // 1 ms, then 4 backend attempts 10 ms apart, 1 + 4 × 46 + 3 × 10 = 215 ms. Read as the
        // middle of their histogram bins (LatencyHistogram): 1,001,471.5 ns, 46,006,271.5 ns and
        // 215,482,367.5 ns.
        #expect(
            Self.file(results, "services.csv") == """
                variant,replication,service,requests,served,succeeded,failed,rejected,timed_out,wasted,expired,calls,attempts,retries,calls_failed,budget_denied,held_back,requests_per_operation,incident_requests_per_operation,attempts_per_call,peak_load_ratio,recovery_s,recovered,latency_p50_s,latency_p99_s,stuck
                base,0,frontend,30,30,0,30,0,0,0,0,10,30,20,10,0,0,3.000000,nan,3.000000,0.000030,nan,nan,0.215482,0.215482,nan
                base,0,backend,120,120,0,120,0,0,0,0,30,120,90,30,0,0,12.000000,nan,4.000000,0.000120,nan,nan,0.046006,0.046006,nan
                base,0,db,600,600,0,600,0,0,0,0,120,600,480,120,0,0,60.000000,nan,5.000000,0.000600,nan,nan,0.001001,0.001001,nan

                """)
        let db = try #require(results.study.services.last)
        #expect(db.value(.requestsPerOperation) == 60 && db.value(.attemptsPerCall) == 5 && db.value(.gaveUp) == nil)
    }

    @Test("services.csv leaves the warmup's buckets out: a burst inside it counts nothing, its ratios nan")
    func warmup() throws {
        let results = try Experiment(scenario: Self.threeLayers(warmup: Self.second)).run(ExperimentOptions(replications: 1))
        let rows = try #require(Self.file(results, "services.csv")).split(separator: "\n")
        #expect(rows.count == 4)
        #expect(rows[3] == "base,0,db,0,0,0,0,0,0,0,0,0,0,0,0,0,0,nan,nan,nan,0.000000,nan,nan,nan,nan,nan")
        #expect(Self.file(results, "edges.csv")?.split(separator: "\n").last == "base,0,backend,db,0,0,0,0,0,0,0,nan,nan")
        // The time series keeps every bucket, the warmup's too.
        #expect(try #require(Self.file(results, "timeseries_services.csv")).contains("\nbase,0,db,0.000,600,600,1000000.000,0,0,480\n"))
    }

    @Test("timeseries_services.csv: a row per service and bucket, the requests in the busy first second")
    func seriesFile() throws {
        let results = try Experiment(scenario: Self.threeLayers()).run(ExperimentOptions(replications: 1))
        let rows = try #require(Self.file(results, "timeseries_services.csv")).split(separator: "\n").map(String.init)
        #expect(rows.first == "variant,replication,service,t_s,offered,served,capacity_per_s,queue_len,timed_out,retries")
        #expect(rows.count == 1 + 3 * 5)
        #expect(
            Array(rows[1...2]) == ["base,0,frontend,0.000,30,30,1000000.000,0,0,20", "base,0,frontend,1.000,0,0,1000000.000,0,0,0"])
        #expect(rows[6] == "base,0,backend,0.000,120,120,1000000.000,0,0,90")
        #expect(rows[11] == "base,0,db,0.000,600,600,1000000.000,0,0,480")
        #expect(rows[15] == "base,0,db,4.000,0,0,1000000.000,0,0,0")
        let db = try #require(results.study.serviceSeries.last)
        #expect(db.service == "db" && db.buckets == 5 && db.column(.offered) == [600, 0, 0, 0, 0] && db.column(.gaveUp) == nil)
    }

    @Test("a compare's services files read back equal: write, read, compare the typed results")
    func roundTrip() throws {
        var fewer = Self.threeLayers()
        fewer.policy.maxAttempts = 1
        let results = try Experiment(scenario: Self.threeLayers(), variants: [("three", Self.threeLayers()), ("one", fewer)])
            .compare(ExperimentOptions(replications: 2))
        let files = ResultsCodec.encode(results.study)
        #expect(files.map(\.0).filter { $0.contains("services") } == ["services.csv", "timeseries_services.csv"])
        let read = try ResultsCodec.decode(Dictionary(uniqueKeysWithValues: files), directory: "compare")
        #expect(read.services.count == 2 * 2 * 3 && read.serviceSeries.count == 2 * 2 * 3)
        #expect(read.services == results.study.services && read.serviceSeries == results.study.serviceSeries)
        // Nothing succeeds, so tts_quantiles.csv has no rows, and reads back without the empty records.
        var written = results.study
        written.quantiles.removeAll { $0.levels.isEmpty }
        #expect(read == written)
        // One client attempt instead of 3: a third of the requests at every layer.
        #expect(read.services.filter { $0.variant == "one" }.map { $0.value(.requestsPerOperation) } == [1, 4, 20, 1, 4, 20])
        // A changed value is a different result.
        var changed = read
        changed.services[0].values[0] += 1
        #expect(changed != written)
    }

    @Test("a one-hop run writes neither file")
    func oneHop() throws {
        var sc = Self.threeLayers()
        sc.services = []
        let results = try Experiment(scenario: sc).run(ExperimentOptions(replications: 1))
        #expect(results.files.map(\.name).filter { $0.contains("services") || $0.contains("edges") }.isEmpty)
        #expect(results.study.services.isEmpty && results.study.serviceSeries.isEmpty && results.study.edges.isEmpty)
    }
}
