import GSLSupport
import RetryStormResults
import RetryStormVocabulary
import Testing

/// `services.NAME.METRIC` in gates and constraints: a call graph's service's metric, judged on
/// that service's rows of services.csv, which ``MetricTable`` keeps beside the fleet's.
struct ServiceMetricTests {
    static let here = SourceLocation(origin: .option("--expect"))

    /// One point `p`, two replications, two services: `db` receives 3 and 5 requests per user
    /// operation (mean 4), `api` 1 and 1; summary.csv's columns are all 0.
    static func table() throws -> MetricTable {
        func summary(_ r: Int) -> String { (["p", String(r), "1", "20"] + SummaryRecord.metrics.map { _ in "0" }).joined(separator: ",") }
        func service(_ r: Int, _ name: String, _ perOperation: String) -> String {
            (["p", String(r), name] + ServiceRecord.metrics.map { $0 == .requestsPerOperation ? perOperation : "0" }).joined(separator: ",")
        }
        let s = [SummaryRecord.columns.joined(separator: ","), summary(0), summary(1)].joined(separator: "\n") + "\n"
        let rows = [service(0, "api", "1"), service(0, "db", "3"), service(1, "api", "1"), service(1, "db", "5")]
        let v = ([ServiceRecord.columns.joined(separator: ",")] + rows).joined(separator: "\n") + "\n"
        return MetricTable(
            names: ["p"], parameters: [[]], parameterPaths: [], summaries: try ResultsCodec.summaries(s, file: "s.csv"),
            services: try ResultsCodec.services(v, file: "v.csv"))
    }

    /// The message `body` throws, nil when it throws nothing.
    func message(_ body: () throws(ScenarioError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch { return error.messageText }
    }

    @Test("services.NAME.METRIC parses to the service and a services.csv metric")
    func parse() throws {
        let e = try Expectation.parse("services.db.requests_per_operation.ci95_high<=2", at: Self.here)
        #expect(e.service == "db" && e.population == nil && e.metric == .requestsPerOperation && e.statistic == .ci95High && e.value == 2)
        #expect(e.scoped.description == "services.db.requests_per_operation")
        // A service name may hold '-' and '_' as the loader allows.
        #expect(try Expectation.parse("services.db-2_a.wasted<=0", at: Self.here).service == "db-2_a")
        // Not an objective: tune minimises the fleet's or a population's metric.
        #expect(Objective("services.db.requests_per_operation") == nil)
    }

    @Test("a summary-only metric, a misspelt one, an unknown service or no call graph is one line")
    func refused() throws {
        #expect(
            message { () throws(ScenarioError) in _ = try Expectation.parse("services.db.requests_per_operaton<=2", at: Self.here) }
                == "'requests_per_operaton' is not a metric (services.csv column). Did you mean 'services.db.requests_per_operation'?")
        #expect(
            message { () throws(ScenarioError) in _ = try Expectation.parse("services.db.recovery_after_trigger_s<=2", at: Self.here) }?
                .hasPrefix("'recovery_after_trigger_s' is not a metric (services.csv column).") == true)
        let e = try Expectation.parse("services.bd.requests_per_operation<=2", at: Self.here)
        #expect(
            message { () throws(ScenarioError) in try e.check(services: ["api", "db"]) }
                == "'bd' is not a service of this scenario (api, db). Did you mean 'db'?")
        #expect(
            message { () throws(ScenarioError) in try e.check(services: []) }
                == "'services.bd.requests_per_operation': this scenario has no call graph (see `services:`)")
        #expect(
            message { () throws(ScenarioError) in _ = try Objective.parse("services.db.requests_per_operation", at: Self.here) }?
                .contains("tune's objective is the fleet's or a population's metric") == true)
    }

    /// db: mean 4, s = √2, half-width t(0.975, 1)·s/√2 = 12.706, so [−8.706, 16.706] cut at 0;
    /// api: 1 exactly.
    @Test("a service's gate judges that service's rows, not the fleet's")
    func judged() throws {
        let table = try Self.table()
        #expect(table.serviceNames == ["api", "db"])
        let db = try Expectation.parse("services.db.requests_per_operation<=3.5", at: Self.here)
        let outcome = try #require(db.outcomes(in: table).first)
        #expect(outcome.value == 4 && !outcome.holds && outcome.interval.low == 0)
        #expect(abs(outcome.interval.high - 16.706) < 0.001)
        #expect(
            db.failures(in: table) == [
                "services.db.requests_per_operation<=3.5 (--expect): p has services.db.requests_per_operation = 4.000 (95% CI 0.000…16.706, 2 replications)"
            ])
        let api = try Expectation.parse("services.api.requests_per_operation.ci95_high<=1", at: Self.here)
        #expect(api.failures(in: table).isEmpty && api.verdict(at: "p", in: table) == .met)
        let missing = try Expectation.parse("services.cache.wasted<=0", at: Self.here)
        #expect(missing.failures(in: table) == ["services.cache.wasted<=0 (--expect): no service named 'cache' in these results"])
    }
}
