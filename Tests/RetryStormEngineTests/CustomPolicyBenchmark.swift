import Foundation
import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// `make bench`'s custom-policy figures: bench-fleet (1M clients, a 60 s outage to 10% capacity)
/// run with the library's policy and with ``CustomPolicyTests/FullJitter``, the same policy
/// written as a caller's own type in another module — the engine then runs the loop it
/// specialised for its wrapper, `CallerPolicy`, which calls the type's conformance, instead of
/// the loop specialised for ``RetryPolicy``.
/// Alternated in pairs, as the VM's speed drifts. Runs only under scripts/bench.sh (the
/// environment variable names the CSV to append to); what it asserts is that both give the same
/// results, bit for bit. Timing is reported, never asserted.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["RETRYSTORM_BENCH_CSV"] != nil), .timeLimit(.benchmark), .endsRunPastTimeLimit)
struct CustomPolicyBenchmark {
    @Test("bench-fleet with the library's policy and the same policy as a custom type: same results; wall times to bench.csv")
    func customAgainstLibrary() throws {
        let env = ProcessInfo.processInfo.environment
        let runs = Int(env["RUNS"] ?? "") ?? 5
        let library = Scenarios.make(
            clients: 1_000_000, arrival: .poisson(ratePerClient: 0.01, start: 0, until: .max), timeout: 2, capacity: 20_000,
            service: .exponential,
            profile: .outage(at: 60 * Scenarios.s, duration: 60 * Scenarios.s, fraction: 0.1, recovery: .linear, ramp: 120 * Scenarios.s),
            policy: CustomPolicyTests.FullJitter.library, horizon: 600)
        var custom = library
        custom.customPolicy = CustomPolicy(CustomPolicyTests.FullJitter())
        var times: (library: [Double], custom: [Double]) = ([], [])
        var events: Int64 = 0
        for _ in 0..<runs {
            let start = ContinuousClock.now
            let a = Simulator.run(library, replication: 0)
            let middle = ContinuousClock.now
            let b = Simulator.run(custom, replication: 0)
            let end = ContinuousClock.now
            #expect(a.summary == b.summary && a.counts == b.counts)
            times.library.append(Self.seconds(middle - start))
            times.custom.append(Self.seconds(end - middle))
            events = a.summary.events
        }
        var rows = ""
        for (name, t) in [("policy-library", times.library), ("policy-custom", times.custom)] {
            let sorted = t.sorted()
            let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            rows +=
                "\(name),1000000,1,\(runs),\(events),\(Self.fixed(median)),\(Self.fixed(sorted[0])),\(Self.fixed(sorted[sorted.count - 1])),"
                + "\(Int((Double(events) / median).rounded())),,,\n"
        }
        let path = try #require(env["RETRYSTORM_BENCH_CSV"])
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(rows.utf8))
        try handle.close()
        FileHandle.standardError.write(Data(rows.utf8))
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func fixed(_ x: Double) -> String { String(format: "%.3f", x) }
}
