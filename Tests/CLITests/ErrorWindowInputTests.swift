import Foundation
import TestSupport
import Testing

/// The error window and status keys (`server.errors.at`, `.duration`, `.status`, issue 28) from
/// the command line: each rule they break is status 2 with one line naming the file, the line and
/// the field, and nothing written; the keys are listed and documented; a run whose only trigger
/// is the window measures recovery from it and shades it on the charts.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ErrorWindowInputTests {
    /// 200 clients at 1/s against a flaky server that never fails and answers at once; nobody
    /// retries. Nine lines, so the first appended line is line 10.
    static let base = """
        horizon: 60s
        clients:
          count: 200
          rate: 1/s
          timeout: 1s
        server:
          model: flaky
          flaky: {failure: 0, latency: 0s}
        policy.max_attempts: 1

        """

    /// Writes `yaml` as scenario.yaml, then runs `args` on it with an output directory.
    func run(_ yaml: String, _ args: [String] = ["run"]) throws -> (CLI.Result, URL) {
        let dir = try CLI.temporaryDirectory()
        try yaml.write(to: dir.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run(args + [dir.appendingPathComponent("scenario.yaml").path, "--out", out.path])
        return (r, out)
    }

    static let cases: [(String, String, String)] = [
        // (what, YAML appended to base, expected fragment of the message)
        ("a negative start", "server.errors: {server: 0.5, at: -1s}\n", "scenario.yaml:10:34: field 'server.errors.at': must not be negative"),
        (
            "a negative duration", "server.errors: {server: 0.5, at: 10s, duration: -5s}\n",
            "scenario.yaml:10:49: field 'server.errors.duration': must not be negative"
        ),
        (
            "a duration of 0s", "server.errors: {server: 0.5, at: 10s, duration: 0s}\n",
            "scenario.yaml:10:49: field 'server.errors.duration': must be more than 0s"
        ),
        (
            "a duration without a start", "server.errors.server: 0.5\nserver.errors.duration: 5s\n",
            "scenario.yaml:11:25: field 'server.errors.duration': needs server.errors.at"
        ),
        (
            "a status other than 500 or 503", "server.errors.status: 502\n",
            "scenario.yaml:10:23: field 'server.errors.status': must be one of 500, 503 (got '502')"
        ),
        (
            "a window that starts at or after the horizon", "server.errors: {server: 0.5, at: 60s, duration: 5s}\n",
            "scenario.yaml:10:34: field 'server.errors.at': (1m) is at or after the horizon (1m)"
        )
    ]

    @Test("each bad error window or status: status 2, one line naming file, line and field, no output", arguments: cases.indices)
    func badInput(index: Int) throws {
        let (what, yaml, fragment) = Self.cases[index]
        let (r, out) = try run(Self.base + yaml)
        #expect(r.status == 2, "\(what): status \(r.status)")
        #expect(r.stderr.contains(fragment), "\(what): \(r.stderr)")
        #expect(r.stderr.contains("scenario.yaml:") && r.stderr.contains("field 'server.errors."), "\(what): \(r.stderr)")
        #expect(r.stderr.hasPrefix("retrystorm: error: "), "\(what): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(what): more than one line: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "\(what): output written")
    }

    @Test("retrystorm keys and schema list the window and status keys")
    func keysListed() throws {
        let keys = try CLI.run(["keys"])
        let schema = try CLI.run(["schema"])
        for key in ["server.errors.at", "server.errors.duration", "server.errors.status"] {
            #expect(keys.stdout.contains("| `\(key)` |"), "\(key)")
            #expect(schema.stdout.contains("\"\(key.split(separator: ".").last!)\""), "\(key)")
        }
        #expect(keys.stdout.contains("| `server.errors.status` | 500 \\| 503 | `500` |"))
    }

    /// Every answer lost (`ambiguous: 1`) from 10 s to 20 s, 1 s timeouts, no retries: the
    /// timeouts fall in [11 s, 21 s) and none before 10 s, so the run is healthy from 21 s —
    /// `recovery_s` 11 (from the window's start), `recovery_after_trigger_s` 1 (after its end),
    /// as `ErrorWindowTests` derives. The charts shade the window and the report names it.
    @Test("a run whose only trigger is the error window: recovery 11 s after it began, 1 s after it ended; the charts shade it")
    func recoveryFromWindow() throws {
        let (r, out) = try run(Self.base + "server.errors: {ambiguous: 1, at: 10s, duration: 10s}\n")
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.read(out.appendingPathComponent("summary.csv")).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        func value(_ column: String) -> String? { rows[0].firstIndex(of: column).map { rows[1][$0] } }
        #expect(value("recovered") == "1")
        #expect(value("recovery_s").map { Double($0) } == 11)
        #expect(value("recovery_after_trigger_s").map { Double($0) } == 1)
        let svg = try CLI.read(out.appendingPathComponent("load.svg"))
        #expect(svg.contains("errors 100% (lost) 10–20 s"), "\(svg.prefix(400))")
        let report = try CLI.read(out.appendingPathComponent("report.html"))
        #expect(report.contains("The server recovered, 1.00 s after the error window ended."))
    }
}
