import Foundation
import TestSupport
import Testing

/// Time to success without survivor bias, end to end (issue 26): summary.csv's percentiles count
/// every operation, the success-only ones keep names that say so, never prints as `inf` in CSV
/// and "never" on the terminal, and a gate fails on it.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct SurvivalTests {
    /// Ten clients at t = 0 against a FIFO server serving one request a second exactly: client k is
    /// served from k to k + 1 s. With a 9.5 s timeout and one attempt, nine succeed after 1…9 s and
    /// the tenth (due at 10 s) times out and gives up. Nothing is random, so both replications agree.
    static let scenario = """
        name: ten
        seed: 1
        horizon: 100s
        bucket: 1s
        clients:
          count: 10
          arrival: burst
          timeout: 9500ms
        server:
          capacity: 1/s
          workers: 1
          service: deterministic
        policy:
          max_attempts: 1

        """

    /// summary.csv's rows as column → field.
    static func rows(_ text: String) -> [[String: String]] {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    @Test("one of ten gives up: tts_p90_s, tts_p99_s, tts_mean_s, tts_max_s are inf; tts_success_* finite, by hand")
    func summaryColumns() throws {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("ten.yaml")
        try Self.scenario.write(to: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run(["run", file.path, "--out", out.path, "--replications", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = Self.rows(try CLI.read(out.appendingPathComponent("summary.csv")))
        #expect(rows.count == 2)
        // By hand over all 10 operations (h = 9f, the tenth +∞): p50 → h 4.5 → 5.5; p90 → h 8.1 weighs ∞ → inf.
        // Among the 9 successes (h = 8f): p50 5, p90 → h 7.2 → 8.2, p99 → h 7.92 → 8.92, max 9, mean 45 / 9 = 5.
        let expected: [String: String] = [
            "operations": "10", "succeeded": "9", "gave_up": "1", "unfinished": "0", "unfinished_fraction": "0.000000",
            "tts_mean_s": "inf", "tts_p50_s": "5.500000", "tts_p90_s": "inf", "tts_p99_s": "inf", "tts_p999_s": "inf",
            "tts_max_s": "inf", "tts_success_mean_s": "5.000000", "tts_success_p50_s": "5.000000", "tts_success_p90_s": "8.200000",
            "tts_success_p99_s": "8.920000", "tts_success_p999_s": "8.992000", "tts_success_max_s": "9.000000",
            // No trigger: the incident's percentiles are undefined, not never.
            "incident_tts_p99_s": "nan", "incident_tts_success_p99_s": "nan"
        ]
        for row in rows {
            for (column, value) in expected.sorted(by: { $0.key < $1.key }) {
                #expect(row[column] == value, "\(column)")
            }
        }
        // The terminal says never, and shows the success-only percentiles labelled as such.
        #expect(r.stdout.contains("time to success p99 (s)                  never"))
        #expect(r.stdout.contains("time to success p99 among successes (s)  8.92"))
    }

    @Test("a gate fails on never (exit 1, naming the value); the same bound among successes holds")
    func gateOnNever() throws {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("ten.yaml")
        try Self.scenario.write(to: file, atomically: true, encoding: .utf8)
        let failing = try CLI.run(["run", file.path, "--out", dir.appendingPathComponent("a").path, "--expect", "tts_p99_s<=20"])
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("tts_p99_s<=20 (--expect tts_p99_s<=20): base has tts_p99_s = never\n"), "\(failing.stderr)")
        let holding = try CLI.run(["run", file.path, "--out", dir.appendingPathComponent("b").path, "--expect", "tts_success_p99_s<=20"])
        #expect(holding.status == 0, "\(holding.stderr)")
    }

    /// The same ten clients in two variants, 3 replications (nothing random: every replication the
    /// same). hasty keeps the 9.5 s timeout: one gives up, p99 never, 8.92 s among successes.
    /// patient waits (no timeout): all ten succeed after 1…10 s, p99 → h = 8.91 → 9 + 0.91 = 9.91 s.
    /// Among successes hasty looks 0.99 s faster (survivor bias); over every operation patient
    /// finishes first and the paired difference from the baseline hasty is −∞ (finite − never).
    @Test("compare: survivor bias undone — the variant that gives up is never, the patient one finishes first")
    func compareAgainstNever() throws {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("two.yaml")
        try (Self.scenario + "variants:\n  - name: hasty\n  - name: patient\n    clients.timeout: none\n")
            .write(to: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run(["compare", file.path, "--out", out.path, "--replications", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.read(out.appendingPathComponent("compare.csv")).split(separator: "\n").map(String.init)
        #expect(rows.contains("hasty,tts_p99_s,inf,inf,inf,3,,,"))
        #expect(rows.contains("hasty,tts_success_p99_s,8.920000,8.920000,8.920000,3,,,"))
        #expect(rows.contains("patient,tts_p99_s,9.910000,9.910000,9.910000,3,-inf,-inf,-inf"))
        #expect(rows.contains("patient,tts_success_p99_s,9.910000,9.910000,9.910000,3,0.990000,0.990000,0.990000"))
        let patient = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("  patient ") })
        #expect(patient.contains(" 9.91 * "), "\(patient)")
        let hasty = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("  hasty ") })
        #expect(hasty.contains("  never  "), "\(hasty)")
        let report = try CLI.read(out.appendingPathComponent("report.html"))
        #expect(report.contains("patient finishes first: p99 time to success 9.91 s against never for the baseline hasty."))
    }
}
