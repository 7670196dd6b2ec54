import Foundation
import RetryStormKit
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

    /// `--version` prints a semantic version (2.0.0: `major.minor.patch`, a pre-release tag after
    /// `-`). A release has a dated CHANGELOG section; a build between releases is the next
    /// release's number with `-dev`, says so, and the CHANGELOG lists its changes under
    /// "Unreleased" above the release it came after. Every page that shows the dependency line
    /// shows docs/install.md's, which scripts/check-consumer.sh resolves in CI.
    @Test("--version says whether the build is a release, as the CHANGELOG does; the docs show one dependency line; --help shows examples")
    func helpAndVersion() throws {
        let v = try CLI.run(["--version"])
        let printed = v.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(v.status == 0 && printed == RetryStormVersion.versionLine)
        let version = RetryStormVersion.current
        let core = version.split(separator: "-", maxSplits: 1)[0]
        #expect(core.split(separator: ".").count == 3 && core.allSatisfy { $0.isNumber || $0 == "." })
        let changelog = try DocumentationTests.text("CHANGELOG.md")
        if RetryStormVersion.isRelease {
            #expect(changelog.contains("\n## \(version) — "))
        } else {
            #expect(version.hasSuffix("-dev") && printed.hasPrefix("\(version) (not a release: \(RetryStormVersion.lastRelease) "))
            let unreleased = try #require(changelog.range(of: "\n## Unreleased\n"))
            let last = try #require(changelog.range(of: "\n## \(RetryStormVersion.lastRelease) — "))
            #expect(unreleased.lowerBound < last.lowerBound)
            // The next release is newer than the last: 0.3.0 after 0.2.0.
            let next = core.split(separator: ".").map { Int($0)! }
            let previous = RetryStormVersion.lastRelease.split(separator: ".").map { Int($0)! }
            #expect(next.lexicographicallyPrecedes(previous) == false && next != previous)
        }
        let pattern = #/\.package\(url: "https://…/retrystorm\.git", [^)]*\)/#
        let line = try #require(try DocumentationTests.text("docs/install.md").firstMatch(of: pattern)).output
        #expect(line.hasSuffix(#"branch: "main")"#) || line.contains("revision:") || RetryStormVersion.isRelease)
        for document in ["README.md", "docs/swift-api.md", "docs/policy-library.md"] {
            let lines = try DocumentationTests.text(document).matches(of: pattern).map(\.output)
            #expect(!lines.isEmpty && lines.allSatisfy { $0 == line }, "\(document)")
        }
        let h = try CLI.run(["run", "--help"])
        #expect(h.status == 0 && h.stdout.contains("Examples:") && h.stdout.contains("--set"))
    }
}
