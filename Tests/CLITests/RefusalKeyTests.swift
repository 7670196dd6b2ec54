import Foundation
import TestSupport
import Testing

/// A refusal of the resource guard names the input that drives the estimate (ResourceDriver),
/// with the file and line, or the option, that set it — and `validate` refuses the same way with
/// the same words and figures. On main before this work every memory refusal named
/// `clients.count` (or `bucket` when results and tables outweighed the engines) and every events
/// refusal `clients.count`, whatever drove them: a load multiplier of 1e300 in a load.profile
/// point was "field 'clients.count': … lower clients.count or the horizon".
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct RefusalKeyTests {
    /// 100 clients at 1 operation per second each for 60 s (the base of most cases).
    static let base = "horizon: 60s\nclients: {count: 100, rate: 1/s}\n"

    /// (what, scenario, files beside it, command line after the command name with x.yaml, the
    /// expected stderr's start — file:line:col or option, and field — and its end: the knob).
    /// Lines and columns: the value of the key, counted in the scenario text given here.
    static let cases: [(String, String, [String: String], [String], String, String)] = [
        (
            "a load.profile point of 1e300 in the file", base + "load:\n  profile: [[0s, 1], [10s, 1e300], [20s, 1]]\n", [:], ["run", "x.yaml"],
            "x.yaml:4:12: field 'load.profile': needs about ", "; lower the load's multiplier (load.profile)"
        ),
        (
            "a load.profile point of 1e300 by --set", base, [:], ["run", "x.yaml", "--set", "load.profile=[[0s,1],[10s,1e300],[20s,1]]"],
            "--set load.profile=[[0s,1],[10s,1e300],[20s,1]]: field 'load.profile': needs about ", "; lower the load's multiplier (load.profile)"
        ),
        (
            "a load.csv row of 1e300", base + "load:\n  csv: traffic.csv\n", ["traffic.csv": "t_s,multiplier\n0,1\n10,1e300\n20,1\n"],
            ["run", "x.yaml"],
            "x.yaml:4:8: field 'load.csv': needs about ", "; lower the load's multiplier (load.csv)"
        ),
        // 1e6 is the largest multiplier load.spike takes (ScenarioSchema+Load).
        (
            "a spike of 10^6 by --set", base + "load:\n  spike: {at: 10s, duration: 5s, multiplier: 3}\n", [:],
            ["run", "x.yaml", "--set", "load.spike.multiplier=1e6"],
            "--set load.spike.multiplier=1e6: field 'load.spike.multiplier': needs about ", "; lower the load's multiplier (load.spike.multiplier)"
        ),
        (
            "a spike of 10^6 in one --vary value", base + "load:\n  spike: {at: 10s, duration: 5s, multiplier: 3}\n", [:],
            ["compare", "x.yaml", "--vary", "load.spike.multiplier=2,1000000", "--jobs", "1"],
            "--vary load.spike.multiplier=1000000: field 'load.spike.multiplier': needs about ",
            "; lower the load's multiplier (load.spike.multiplier) ('multiplier=1000000')"
        ),
        (
            "a variant's load.profile of 1e300", base + "variants:\n  - {name: calm}\n  - {name: storm, load.profile: [[0s, 1], [10s, 1e300]]}\n",
            [:],
            ["compare", "x.yaml", "--jobs", "1"],
            "x.yaml:5:33: field 'load.profile': needs about ", "; lower the load's multiplier (load.profile) ('storm')"
        ),
        (
            "a billion clients", base, [:], ["run", "x.yaml", "--set", "clients.count=1000000000"],
            "--set clients.count=1000000000: field 'clients.count': needs about ", "; lower clients.count"
        ),
        (
            "30 days at 100 operations per second per client", base, [:], ["run", "x.yaml", "--set", "horizon=30d", "--set", "clients.rate=100/s"],
            "--set horizon=30d: field 'horizon': needs about ", "; shorten the horizon"
        ),
        (
            "100,000 replications of 6,001 buckets", "horizon: 60s\nbucket: 10ms\nclients: {count: 10, rate: 0.1/s}\n", [:],
            ["run", "x.yaml", "--replications", "100000"],
            "--replications 100000: needs about ", "; run fewer --replications, or widen the bucket"
        ),
        (
            "ten million buckets, four replications", "horizon: 1000000s\nbucket: 100ms\nclients: {count: 10, rate: 1/s}\n", [:],
            ["run", "x.yaml", "--replications", "4", "--jobs", "1"],
            "x.yaml:2:9: field 'bucket': needs about ", "; widen the bucket, or run fewer --replications, variants or grid points"
        )
    ]

    /// Writes `yaml` as x.yaml and `files` beside it in a fresh directory.
    static func directory(_ yaml: String, _ files: [String: String]) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try yaml.write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    /// Every memory case needs more than 50 GiB; under `ulimit -v 8000000` (7.6 GiB) each is
    /// refused on any machine.
    static let limit = 8_000_000

    /// `message` without what the limit allows ("but … allows 6.0 GiB (80% of 7.5 GiB);"): the
    /// address space left differs between two processes by what each mapped.
    static func withoutAllowance(_ message: String) -> String {
        message.replacingOccurrences(of: #" but [^;]* allows [^;]*;"#, with: " but …;", options: .regularExpression)
    }

    @Test("a memory refusal names the input that drives it, where it was set; validate refuses with the same line", arguments: cases.indices)
    func memory(index: Int) throws {
        let (what, yaml, files, args, start, end) = Self.cases[index]
        let dir = try Self.directory(yaml, files)
        let r = try CLI.run(args + ["--out", "o"], in: dir, timeout: 60, addressSpaceKiB: Self.limit)
        #expect(r.status == 2 && !r.signalled, "\(what): \(r.status) \(r.stderr)")
        #expect(r.stderr.hasPrefix("retrystorm: error: " + start) && r.stderr.hasSuffix(end + "\n"), "\(what): \(r.stderr)")
        #expect(r.stderr.contains(" but the address-space limit (ulimit -v) allows "), "\(what): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(what): \(r.stderr)")
        #expect(CLI.entries(dir) == (["x.yaml"] + files.keys).sorted(), "\(what): nothing written")
        let v = try CLI.run(["validate"] + args.dropFirst(), in: dir, timeout: 60, addressSpaceKiB: Self.limit)
        #expect(v.status == 2 && Self.withoutAllowance(v.stderr) == Self.withoutAllowance(r.stderr), "\(what): validate said \(v.stderr)")
    }

    /// 100 populations of 10 clients each (1% of 1,000): each one's events are small (10
    /// clients, 60 s), their number drives the total.
    static let hundredPopulations =
        "horizon: 60s\nclients: {count: 1000, rate: 1/s}\npopulations:\n"
        + (0..<100).map { "  - {name: p\($0), share: 1%}\n" }.joined()

    /// (what, scenario, arguments, the expected stderr, whole). Events per replication
    /// (ResourceEstimate.maxEvents): an arrival per operation and three per attempt (send,
    /// timeout, answer); policy.max_attempts is 6 by default.
    static let eventCases: [(String, String, [String], String)] = [
        // Per population: 10 clients × 1/s × 60 s = 600 operations × (1 + 3 × 6) = 11,400; × 100.
        // Its factors: 10 clients (1 decade), 60 s (1.8), 6 attempts (0.8), 100 populations (2).
        (
            "a hundred populations", hundredPopulations, ["run", "x.yaml", "--max-events", "1000"],
            "x.yaml:4:5: field 'populations': a replication may process 1,140,000 events, more than --max-events 1,000; use fewer populations (or pass --max-events 1,140,000 to run it anyway)"
        ),
        // 6,000 operations; attempts 1 + ⌊60 s / (10 ms flaky latency + 1 ms wait)⌋ = 5,455:
        // 6,000 × (1 + 3 × 5,455) = 98,196,000. Factors: 5,455 attempts (3.7 decades), 100 clients (2).
        (
            "10^6 attempts 11 ms apart",
            base + "server: {model: flaky}\npolicy: {max_attempts: 1000000, backoff: {kind: constant, base: 1ms, jitter: none}}\n",
            ["run", "x.yaml", "--max-events", "1000000"],
            "x.yaml:4:24: field 'policy.max_attempts': a replication may process 98,196,000 events, more than --max-events 1,000,000; lower policy.max_attempts or add a backoff delay (or pass --max-events 98,196,000 to run it anyway)"
        ),
        // 100 clients × (55 s × 1 + 5 s × 10,000) = 5,005,500 operations × (1 + 3 × 6) = 95,104,500.
        // Factors: the load's mean multiplier 50,055 / 60 = 834 (2.9 decades), 100 clients (2).
        // A zero-delay retry loop (a flaky server that fails at once, no backoff) under a load of
        // 1e300: the load drives the events (infinite: its integral passes Double's range), not
        // the loop's 6 attempts; main named the loop ("field 'policy.max_attempts'").
        (
            "a retry loop under a load of 1e300",
            base
                + "server: {model: flaky, flaky: {failure: 1, latency: 0s}}\npolicy: {backoff: {kind: none}}\nload:\n  profile: [[0s, 1], [10s, 1e300], [20s, 1]]\n",
            ["run", "x.yaml"],
            "x.yaml:6:12: field 'load.profile': a replication may process inf events, more than --max-events 1,000,000,000; lower the load's multiplier (load.profile)"
        ),
        (
            "a spike of 10^4", base + "load:\n  spike: {at: 10s, duration: 5s, multiplier: 10000}\n", ["run", "x.yaml", "--max-events", "1000000"],
            "x.yaml:4:46: field 'load.spike.multiplier': a replication may process 95,104,500 events, more than --max-events 1,000,000; lower the load's multiplier (load.spike.multiplier) (or pass --max-events 95,104,500 to run it anyway)"
        )
    ]

    @Test("an events refusal names the input that drives it, where it was set; validate refuses with the same line", arguments: eventCases.indices)
    func events(index: Int) throws {
        let (what, yaml, args, expected) = Self.eventCases[index]
        let dir = try Self.directory(yaml, [:])
        let r = try CLI.run(args + ["--out", "o"], in: dir, timeout: 60)
        #expect(r.status == 2 && r.stderr == "retrystorm: error: \(expected)\n", "\(what): \(r.stderr)")
        let v = try CLI.run(["validate"] + args.dropFirst(), in: dir, timeout: 60)
        #expect(v.status == 2 && v.stderr == r.stderr, "\(what): validate said \(v.stderr)")
    }
}
