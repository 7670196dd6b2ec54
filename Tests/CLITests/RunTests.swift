import Foundation
import TestSupport
import Testing

/// `retrystorm run` end to end: golden files, determinism, replications and jobs.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct RunTests {
    @Test("the tiny scenario's CSVs equal the golden files byte for byte (3 replications)")
    func golden() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run(["run", CLI.fixture("tiny.yaml").path, "--out", out.path, "--replications", "3", "--jobs", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        // RETRYSTORM_RECORD_GOLDENS=1 rewrites them from the current build and fails (TestSupport's Golden).
        let golden = Golden("Tests/CLITests/Fixtures/golden-tiny")
        for name in ["timeseries.csv", "summary.csv"] {
            try golden.check(name, try CLI.read(out.appendingPathComponent(name)))
        }
    }

    @Test("same seed → byte-identical CSVs, whatever --jobs; another seed differs")
    func determinism() throws {
        let dir = try CLI.temporaryDirectory()
        var outputs: [String: [String]] = [:]
        for (label, args) in [("j1", ["--jobs", "1"]), ("j2", ["--jobs", "2"]), ("again", ["--jobs", "2"]), ("seed", ["--jobs", "2", "--seed", "12"])]
        {
            let out = dir.appendingPathComponent(label)
            let r = try CLI.run(["run", CLI.fixture("tiny.yaml").path, "--out", out.path, "--replications", "4"] + args)
            #expect(r.status == 0, "\(r.stderr)")
            outputs[label] = try ["timeseries.csv", "summary.csv"].map { try CLI.read(out.appendingPathComponent($0)) }
        }
        #expect(outputs["j1"] == outputs["j2"])
        #expect(outputs["j2"] == outputs["again"])
        #expect(outputs["seed"] != outputs["j1"])
    }

    @Test("outputs: contract columns, one timeseries row per (replication, bucket), perf.json with wall-clock figures")
    func outputs() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("o")
        let r = try CLI.run(["run", CLI.fixture("tiny.yaml").path, "--out", out.path, "--replications", "2", "--set", "seed=5"])
        #expect(r.status == 0)
        let ts = try CLI.read(out.appendingPathComponent("timeseries.csv")).split(separator: "\n")
        #expect(
            ts.first
                == "variant,replication,t_s,capacity_per_s,offered,first_attempts,retries,served,succeeded,failed,timed_out,rejected,wasted,queue_len,gave_up,blocked,expired,operations,offline,duplicates,queries,confirmed,abandoned,budget_denied,held_back"
        )
        // 60 s / 5 s buckets × 2 replications.
        #expect(ts.count == 1 + 12 * 2)
        let summary = try CLI.read(out.appendingPathComponent("summary.csv")).split(separator: "\n")
        #expect(
            summary.first?.hasPrefix(
                "variant,replication,seed,clients,operations,attempts,amplification,succeeded,gave_up,blocked,peak_offered_per_s,peak_load_ratio,tts_mean_s,tts_p50_s,tts_p90_s,tts_p99_s,tts_p999_s,tts_max_s,recovery_s,wasted_fraction,events,sim_end_s"
            ) == true)
        #expect(summary.count == 3)
        #expect(summary[1].hasPrefix("base,0,5,300,300,"))
        let perf = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("perf.json"))) as? [String: Any]
        for key in ["events", "wall_s", "events_per_s", "peak_rss_bytes"] { #expect(perf?[key] != nil, "perf.json lacks \(key)") }
        #expect(r.stdout.contains("time to success p99"))
        #expect(r.stderr.contains("events/s"))
        // No staging directory is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test("the event queue is an implementation choice: --event-queue heap writes the same bytes as the timing wheel")
    func eventQueueChoice() throws {
        let dir = try CLI.temporaryDirectory()
        var outputs: [[String]] = []
        for queue in ["wheel", "heap"] {
            let out = dir.appendingPathComponent(queue)
            let r = try CLI.run(["run", CLI.fixture("tiny.yaml").path, "--replications", "2", "--event-queue", queue, "--out", out.path])
            #expect(r.status == 0, "\(r.stderr)")
            outputs.append(try ["timeseries.csv", "summary.csv", "tts_quantiles.csv"].map { try CLI.read(out.appendingPathComponent($0)) })
        }
        #expect(outputs[0] == outputs[1])
    }

    /// A release is a semantic version that `--version` prints, the CHANGELOG has a section for and
    /// the docs name in `.package(url:from:)` (docs/install.md, "In another package").
    @Test("--version prints the release the CHANGELOG and the install docs name; --help shows examples")
    func helpAndVersion() throws {
        let v = try CLI.run(["--version"])
        let version = v.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(v.status == 0 && version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." })
        #expect(try DocumentationTests.text("CHANGELOG.md").contains("\n## \(version) — "))
        for document in ["README.md", "docs/install.md", "docs/swift-api.md", "docs/policy-library.md"] {
            #expect(try DocumentationTests.text(document).contains("from: \"\(version)\")"), "\(document)")
        }
        let h = try CLI.run(["run", "--help"])
        #expect(h.status == 0 && h.stdout.contains("Examples:") && h.stdout.contains("--set"))
    }
}
