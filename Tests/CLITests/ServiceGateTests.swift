import Foundation
import TestSupport
import Testing

/// Release gates on a call graph's service (`--expect services.NAME.METRIC…`), end to end.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ServiceGateTests {
    /// services.csv's rows as column → field.
    static func rows(_ text: String) -> [[String: String]] {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// The gate reads services.csv as written: db's requests per user operation, averaged over
    /// the two replications, passes a bound just above its mean and fails one just below.
    @Test("a gate on a service passes above its mean and fails below it, naming the service")
    func judgedAsWritten() throws {
        let dir = try CLI.temporaryDirectory()
        let fixture = CLI.fixture("tiny-services.yaml").path
        let first = try CLI.run(["compare", fixture, "--replications", "2", "--out", "o"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let db = Self.rows(try CLI.read(dir.appendingPathComponent("o/services.csv")))
            .filter { $0["variant"] == "small-db" && $0["service"] == "db" }
            .compactMap { $0["requests_per_operation"].flatMap(Double.init) }
        #expect(db.count == 2)
        let mean = db.reduce(0, +) / 2
        let above = String(format: "small-db:services.db.requests_per_operation<=%.6f", mean + 1e-4)
        let below = String(format: "small-db:services.db.requests_per_operation<=%.6f", mean - 1e-4)
        let pass = try CLI.run(["compare", fixture, "--replications", "2", "--out", "p", "--expect", above], in: dir)
        #expect(pass.status == 0, "\(pass.stderr)")
        let fail = try CLI.run(["compare", fixture, "--replications", "2", "--out", "f", "--expect", below], in: dir)
        #expect(fail.status == 1 && fail.stderr.contains("small-db has services.db.requests_per_operation = "), "\(fail.stderr)")
    }

    @Test(
        "a service the scenario lacks, or a gate on a service without a call graph, is exit 2 before anything runs",
        arguments: [
            (
                "tiny-services.yaml", "services.bd.requests_per_operation<=2",
                "'bd' is not a service of this scenario (api, cache, db). Did you mean 'db'?"
            ),
            ("tiny.yaml", "services.db.requests_per_operation<=2", "this scenario has no call graph"),
            ("tiny-services.yaml", "services.db.recovery_after_trigger_s<=2", "'recovery_after_trigger_s' is not a metric (services.csv column)")
        ])
    func refused(fixture: String, gate: String, fragment: String) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["run", CLI.fixture(fixture).path, "--out", "o", "--expect", gate], in: dir)
        #expect(r.status == 2 && r.stderr.contains(fragment), "\(r.stderr)")
        #expect(CLI.entries(dir).isEmpty, "nothing written")
    }
}

extension ServiceGateTests {
    /// A service's request latency is a services.csv metric like the others (issue 40): a gate
    /// just above the value written passes, one just below fails naming it; edges.csv's metrics
    /// are no service's, and `hedges` (edges.csv only) is refused with exit 2.
    @Test("a gate on a service's latency_p99_s reads services.csv's value; hedges is no services.csv metric")
    func latencyGate() throws {
        let dir = try CLI.temporaryDirectory()
        let fixture = CLI.fixture("tiny-services.yaml").path
        let first = try CLI.run(["run", fixture, "--out", "o"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let p99 = try #require(
            Self.rows(try CLI.read(dir.appendingPathComponent("o/services.csv"))).first { $0["service"] == "db" }?["latency_p99_s"]
                .flatMap(Double.init))
        #expect(p99 > 0)
        let pass = try CLI.run(["run", fixture, "--out", "p", "--expect", String(format: "services.db.latency_p99_s<=%.6f", p99 + 1e-4)], in: dir)
        #expect(pass.status == 0, "\(pass.stderr)")
        let fail = try CLI.run(["run", fixture, "--out", "f", "--expect", String(format: "services.db.latency_p99_s<=%.6f", p99 - 1e-4)], in: dir)
        #expect(fail.status == 1 && fail.stderr.contains("base has services.db.latency_p99_s = "), "\(fail.stderr)")
        let edgeOnly = try CLI.run(["run", fixture, "--out", "e", "--expect", "services.db.hedges<=2"], in: dir)
        #expect(edgeOnly.status == 2 && edgeOnly.stderr.contains("'hedges' is not a metric (services.csv column)"), "\(edgeOnly.stderr)")
        let edges = try CLI.read(dir.appendingPathComponent("o/edges.csv"))
        #expect(edges.hasPrefix("variant,replication,caller,callee,"))
    }
}
