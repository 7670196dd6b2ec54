import Foundation
import TestSupport
import Testing

/// `tune` gives an answer that holds up in a review: it leaves a grid whose edge holds the leader,
/// runs equivalent configurations once, ranks infeasible points by how far they miss, compares
/// the leader with its runners-up by paired differences and confirms it on fresh replications.
///
/// The scenarios use the `flaky` server (each attempt fails with probability p after a fixed
/// latency L) and a constant backoff b without jitter, where everything is known exactly: an
/// operation that succeeds at attempt k took k·L + (k − 1)·b; with n attempts it gives up with
/// probability p^n; among successes, P(k attempts) = p^(k−1)(1 − p) / (1 − p^n).
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct TuneTests {
    static let flaky = """
        name: flaky-tune
        seed: 5
        horizon: 60s
        clients: {count: 5000, arrival: burst, timeout: 1s}
        server: {model: flaky, flaky: {failure: 0.5, latency: 10ms}}
        policy: {max_attempts: 3, backoff: {kind: constant, base: 10ms, max: 10s, jitter: none}}

        """

    func tune(_ yaml: String, _ args: [String]) throws -> (CLI.Result, URL) {
        let dir = try CLI.temporaryDirectory()
        try yaml.write(to: dir.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["tune", "t.yaml", "--out", "o", "--replications", "3", "--refine", "0", "--progress", "none"] + args, in: dir)
        return (r, dir.appendingPathComponent("o"))
    }

    func json(_ out: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("tune.json"))) as? [String: Any] ?? [:]
    }

    @Test("an optimum outside the first grid is found: max_attempts 2,3 extends by its last step until the leader is interior")
    func extendsPastTheGrid() throws {
        // Minimise p99 time to success with at most 2% giving up: p^n ≤ 2% needs n ≥ 6 (p^5 = 3.1%,
        // p^6 = 1.6%); among successes with n = 6, 98.4% need at most 5 attempts, so the p99 takes 6:
        // 6·10 ms + 5·10 ms = 110 ms. n = 7 waits longer for the same p99 or more. The grid 2,3
        // holds neither: the tuner must extend past 3 (4, 5, 6, 7) and stop with 6 interior.
        let (r, out) = try tune(
            Self.flaky,
            [
                "--grid", "policy.max_attempts=2,3", "--objective", "tts_success_p99_s",
                "--constraint", "gave_up_fraction<=2%"
            ])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try json(out)
        let recommendation = j["recommendation"] as? [String: Any]
        #expect((recommendation?["point"] as? [String: String]) == ["policy.max_attempts": "6"], "\(r.stdout)")
        let mean = ((recommendation?["objective"] as? [String: Any])?["mean"] as? NSNumber)?.doubleValue
        #expect(mean == 0.11, "p99 of 6 attempts: 110 ms exactly")
        let extensions = j["extensions"] as? [[String: Any]]
        #expect((extensions?.first?["added"] as? [String]) == ["4", "5", "6", "7"])
        #expect(extensions?.first?["still_on_edge"] == nil)
        #expect(r.stdout.contains("policy.max_attempts extended past the grid: 4, 5, 6, 7"))
        #expect(!r.stderr.contains("warning: the recommendation lies on the edge"))
    }

    @Test("a log grid whose best value is at its lower edge is extended by its ratio, and the remaining edge is warned about")
    func extendsByRatioAndWarns() throws {
        // p99 = 3L + 2b for n = 3 (14% of successes take 3 attempts): smaller b is always better,
        // so the leader sits on the lower edge however far the grid goes. 400ms…1.6s:log:3 has ratio
        // 2: extensions 200, 100, 50, 25 ms, then the limit of four; the p99 is then 30 + 50 = 80 ms.
        let (r, out) = try tune(Self.flaky, ["--grid", "policy.backoff.base=400ms...1.6s:log:3", "--objective", "tts_success_p99_s"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try json(out)
        let extensions = j["extensions"] as? [[String: Any]]
        #expect((extensions?.first?["added"] as? [String]) == ["200ms", "100ms", "50ms", "25ms"], "\(r.stdout)")
        #expect((extensions?.first?["still_on_edge"] as? String)?.contains("4 extensions") == true)
        let recommendation = j["recommendation"] as? [String: Any]
        #expect((recommendation?["point"] as? [String: String]) == ["policy.backoff.base": "25ms"])
        #expect(((recommendation?["objective"] as? [String: Any])?["mean"] as? NSNumber)?.doubleValue == 0.08)
        #expect(r.stderr.contains("retrystorm: warning: the recommendation lies on the edge of the values evaluated for policy.backoff.base"))
    }

    @Test("configurations that are the same in effect run once and are listed as aliases")
    func equivalentConfigurations() throws {
        // Exponential backoff from 1 s with 3 attempts waits at most 1 s and 2 s: a max of 5 s,
        // 10 s or 20 s never binds, so those three points are one configuration. 1.5 s binds.
        let yaml = Self.flaky.replacingOccurrences(of: "kind: constant, base: 10ms", with: "kind: exponential, base: 1s")
        let (r, out) = try tune(yaml, ["--grid", "policy.backoff.max=1.5s,5s,10s,20s", "--objective", "tts_success_p99_s"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try json(out)
        #expect((j["evaluated"] as? NSNumber)?.intValue == 2)
        let aliases = (j["aliases"] as? [[String: String]]) ?? []
        #expect(aliases == [["variant": "max=10s", "same_as": "max=5s"], ["variant": "max=20s", "same_as": "max=5s"]])
        let csv = try CLI.read(out.appendingPathComponent("tune.csv"))
        #expect(csv.contains("max=10s;max=20s"))
    }

    @Test("with no feasible point, the closest is the one with the smallest sum of relative violations, computed from sweep.csv")
    func closestInfeasible() throws {
        let (r, out) = try tune(
            Self.flaky,
            [
                "--grid", "policy.max_attempts=1,2,3,4", "--objective", "tts_success_p99_s",
                "--constraint", "gave_up_fraction<=0.1%", "--constraint", "tts_success_p99_s<=0.012"
            ])
        #expect(r.status == 1 && r.stdout.contains("no point meets every constraint; closest"), "\(r.stdout)\(r.stderr)")
        // Recompute every point's violation from sweep.csv: |x − bound| / |bound| summed over broken constraints.
        let rows = try CLI.read(out.appendingPathComponent("sweep.csv")).split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        var mean: [String: [String: Double]] = [:]
        for row in rows { mean[String(row[0]), default: [:]][String(row[2])] = Double(row[3]) }
        func violation(_ m: [String: Double]) -> Double {
            max(0, (m["gave_up_fraction"]! - 0.001) / 0.001) + max(0, (m["tts_success_p99_s"]! - 0.012) / 0.012)
        }
        let closest = mean.min { violation($0.value) < violation($1.value) }!.key
        let ranked = try CLI.read(out.appendingPathComponent("tune.csv")).split(separator: "\n")[1].split(separator: ",")
        #expect(String(ranked[1]) == closest, "rank 1 \(ranked[1]), closest by violation \(closest)")
        #expect(abs(Double(ranked[10])! - violation(mean[closest]!)) < 1e-5)
    }

    @Test(
        "runners-up carry the paired difference from the leader, equal to a direct computation from summary.csv; the leader is confirmed on fresh replications"
    )
    func pairedAndConfirmed() throws {
        // 0 s is the least base there is: the tuner cannot extend below it, so the grid's order stands.
        let (r, out) = try tune(Self.flaky, ["--grid", "policy.backoff.base=0s,10ms,20ms", "--objective", "tts_success_mean_s"])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try CLI.read(out.appendingPathComponent("summary.csv")).split(separator: "\n")
        let header = summary[0].split(separator: ",")
        let col = header.firstIndex(of: "tts_success_mean_s")!
        var values: [String: [Double]] = [:]
        for row in summary.dropFirst() {
            let f = row.split(separator: ",")
            values[String(f[0]), default: []].append(Double(f[col])!)
        }
        // The leader is base=0s (mean time grows with b); runner-up 1 is base=10ms.
        let d = zip(values["base=10ms"]!, values["base=0s"]!).map { $0 - $1 }
        let m = d.reduce(0, +) / 3
        let sd = (d.map { ($0 - m) * ($0 - m) }.reduce(0, +) / 2).squareRoot()
        let half = 4.302653 * sd / 3.0.squareRoot()  // t(0.975, 2) = 4.302653
        let j = try json(out)
        let first = (j["runners_up"] as? [[String: Any]])?.first
        let diff = (first?["difference_from_recommended"] as? [String: Any])?["interval"] as? [String: Any]
        #expect(first?["variant"] as? String == "base=10ms")
        #expect(abs(((diff?["mean"] as? NSNumber)?.doubleValue ?? .nan) - m) < 1e-9)
        #expect(abs(((diff?["ci95_high"] as? NSNumber)?.doubleValue ?? .nan) - (m + half)) < 1e-9)
        let confirmed = (j["recommendation"] as? [String: Any])?["confirmed_replications"] as? [Int]
        #expect(confirmed == [3, 4, 5], "fresh replications after the three used to choose")
        #expect(r.stdout.contains("confirmed on 3 fresh replications (3–5), not used to choose it"))
    }

    @Test("expectations in tune judge the recommended point on its fresh replications; a named variant is refused up front")
    func gatesJudgeTheRecommendation() throws {
        let (pass, _) = try tune(
            Self.flaky,
            [
                "--grid", "policy.backoff.base=0s,10ms", "--objective", "tts_success_p99_s",
                "--expect", "tts_success_p99_s<=0.03"
            ])
        #expect(pass.status == 0, "0 s wins with p99 3·10 ms = 30 ms: \(pass.stderr)")
        let (fail, _) = try tune(
            Self.flaky,
            [
                "--grid", "policy.backoff.base=0s,10ms", "--objective", "tts_success_p99_s",
                "--expect", "tts_success_p99_s<0.03"
            ])
        #expect(fail.status == 1 && fail.stderr.contains("base=0s has tts_success_p99_s = 0.030"), "\(fail.stderr)")
        let (named, out) = try tune(
            Self.flaky,
            [
                "--grid", "policy.backoff.base=0s,10ms", "--objective", "tts_success_p99_s",
                "--expect", "base=10ms:tts_success_p99_s<1"
            ])
        #expect(named.status == 2 && named.stderr.contains("judges the recommended point"), "\(named.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
