import Foundation
import TestSupport
import Testing

/// A key that changes nothing is a warning of `validate` and of the commands that run (issue 40).
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct InertKeyWarningCLITests {
    @Test("validate and run warn about drop_expired on a service no deadline reaches, and still succeed")
    func dropExpired() throws {
        let dir = try CLI.temporaryDirectory()
        let yaml = """
            horizon: 30s
            clients: {count: 50, rate: 1/s, timeout: 2s}
            services:
              - name: api
                calls: [{to: db}]
              - name: db
                server: {queue: {drop_expired: true}}

            """
        try yaml.write(to: dir.appendingPathComponent("d.yaml"), atomically: true, encoding: .utf8)
        let warning =
            "retrystorm: warning: services.db.server.queue.drop_expired is true, but no call to db propagates a deadline (deadline: propagate): it drops nothing\n"
        for args in [["validate", "d.yaml"], ["run", "d.yaml", "--out", "o"]] {
            let r = try CLI.run(args, in: dir)
            #expect(r.status == 0 && r.stderr.contains(warning), "\(args): \(r.stderr)")
        }
    }
}
