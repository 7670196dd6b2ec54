import Foundation
import TestSupport
import Testing

/// The resource guard: estimates that are upper bounds, checked against measured runs, and
/// refusals up front (exit 2, naming the knob) for work that would not fit or would not end.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ResourceGuardTests {
    /// `validate`'s estimate for `kind` (run, compare, sweep) with `options`: events of the
    /// largest replication and MiB at once.
    static func estimate(_ scenario: String, _ kind: String, _ options: [String], in dir: URL? = nil) throws -> (events: Double, mib: Double) {
        let v = try CLI.run(["validate", scenario] + options, in: dir)
        #expect(v.status == 0, "\(v.stderr)")
        guard let line = v.stdout.split(separator: "\n").first(where: { $0.hasPrefix("  \(kind):") }) else {
            Issue.record("validate printed no \(kind) estimate: \(v.stdout)")
            return (0, 0)
        }
        let words = line.replacingOccurrences(of: ",", with: "").split(separator: " ")
        let events = words.firstIndex(of: "most").flatMap { Double(words[$0 + 1]) } ?? 0
        let mib = words.firstIndex(of: "MiB").flatMap { Double(words[$0 - 1]) } ?? 0
        return (events, mib)
    }

    /// Runs `kind` and reads what it really took: the most events of a replication (summary.csv)
    /// and the process's peak resident set (perf.json, written after the charts).
    static func measure(_ scenario: String, _ kind: String, _ options: [String], in dir: URL) throws -> (events: Double, mib: Double) {
        let out = dir.appendingPathComponent("out-\(UUID().uuidString)")
        let r = try CLI.run([kind, scenario, "--out", out.path] + options, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try CLI.read(out.appendingPathComponent("summary.csv")).split(separator: "\n")
        let column = summary[0].split(separator: ",").firstIndex(of: "events") ?? 0
        let events = summary.dropFirst().compactMap { Double($0.split(separator: ",")[column]) }.max() ?? 0
        let perf = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("perf.json"))) as? [String: Any]
        let rss = (perf?["peak_rss_bytes"] as? NSNumber)?.doubleValue ?? 0
        try? FileManager.default.removeItem(at: out)
        return (events, rss / 1_048_576)
    }

    static let extremes: [(String, String, [String])] = [
        (
            "many replications of a tiny scenario", "horizon: 60s\nclients: {count: 10, arrival: poisson, rate: 0.1/s}\n",
            ["--replications", "2000", "--jobs", "2"]
        ),
        ("a million time buckets", "horizon: 1000000s\nbucket: 1s\nclients: {count: 10, arrival: burst}\n", []),
        (
            "a zero-delay retry loop, 10^6 attempts",
            "horizon: 60s\nclients: {count: 10, arrival: burst}\nserver: {model: flaky, flaky: {failure: 1, latency: 0s}}\npolicy: {max_attempts: 100000, backoff: {kind: none}}\n",
            []
        ),
        (
            "a congestion-prone server with immediate retries",
            "horizon: 120s\nclients: {count: 2000, arrival: poisson, rate: 0.1/s, timeout: 1s}\nserver: {capacity: 1000/s, congestion: 10ms, brownout: {at: 20s, duration: 5s, fraction: 0.1}}\npolicy: {max_attempts: 1000, backoff: {kind: none}}\n",
            []
        ),
        (
            "a 10 ms cool-off cycle",
            "horizon: 60s\nclients: {count: 100, arrival: burst, timeout: 1s}\nserver: {model: flaky, flaky: {failure: 1, latency: 1ms}}\npolicy: {max_attempts: 3, cool_off: 10ms, backoff: {kind: none}}\n",
            []
        ),
        (
            "a synchronised herd of 300,000",
            "horizon: 120s\nclients: {count: 300000, arrival: burst, timeout: 2s}\nserver: {capacity: 10000/s, queue: {limit: 5000}}\npolicy: {max_attempts: 10, backoff: {kind: exponential, base: 100ms, max: 10s, jitter: full}}\n",
            []
        ),
        (
            "a LIFO queue collapsing with immediate retries",
            "horizon: 300s\nclients: {count: 100000, arrival: poisson, rate: 0.02/s, timeout: 1s}\nserver: {capacity: 1500/s, queue: {discipline: lifo}, outage: {at: 30s, duration: 20s, fraction: 0.1}}\npolicy: {max_attempts: 20, backoff: {kind: none}}\n",
            []
        )
    ]

    /// Measured on the project's machine (docs/reliability.md): memory estimates 1.2–3.0 × the
    /// peak resident set; event estimates 1.1–200 × (retrying until success, as the contention
    /// experiment does, bounds attempts by time alone).
    static let memoryRatio = 4.0
    static let eventRatio = 250.0

    func check(_ what: String, estimate: (events: Double, mib: Double), actual: (events: Double, mib: Double)) {
        #expect(estimate.events >= actual.events, "\(what): \(actual.events) events beyond the estimate \(estimate.events)")
        #expect(estimate.mib >= actual.mib, "\(what): \(actual.mib) MiB beyond the estimate \(estimate.mib)")
        #expect(estimate.mib <= Self.memoryRatio * actual.mib, "\(what): estimate \(estimate.mib) MiB for \(actual.mib)")
        #expect(estimate.events <= Self.eventRatio * max(1, actual.events), "\(what): estimate \(estimate.events) events for \(actual.events)")
    }

    @Test(
        "extreme scenarios: the estimate is never below the measured peak memory and events, and not absurdly above",
        arguments: extremes.indices)
    func extreme(index: Int) throws {
        let (what, yaml, options) = Self.extremes[index]
        let dir = try CLI.temporaryDirectory()
        try yaml.write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        check(what, estimate: try Self.estimate("x.yaml", "run", options, in: dir), actual: try Self.measure("x.yaml", "run", options, in: dir))
    }

    @Test(
        "every experiment: the estimate is never below the measured peak memory and events, and not absurdly above",
        arguments: [
            "aws-occ-contention", "bench-fleet", "jitter-comparison", "library-presets", "metastable", "mobile-fleet",
            "quickstart", "retry-budget", "tune-delays"
        ])
    func experiment(name: String) throws {
        let file = CLI.packageRoot.appendingPathComponent("experiments/\(name).yaml").path
        let dir = try CLI.temporaryDirectory()
        let kind = ["bench-fleet", "quickstart"].contains(name) ? "run" : name == "tune-delays" ? "sweep" : "compare"
        let options = kind == "run" ? [] : ["--replications", "2", "--jobs", "2"]
        check(name, estimate: try Self.estimate(file, kind, options), actual: try Self.measure(file, kind, options, in: dir))
    }

    /// A scenario whose base is small but one point of the study is not.
    static let small = "horizon: 60s\nclients: {count: 100}\n"

    @Test(
        "a variant, a --vary value or a grid point too large for memory is refused before anything runs, by the command and by validate",
        arguments: [
            (["compare", "x.yaml"], small + "variants:\n  - {name: big, clients.count: 1000000000, clients.rate: 1/s}\n", "('big')"),
            (["compare", "x.yaml", "--vary", "clients.count=10,1000000000", "--set", "clients.rate=1/s"], small, "('count=1000000000')"),
            (["sweep", "x.yaml", "--grid", "clients.count=10,1000000000", "--set", "clients.rate=1/s"], small, "('count=1000000000')")
        ])
    func largePointsRefused(args: [String], yaml: String, point: String) throws {
        let dir = try CLI.temporaryDirectory()
        try yaml.write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        let clock = Date()
        let r = try CLI.run(args, in: dir)
        #expect(r.status == 2 && r.stderr.contains("needs about") && r.stderr.contains(point), "\(r.stderr)")
        #expect(Date().timeIntervalSince(clock) < 10, "refused up front, not after running")
        #expect(CLI.entries(dir) == ["x.yaml"], "nothing written: \(CLI.entries(dir))")
        let validateArgs = ["validate"] + args.dropFirst().map { $0 == "--grid" ? "--grid" : $0 }
        let v = try CLI.run(validateArgs, in: dir)
        #expect(v.status == 2 && v.stderr.contains("needs about") && v.stderr.contains(point), "validate: \(v.stderr)")
    }

    @Test("a grid of 10^9 points is refused before any point is built")
    func hugeGrid() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.small.write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        let clock = Date()
        let r = try CLI.run(
            [
                "sweep", "x.yaml", "--grid", "policy.max_attempts=1...1000:lin:1000",
                "--grid", "clients.count=1...1000:lin:1000", "--grid", "server.workers=1...1000:lin:1000"
            ], in: dir)
        #expect(r.status == 2 && r.stderr.contains("1,000,000,000 points; at most 100,000"), "\(r.stderr)")
        #expect(Date().timeIntervalSince(clock) < 10)
    }

    @Test(
        "work whose events have no bound but max_attempts or a tiny cool-off is refused up front, naming the knob; --max-events lets it run",
        arguments: [
            (
                "clients: {count: 1000, arrival: burst}\nserver: {model: flaky, flaky: {failure: 1, latency: 0s}}\npolicy: {max_attempts: 1000000, backoff: {kind: none}}\n",
                "policy.max_attempts", "a failure can come back at once while the policy retries at once"
            ),
            (
                "clients: {count: 10, arrival: burst}\nserver: {model: flaky, flaky: {failure: 1, latency: 0s}}\npolicy: {max_attempts: 3, cool_off: 1ns, backoff: {kind: none}}\n",
                "policy.cool_off", "policy.cool_off repeats 3 attempts"
            ),
            (
                "clients: {count: 10, arrival: burst}\nserver: {model: flaky, flaky: {failure: 1, latency: 1us}}\npolicy: {max_attempts: 3, cool_off: 1ns, backoff: {kind: none}}\n",
                "policy.cool_off", "lengthen policy.cool_off"
            )
        ])
    func unboundedRefused(yaml: String, field: String, fragment: String) throws {
        let dir = try CLI.temporaryDirectory()
        try ("horizon: 60s\n" + yaml).write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        for command in ["run", "validate"] {
            let r = try CLI.run([command, "x.yaml"], in: dir, timeout: 30)
            #expect(r.status == 2 && r.stderr.contains("field '\(field)'") && r.stderr.contains(fragment), "\(command): \(r.stderr)")
            #expect(r.stderr.contains("--max-events"), "names the way to run it anyway: \(r.stderr)")
        }
        #expect(CLI.entries(dir) == ["x.yaml"])
    }

    @Test("--max-events: a small loop refused under a low limit runs under a higher one")
    func maxEventsRaises() throws {
        let dir = try CLI.temporaryDirectory()
        let yaml =
            "horizon: 60s\nclients: {count: 10, arrival: burst}\nserver: {model: flaky, flaky: {failure: 1, latency: 0s}}\npolicy: {max_attempts: 10000, backoff: {kind: none}}\n"
        try yaml.write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        let low = try CLI.run(["run", "x.yaml", "--max-events", "100000"], in: dir)
        #expect(low.status == 2 && low.stderr.contains("more than --max-events 100,000"), "\(low.stderr)")
        let high = try CLI.run(["run", "x.yaml", "--max-events", "400000", "--out", "o"], in: dir)
        #expect(high.status == 0, "\(high.stderr)")
    }

    @Test("the address-space limit (ulimit -v) is the machine's limit: a run that would not fit under it is refused, not killed")
    func addressSpaceLimit() throws {
        let dir = try CLI.temporaryDirectory()
        let file = CLI.packageRoot.appendingPathComponent("experiments/bench-fleet.yaml").path
        let (status, stderr) = try CLI.run(limitedTo: 250_000, ["run", file, "--out", dir.appendingPathComponent("o").path])
        #expect(status == 2, "\(status): \(stderr)")
        #expect(stderr.contains("the address-space limit (ulimit -v) allows"), "\(stderr)")
    }
}
