import Foundation
import TestSupport
import Testing

/// `stuck` on the command line: a column of summary.csv, P(stuck) with Wilson's interval in the
/// table, and a gate like any metric's. experiments/metastable.yaml's `no-backoff` retries at once
/// into a congestion-prone server and never gets out (every replication stuck); full-jitter
/// backoff gets out (none). Wilson's 95% interval for k of n (z = 1.96): 5 of 5 is
/// [n/(n + z²), 1] = [0.566, 1], 0 of 5 is [0, z²/(n + z²)] = [0, 0.434].
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct StuckGateTests {
    func compare(_ extra: [String]) throws -> CLI.Result {
        let file = CLI.packageRoot.appendingPathComponent("experiments/metastable.yaml").path
        return try CLI.run(
            ["compare", file, "--out", "o", "--replications", "5", "--progress", "none"]
                + extra, in: try CLI.temporaryDirectory())
    }

    @Test("P(stuck) is a column with Wilson's interval, and stuck<=1% fails on the variant that stays stuck")
    func gate() throws {
        let r = try compare(["--expect", "stuck<=1%"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(
            r.stderr.contains("  - stuck<=1% (--expect stuck<=1%): no-backoff has stuck = 1.000 (95% CI 0.566…1.000, 5 replications)"), "\(r.stderr)")
        #expect(!r.stderr.contains("backoff-jitter has stuck"), "\(r.stderr)")
        let header = try #require(r.stdout.split(separator: "\n").first { $0.contains("variant") && $0.contains("stuck") })
        #expect(header.contains("recovery") && header.contains("stuck"))
        #expect(r.stdout.contains("100 [57, 100]"), "\(r.stdout)")
        #expect(r.stdout.contains("0 [0.0, 43.4]"), "\(r.stdout)")
    }

    @Test("a gate on the interval's upper end judges Wilson's bound: 0 of 5 is at most 43.4%")
    func upperEnd() throws {
        let pass = try compare(["--expect", "backoff-jitter:stuck.ci95_high<=45%"])
        #expect(pass.status == 0, "\(pass.stderr)")
        let fail = try compare(["--expect", "backoff-jitter:stuck.ci95_high<=40%"])
        #expect(fail.status == 1, "\(fail.stderr)")
    }
}
