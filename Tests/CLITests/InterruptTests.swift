import Foundation
import RetryStormKit
import TestSupport
import Testing

/// SIGINT and SIGTERM stop a run cleanly: status 130, no partial output, earlier results untouched.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct InterruptTests {
    @Test("an interrupted run leaves the earlier --out untouched and no temporary directory", arguments: [SIGINT, SIGTERM])
    func interrupted(signal: Int32) throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try "earlier".write(to: out.appendingPathComponent("summary.csv"), atomically: true, encoding: .utf8)
        // The benchmark fleet takes seconds: long enough to be interrupted mid-run.
        let p = try CLI.Background([
            "run", CLI.packageRoot.appendingPathComponent("experiments/bench-fleet.yaml").path,
            "--out", out.path, "--force", "--replications", "2", "--jobs", "1"
        ])
        // Wait until the staging directory exists (the run has started), then interrupt.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            if entries.contains(where: { $0.hasPrefix(".out.tmp-") }) { break }
            usleep(20_000)
        }
        usleep(300_000)
        p.send(signal)
        let (status, stderr, signalled) = p.finish()
        #expect(!signalled && status == 130, "signalled: \(signalled) \(status)")
        #expect(stderr.contains("interrupted; no results were written"))
        #expect(try CLI.read(out.appendingPathComponent("summary.csv")) == "earlier")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "out" }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
