import Foundation
import TestSupport
import Testing

/// Release gates on the command line: a time bound with a duration's unit, the margin of a gate
/// that passes, and "did you mean" for a misspelt command.
///
/// The scenario is TuneTests' flaky server (each attempt fails with probability 1/2 after 10 ms,
/// constant 10 ms backoff, no jitter): with 3 attempts an operation that succeeds took 10, 30 or
/// 50 ms, and 1/7 of the successes take 3 attempts, so the p99 among successes
/// (`tts_success_p99_s`) is 50 ms exactly, in every replication. (Over every operation it is
/// never: 1/8 of them give up.)
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct GateTests {
    func run(_ args: [String]) throws -> CLI.Result {
        let dir = try CLI.temporaryDirectory()
        try TuneTests.flaky.write(to: dir.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        return try CLI.run(args + ["--progress", "none"], in: dir)
    }

    @Test("a time bound takes a duration's unit: 50 ms passes <=50ms at equality and fails <50ms; 5000ms is 5 s")
    func durationUnits() throws {
        let pass = try run(["run", "t.yaml", "--out", "o", "--expect", "tts_success_p99_s<=50ms", "--expect", "tts_success_p99_s<=5000ms"])
        #expect(pass.status == 0, "\(pass.stderr)")
        // The margin: 50 ms at its bound; 5 s − 50 ms = 4,950 ms inside the other.
        #expect(
            pass.stderr.contains("  - tts_success_p99_s<=50ms (--expect tts_success_p99_s<=50ms): base has 50.0 ms (one replication), at the bound\n")
        )
        #expect(
            pass.stderr.contains(
                "  - tts_success_p99_s<=5000ms (--expect tts_success_p99_s<=5000ms): base has 50.0 ms (one replication), 4,950 ms inside the bound\n")
        )
        let fail = try run(["run", "t.yaml", "--out", "o", "--expect", "tts_success_p99_s<50ms"])
        #expect(fail.status == 1 && fail.stderr.contains("base has tts_success_p99_s = 0.050"), "\(fail.stderr)")
    }

    @Test("a bad unit is exit 2 and one line naming the option and the field, before anything runs")
    func badUnit() throws {
        let r = try run(["run", "t.yaml", "--out", "o", "--expect", "tts_success_p99_s<=5000xs"])
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "retrystorm: error: --expect tts_success_p99_s<=5000xs: field 'tts_success_p99_s': expected a duration such as 250ms, 2s or 5m (got '5000xs'); a plain number is seconds\n"
        )
        // A unit on a metric that is not a time.
        let ratio = try run(["run", "t.yaml", "--out", "o", "--expect", "amplification<=5ms"])
        #expect(ratio.status == 2 && ratio.stderr.contains("--expect amplification<=5ms: field 'amplification': '5ms' is not a number"))
    }

    @Test("a gate that passes prints its margin with the interval, at the tightest point, and says when the interval crosses the bound")
    func margins() throws {
        // Gave up with n attempts: 2^−n of 5,000 operations, 1.56% for n = 6, 0.78% for n = 7 — the
        // tightest point against 1.7% is n = 6, 0.14 points inside on average, and its interval over
        // three replications (about ±0.44 points, TuneTests.withinNoiseIsNotMet) crosses 1.7%.
        let r = try run([
            "compare", "t.yaml", "--out", "o", "--replications", "3", "--vary", "policy.max_attempts=6,7",
            "--expect", "gave_up_fraction<=1.7%"
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("  - gave_up_fraction<=1.7%") }.map(String.init))
        #expect(line.contains(": max_attempts=6 (the tightest of 2 points) has 1.49% (95% CI [1.07, 1.92])"), "\(line)")
        #expect(line.hasSuffix("inside the bound; within noise of the bound"), "\(line)")
    }

    @Test("a misspelt command gets the nearest command; a word near none lists them", arguments: [("tnue", "tune"), ("comapre", "compare")])
    func misspeltCommand(word: String, nearest: String) throws {
        let r = try run([word, "t.yaml"])
        #expect(r.status == 2)
        #expect(r.stderr == "retrystorm: error: '\(word)' is not a command; did you mean '\(nearest)'? (see retrystorm --help)\n")
        let none = try run(["xyzzy"])
        #expect(none.status == 2 && none.stderr.hasPrefix("retrystorm: error: 'xyzzy' is not a command (commands: run, compare, sweep, tune,"))
    }
}
