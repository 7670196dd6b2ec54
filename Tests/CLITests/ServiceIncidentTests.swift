import Foundation
import TestSupport
import Testing

/// services.csv's `incident_requests_per_operation` (issue 40): the whole run's requests per user
/// operation average the storm with the calm; this is the incident window's own. Checked against
/// its definition, recomputed from the time series the same run writes.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ServiceIncidentTests {
    /// A CSV file's rows as column → field.
    static func rows(_ text: String) -> [[String: String]] {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// tiny-services: db's capacity drops at 5 s and is back at 25 s (a 10 s outage, then a 10 s
    /// ramp), in 5 s buckets. The incident window is the trigger's buckets, [1, 5), stretched to
    /// the first healthy bucket, (5 s + recovery_s) / 5 s: the requests db received in those
    /// buckets (timeseries_services.csv) over the user operations started in them (timeseries.csv).
    @Test("a service's requests per user operation in the incident are the window's requests over its operations")
    func incidentWindow() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["run", CLI.fixture("tiny-services.yaml").path, "--out", "o"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        func read(_ file: String) throws -> [[String: String]] { Self.rows(try CLI.read(dir.appendingPathComponent("o/\(file)"))) }
        let summary = try #require(try read("summary.csv").first)
        let recovery = try #require(summary["recovery_s"].flatMap(Double.init))
        #expect(recovery.isFinite && recovery > 0)
        let healthy = Int((5 + recovery) / 5)
        let window = 1..<min(12, max(healthy, 5))
        let operations = try read("timeseries.csv").map { Double($0["operations"]!)! }
        for service in ["api", "cache", "db"] {
            let offered = try read("timeseries_services.csv").filter { $0["service"] == service }.map { Double($0["offered"]!)! }
            let expected = window.map { offered[$0] }.reduce(0, +) / window.map { operations[$0] }.reduce(0, +)
            let row = try #require(try read("services.csv").first { $0["service"] == service })
            let written = try #require(row["incident_requests_per_operation"].flatMap(Double.init))
            #expect(abs(written - expected) <= 5e-7, "\(service): \(written) against \(expected)")
        }
    }

    @Test("without a trigger there is no incident: nan")
    func noTrigger() throws {
        let dir = try CLI.temporaryDirectory()
        let yaml = """
            horizon: 20s
            clients: {count: 20, rate: 1/s, timeout: 1s}
            services:
              - name: api
                calls: [{to: db, count: 2}]
              - name: db

            """
        try yaml.write(to: dir.appendingPathComponent("n.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "n.yaml", "--out", "o"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = Self.rows(try CLI.read(dir.appendingPathComponent("o/services.csv")))
        #expect(rows.count == 2 && rows.allSatisfy { $0["incident_requests_per_operation"] == "nan" })
        // The whole run's figure: db gets two requests per user operation when nothing fails.
        #expect(rows.last?["requests_per_operation"].flatMap(Double.init).map { abs($0 - 2) < 0.02 } == true)
    }
}
