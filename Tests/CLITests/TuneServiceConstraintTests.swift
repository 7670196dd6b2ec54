import Foundation
import TestSupport
import Testing

/// A tune whose constraint names a service of the call graph (`services.db.…`): the terminal,
/// tune.json and the sweep charts speak of the same value and the same verdict.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct TuneServiceConstraintTests {
    /// tiny-services.yaml tuned over the clients' attempts with a bound on db's requests per user
    /// operation. tune.json's recommendation carries the constraint's mean and verdict; the
    /// terminal's line for it quotes that mean (rounded as the tables round it) and that verdict,
    /// where it used to say "no value: not met" because it read the fleet's table. The heatmap,
    /// which can outline cells only by the fleet's metrics, says the service's bound is not among
    /// them.
    @Test("the terminal quotes a service constraint's value and verdict as tune.json records them; the heatmap says it is not outlined")
    func serviceConstraint() throws {
        let dir = try CLI.temporaryDirectory()
        let bound = "services.db.requests_per_operation<=4"
        let r = try CLI.run(
            [
                "tune", CLI.fixture("tiny-services.yaml").path, "--replications", "2", "--refine", "0", "--grid",
                "policy.max_attempts=2,5", "--grid", "policy.backoff.base=250ms,1s", "--objective", "gave_up_fraction",
                "--constraint", bound, "--constraint", "peak_load_ratio<=100", "--out", "t"
            ], in: dir)
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(CLI.read(dir.appendingPathComponent("t/tune.json")).utf8)) as? [String: Any]
        let recommendation = try #require(json?["recommendation"] as? [String: Any])
        let verdicts = try #require(recommendation["constraints"] as? [[String: Any]])
        let db = try #require(verdicts.first { $0["expectation"] as? String == bound })
        let value = try #require(db["value"] as? Double)
        let verdict = try #require(db["verdict"] as? String)
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("constraint   \(bound):") })
        #expect(!line.contains("no value"), "\(line)")
        // "…: 3.11 requests/op (95% CI [2.6, 3.6]): met; on the fresh replications …"
        let quoted = try #require(Double(line.split(separator: ": ")[1].split(separator: " ")[0]))
        #expect(abs(quoted - value) <= 0.005 * value + 0.01, "terminal \(quoted), tune.json \(value)")
        #expect(line.split(separator: ";")[0].hasSuffix(": \(verdict)"), "\(line) vs \(verdict)")
        let heatmap = try CLI.read(dir.appendingPathComponent("t/sweep_gave_up_fraction.svg"))
        #expect(heatmap.contains("not outlined: services.db.requests_per_operation&lt;=4"))
    }
}
