import Foundation
import RetryStormKit
import TestSupport
import Testing

/// The Swift facade gives the CLI's numbers: committed experiments run through `Experiment` give
/// the bytes `bash scripts/make-results.sh` committed under results/, gates judge as `--expect`
/// does, and bad scenarios fail with the CLI's located errors.
struct ExperimentTests {
    static let root = Repository.root

    static func experiment(_ name: String, overrides: [String] = []) throws -> Experiment {
        try Experiment(contentsOf: root.appendingPathComponent("experiments/\(name).yaml"), overrides: overrides)
    }

    static func committed(_ directory: String, _ file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("results/\(directory)/\(file)"), encoding: .utf8)
    }

    /// results/quickstart is made by `retrystorm run experiments/quickstart.yaml` (its command.txt;
    /// `bash scripts/make-results.sh` runs it): one replication of seed 7.
    static func quickstart() throws -> ExperimentResults {
        try experiment("quickstart").run(ExperimentOptions(replications: 1, jobs: 2))
    }

    @Test("quickstart through Experiment.run: every file the CLI committed in results/quickstart, byte for byte")
    func quickstartFiles() throws {
        let files = try Self.quickstart().files
        #expect(files.map(\.name) == ["timeseries.csv", "summary.csv", "tts_quantiles.csv", "table.txt", "scenario.yaml"])
        for (name, contents) in files {
            #expect(contents == (try Self.committed("quickstart", name)), "\(name) differs from results/quickstart/\(name)")
        }
    }

    @Test("quickstart's typed summary: the values of results/quickstart/summary.csv's row")
    func quickstartSummary() throws {
        let quickstart = try Self.quickstart()
        let rows = quickstart.summaries()
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        // Expected values: results/quickstart/summary.csv (retrystorm run experiments/quickstart.yaml).
        #expect(row.seed == 7 && row.clients == 10_000)
        #expect(row.value(.operations) == 150_715)
        #expect(row.value(.attempts) == 290_579)
        #expect(row.value(.peakLoadRatio) == 3.095)
        #expect(row.value(.gaveUpFraction) == 0.145135)
        // 14.5% of operations gave up, more than 1%: p99 over every operation is never; among successes 21.738590 s.
        #expect(row.value(.ttsP99) == .infinity)
        #expect(row.value(.ttsSuccessP99) == 21.738590)
        #expect(row.value(.recovery) == 72)
        #expect(quickstart.variants == ["base"])
        let estimate = try #require(quickstart.estimate(.peakLoadRatio))
        #expect(estimate.mean == 3.095 && estimate.low == 3.095 && estimate.high == 3.095 && estimate.replications == 1)
        // 300 s horizon in 1 s buckets; the quantiles at levels 0, 0.001, …, 1.
        let series = try #require(quickstart.timeSeries().first)
        #expect(series.buckets == 300)
        #expect(series.column(.offered).max() == 3095)
        let quantiles = try #require(quickstart.quantiles().first)
        #expect(quantiles.levels.count == 1001)
        #expect(quantiles.seconds[990] == 21.738590)
    }

    @Test("aws-occ-contention through Experiment.compare: summary.csv and compare.csv as committed")
    func compareFiles() throws {
        // results/aws-occ-contention: retrystorm compare experiments/aws-occ-contention.yaml --replications 20
        let results = try Self.experiment("aws-occ-contention").compare(ExperimentOptions(replications: 20, jobs: 2))
        let files = Dictionary(uniqueKeysWithValues: results.files.map { ($0.name, $0.contents) })
        for name in ["summary.csv", "compare.csv", "table.txt"] {
            #expect(files[name] == (try Self.committed("aws-occ-contention", name)), "\(name) differs")
        }
        #expect(results.variants == ["no-backoff", "exponential", "full-jitter", "equal-jitter", "decorrelated"])
        // compare.csv's full-jitter,peak_load_ratio row: 0.687600,0.685641,0.689559,20,-1.165500,-1.169470,-1.161530.
        let e = try #require(results.estimate(.peakLoadRatio, variant: "full-jitter"))
        #expect(e.mean == 0.6876 && e.low == 0.685641 && e.high == 0.689559 && e.replications == 20)
        #expect(e.difference?.mean == -1.1655 && e.difference?.low == -1.16947 && e.difference?.high == -1.16153)
        #expect(results.estimate(.peakLoadRatio, variant: "no-backoff")?.difference == nil)
    }

    @Test("a gate that holds and one that fails, judged as --expect: the measured value and interval")
    func expectations() throws {
        // quickstart measures peak_load_ratio 3.095 and gave_up_fraction 0.145135 (results/quickstart/summary.csv).
        let quickstart = try Self.quickstart()
        let report = try quickstart.check(["peak_load_ratio<=3.5", "gave_up_fraction<=1%"])
        #expect(report.verdicts.count == 2)
        #expect(!report.passed)
        let pass = report.verdicts[0]
        let fail = report.verdicts[1]
        #expect(pass.passed && pass.failures.isEmpty)
        #expect(pass.outcomes.map(\.point) == ["base"])
        #expect(pass.outcomes.first?.value == 3.095 && pass.outcomes.first?.holds == true)
        #expect(!fail.passed)
        #expect(fail.expectation.value == 0.01)
        #expect(fail.outcomes.first?.value == 0.145135 && fail.outcomes.first?.holds == false)
        #expect(fail.failures == ["gave_up_fraction<=1% (expectation 2): base has gave_up_fraction = 0.145"])
        do {
            try report.require()
            Issue.record("require() returned with a failing gate")
        } catch {
            #expect(error.description == "1 expectation failed:\n  - gave_up_fraction<=1% (expectation 2): base has gave_up_fraction = 0.145")
        }
        #expect(throws: ExpectationFailure.self) { try quickstart.require(["gave_up_fraction<=1%"]) }
        try quickstart.require(["peak_load_ratio<=3.5", "tts_success_p99_s<30"])
        // The same bound over every operation fails: its p99 is never (14.5% gave up).
        #expect(throws: ExpectationFailure.self) { try quickstart.require(["tts_p99_s<30"]) }
    }

    @Test("a gate on an end of the interval judges that end: full-jitter's peak_load_ratio ci95_high 0.689559")
    func intervalGate() throws {
        // aws-occ-contention with 5 replications: full-jitter's peak_load_ratio interval (0.683…, 0.689…),
        // from `retrystorm compare experiments/aws-occ-contention.yaml --replications 5`'s compare.csv.
        let results = try Self.experiment("aws-occ-contention").compare(ExperimentOptions(replications: 5, jobs: 2))
        let e = try #require(results.estimate(.peakLoadRatio, variant: "full-jitter"))
        let report = try results.check([
            "full-jitter:peak_load_ratio.ci95_high<=\(e.high + 0.001)",
            "full-jitter:peak_load_ratio.ci95_low>\(e.high)"
        ])
        let holds = try #require(report.verdicts[0].outcomes.first)
        #expect(holds.point == "full-jitter" && holds.holds)
        #expect(abs(holds.value - e.high) <= 5e-7 && holds.interval.count == 5)
        #expect(abs(holds.interval.mean - e.mean) <= 5e-7 && abs(holds.interval.low - e.low) <= 5e-7)
        #expect(report.verdicts[1].failures.count == 1)
        #expect(report.verdicts.map(\.outcomes.count) == [1, 1])
    }

    @Test("seed: ExperimentOptions.seed gives what --seed gives")
    func seed() throws {
        // `retrystorm run experiments/quickstart.yaml --seed 8 --set clients.count=2000` prints
        // "quickstart: 2,000 clients, seed 8" and writes operations 29952, peak_load_ratio 0.136000
        // and tts_mean_s 0.002277 in summary.csv (without --seed, seed 7: operations 29862).
        let results = try Self.experiment("quickstart", overrides: ["clients.count=2000"]).run(ExperimentOptions(jobs: 1, seed: 8))
        let row = try #require(results.summaries().first)
        #expect(row.seed == 8)
        #expect(row.value(.operations) == 29952)
        #expect(row.value(.peakLoadRatio) == 0.136)
        #expect(row.value(.ttsMean) == 0.002277)
        #expect(results.study.table.hasPrefix("quickstart: 2,000 clients, seed 8"))
    }

    @Test("a scenario built in Swift runs as the same scenario loaded from its file")
    func swiftScenario() throws {
        let file = try Self.experiment("metastable", overrides: ["clients.count=1000"])
        let built = try Experiment(scenario: file.base, variants: file.variants)
        let options = ExperimentOptions(replications: 2, jobs: 2)
        let a = try file.compare(options)
        let b = try built.compare(options)
        #expect(a.study.summaries == b.study.summaries)
        #expect(a.study.statistics == b.study.statistics)
        #expect(a.study.timeSeries == b.study.timeSeries)
        #expect(b.study.table.isEmpty && b.study.scenario.isEmpty)
        #expect(try file.run(options).study.summaries == built.run(options).study.summaries)
        #expect(throws: ScenarioError.self) { _ = try Experiment(scenario: file.base, variants: [("a b", file.base)]) }
        #expect(throws: ScenarioError.self) { try Experiment(scenario: file.base).compare() }
    }

    @Test("a bad scenario: ScenarioError naming file, line and field")
    func badYAML() {
        let yaml = """
            name: bad
            clients:
              count: -5
            """
        do {
            _ = try Experiment(yaml: yaml, path: "bad.yaml")
            Issue.record("a negative clients.count was accepted")
        } catch {
            #expect(error.location.origin == .file("bad.yaml"))
            #expect(error.location.line == 3)
            #expect(error.field == "clients.count")
            #expect(error.description.hasPrefix("bad.yaml:3:"))
        }
        do {
            _ = try Experiment(yaml: "name: x\nclient:\n  count: 5\n", path: "typo.yaml")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.location.line == 2)
            #expect(error.description.contains("Did you mean 'clients"))
        }
    }

    @Test("options out of the CLI's range and unknown gates are refused before anything runs")
    func refused() throws {
        let experiment = try Self.experiment("quickstart")
        let quickstart = try experiment.run(ExperimentOptions(jobs: 2))
        #expect(throws: ScenarioError.self) { try experiment.run(ExperimentOptions(replications: 0)) }
        #expect(throws: ScenarioError.self) { try experiment.run(ExperimentOptions(jobs: 0)) }
        #expect(throws: ScenarioError.self) { try experiment.run(ExperimentOptions(seed: UInt64(Int.max) + 1)) }
        #expect(throws: ScenarioError.self) { try quickstart.check(["peak_load<=2"]) }
        #expect(throws: ScenarioError.self) { try quickstart.check(["full-jitter:peak_load_ratio<=2"]) }
    }

    @Test("write(to:) writes the directory --out gets: summary.csv as committed, the charts and report.html")
    func write() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("experiment-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let quickstart = try Self.quickstart()
        try quickstart.write(to: dir.path)
        let summary = try String(contentsOf: dir.appendingPathComponent("summary.csv"), encoding: .utf8)
        #expect(summary == (try Self.committed("quickstart", "summary.csv")))
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        #expect(names.isSuperset(of: ["report.html", "peak_load.svg", "tts_tail.svg", "table.txt"]))
        #expect(throws: OutputError.self) { try quickstart.write(to: dir.path) }
    }

    @Test("docs/swift-api.md's example is the example package's test, verbatim, so CI compiles and runs it (in make test)")
    func documentedExample() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/swift-api.md"), encoding: .utf8)
        let test = try String(
            contentsOf: Self.root.appendingPathComponent("examples/AppPolicyCheck/Tests/AppPolicyCheckTests/ReleaseGateTests.swift"),
            encoding: .utf8)
        let section = try #require(doc.range(of: "## A release gate in a test"))
        let rest = doc[section.upperBound...]
        let open = try #require(rest.range(of: "```swift\n"))
        let close = try #require(rest.range(of: "\n```\n", range: open.upperBound..<rest.endIndex))
        let block = String(rest[open.upperBound..<close.lowerBound])
        #expect(block.contains("Experiment(contentsOf:") && block.contains("require("))
        #expect(test.contains(block + "\n"), "the swift block of docs/swift-api.md is not in ReleaseGateTests.swift")
    }

    @Test("docs/swift-api.md's custom-policy code is the example package's, verbatim, so CI compiles and runs it (in make test)")
    func documentedCustomPolicy() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/swift-api.md"), encoding: .utf8)
        let example = Self.root.appendingPathComponent("examples/AppPolicyCheck/Sources")
        let sources = try ["AppRetry/SeedNetworkClientPolicy.swift", "PolicyExperiments/CustomPoliciesExperiment.swift"]
            .map { try String(contentsOf: example.appendingPathComponent($0), encoding: .utf8) }
        let section = try #require(doc.range(of: "## Your own retry code"))
        var rest = doc[section.upperBound...]
        var blocks = 0
        while let open = rest.range(of: "```swift\n"), let close = rest.range(of: "\n```\n", range: open.upperBound..<rest.endIndex) {
            let block = String(rest[open.upperBound..<close.lowerBound])
            #expect(
                sources.contains { $0.contains(block + "\n") },
                "a swift block of docs/swift-api.md's custom-policy section is not in the example: \(block)")
            blocks += 1
            rest = rest[close.upperBound...]
        }
        #expect(blocks == 2)
    }
}
