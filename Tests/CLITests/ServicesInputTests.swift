import Foundation
import TestSupport
import Testing

/// `services:` from the command line: one service without calls runs as the same keys under
/// `server:`, byte for byte; a bad call graph is status 2 with one line and no output; `keys`
/// documents every service path; a call hedges, the clients may not yet.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ServicesInputTests {
    static let head = """
        name: same
        seed: 3
        horizon: 40s
        bucket: 5s
        clients: {count: 200, arrival: uniform, spread: 10s, timeout: 1s}
        policy:
          max_attempts: 5
          backoff: {kind: exponential, base: 500ms, max: 8s, jitter: full}

        """
    static let server = """
        capacity: 40/s
        workers: 2
        service: deterministic
        queue: {limit: 30}
        outage: {at: 5s, duration: 10s, fraction: 0.1, recovery: linear, ramp: 10s}
        """

    /// `text` with every line indented by `spaces`.
    static func indented(_ text: String, _ spaces: Int) -> String {
        text.split(separator: "\n").map { String(repeating: " ", count: spaces) + $0 }.joined(separator: "\n") + "\n"
    }

    /// Files a run writes that quote its command line or its scenario file (or the wall clock):
    /// they name the file they were run on.
    static let quoting: Set<String> = ["command.txt", "scenario.yaml", "report.html", "perf.json"]

    @Test("one service without calls writes the same results, byte for byte, as its keys under server:")
    func singleServiceIsServer() throws {
        let dir = try CLI.temporaryDirectory()
        try (Self.head + "server:\n" + Self.indented(Self.server, 2)).write(
            to: dir.appendingPathComponent("flat.yaml"), atomically: true, encoding: .utf8)
        try (Self.head + "services:\n  - name: only\n    server:\n" + Self.indented(Self.server, 6)).write(
            to: dir.appendingPathComponent("one.yaml"), atomically: true, encoding: .utf8)
        for name in ["flat", "one"] {
            let r = try CLI.run(["run", "\(name).yaml", "--out", name, "--progress", "none"], in: dir)
            #expect(r.status == 0, "\(name): \(r.stderr)")
        }
        let flat = CLI.entries(dir.appendingPathComponent("flat"))
        #expect(flat == CLI.entries(dir.appendingPathComponent("one")))
        #expect(flat.contains("summary.csv") && flat.contains("timeseries.csv") && flat.contains("queue.svg"), "\(flat)")
        for file in flat where !Self.quoting.contains(file) {
            let a = try Data(contentsOf: dir.appendingPathComponent("flat/\(file)"))
            let b = try Data(contentsOf: dir.appendingPathComponent("one/\(file)"))
            #expect(a == b, "\(file) differs")
        }
    }

    @Test("a call to an earlier service: status 2, one line naming the file, line and field, no output")
    func cycle() throws {
        let dir = try CLI.temporaryDirectory()
        try (Self.head + "services:\n  - name: api\n  - name: db\n    calls: [{to: api}]\n").write(
            to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "s.yaml", "--out", "o"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "retrystorm: error: s.yaml:12:18: field 'services.db.calls.to': calls 'api', listed before 'db': calls go down the list: a call to an earlier service would make a cycle\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
    }

    @Test("a service's capacity_csv is read, copied and refused under the service's key")
    func serviceCapacityFile() throws {
        let dir = try CLI.temporaryDirectory()
        let yaml = Self.head + "services:\n  - name: api\n    server: {capacity: 100/s, capacity_csv: cap.csv}\n"
        try yaml.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        try "t_s,capacity_per_s\n0,100\n5,10\n15,100\n".write(to: dir.appendingPathComponent("cap.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "s.yaml", "--out", "o", "--progress", "none"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let copies = CLI.entries(dir.appendingPathComponent("o")).filter { $0.hasPrefix("input-") }
        #expect(copies.count == 1 && copies[0].hasPrefix("input-services-api-server-capacity-csv-"), "\(copies)")
        try "t_s,capacity_per_s\n0,100\n5,x\n".write(to: dir.appendingPathComponent("cap.csv"), atomically: true, encoding: .utf8)
        let bad = try CLI.run(["validate", "s.yaml"], in: dir)
        #expect(bad.status == 2)
        #expect(
            bad.stderr
                == "retrystorm: error: cap.csv:3: field 'services.api.server.capacity_csv': column capacity_per_s: expected a number (got 'x')\n")
    }

    @Test("retrystorm keys lists every service and call path")
    func keys() throws {
        let r = try CLI.run(["keys"])
        #expect(r.status == 0)
        for path in [
            "services", "services.NAME.server.KEY", "services.NAME.server.release_while_calling", "services.NAME.calls",
            "services.NAME.calls.TO.count", "services.NAME.calls.TO.parallel", "services.NAME.calls.TO.timeout",
            "services.NAME.calls.TO.failure_status", "services.NAME.calls.TO.deadline", "services.NAME.calls.TO.policy.KEY"
        ] {
            #expect(r.stdout.contains("| `\(path)` |"), "\(path)")
        }
    }

    @Test("the clients and a call graph's calls hedge, with offline clients and restarts; a bad hedge is status 2 and one line, and writes nothing")
    func hedging() throws {
        let dir = try CLI.temporaryDirectory()
        let fixture = CLI.fixture("tiny-hedged.yaml").path
        let valid = try CLI.run(["validate", fixture])
        #expect(valid.status == 0, "\(valid.stderr)")
        let hedged = try CLI.run(["validate", fixture, "--set", "policy.hedge.delay=p99"])
        #expect(hedged.status == 0, "\(hedged.stderr)")
        // The clients hedge with offline periods and an app restart too, under the conservation checks.
        let out = dir.appendingPathComponent("o").path
        let run = try CLI.run(
            [
                "run", fixture, "--out", out, "--check-invariants", "--set", "policy.hedge.delay=p99", "--set", "clients.offline.duration=5s",
                "--set", "clients.offline.fraction=0.5", "--set", "clients.restart.at=12s"
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/summary.csv"))
        let bad = dir.appendingPathComponent("bad").path
        let r = try CLI.run(["compare", fixture, "--out", bad, "--set", "policy.hedge.delay=p100"])
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "retrystorm: error: --set policy.hedge.delay=p100: field 'policy.hedge.delay': must be more than p0 and less than p100 (got 'p100')\n"
        )
        #expect(!FileManager.default.fileExists(atPath: bad))
        let keys = try CLI.run(["keys"]).stdout
        for key in ["policy.hedge.delay", "policy.hedge.max_attempts", "policy.hedge.window"] {
            #expect(keys.contains("| `\(key)` |"), "\(key)")
        }
    }

    /// A call graph refused for memory says what holds it: its services' tables (services.csv and
    /// timeseries_services.csv at 1 ms buckets, 2,000 replications: hundreds of GiB on any
    /// machine), not "population tables", which it has none of.
    @Test("a call graph refused for memory names its service tables")
    func serviceTablesNamed() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(
            ["validate", CLI.fixture("tiny-services.yaml").path, "--set", "bucket=1ms", "--replications", "2000"], in: dir)
        #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(" of service tables") && !r.stderr.contains("population"), "\(r.stderr)")
    }
}
