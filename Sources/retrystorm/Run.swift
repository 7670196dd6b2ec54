import ArgumentParser
import Foundation
import RetryStormKit

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario and write timeseries.csv, summary.csv and perf.json.",
        discussion: """
            Runs the scenario's base (not its variants: see `compare`) for --replications
            replications and prints a summary. Results go to a temporary directory beside --out
            and are moved into place only when complete.

            Examples:
              retrystorm run experiments/quickstart.yaml
              retrystorm run experiments/quickstart.yaml --seed 7 --set clients.count=50000 --out /tmp/q
            """)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @OptionGroup var options: CommonOptions

    func run() throws {
        Interruption.install()
        let loaded = try CLIErrors.scenario { () throws(ScenarioError) in
            try ScenarioLoader.load(path: scenario, overrides: options.overrides, seed: options.seed)
        }
        let jobs = options.effectiveJobs
        try CLIErrors.scenario { () throws(ScenarioError) in
            try MemoryGuard.check(loaded.base, parallel: min(jobs, options.replications), source: scenario)
        }
        let outPath = options.out ?? "results/\(loaded.base.name)"
        let out = try CLIErrors.output { () throws(OutputError) in try OutputDirectory(path: outPath, force: options.force) }

        let job = RunJob(scenario: loaded, replications: options.replications, jobs: jobs, checkInvariants: options.checkInvariants)
        let outcome = job.execute()
        if let broken = outcome.results.compactMap(\.invariantViolation).first {
            out.abandon()
            throw CLIErrors.internalError("invariant violated: \(broken)")
        }
        try CLIErrors.output { () throws(OutputError) in
            try out.write("timeseries.csv", outcome.timeseries.contents)
            try out.write("summary.csv", outcome.summary.contents)
            try out.write("tts_quantiles.csv", outcome.ttsQuantiles.contents)
            try out.write("scenario.yaml", loaded.text)
            try out.write("perf.json", outcome.perf.json)
            try out.writeCharts()
            try out.commit()
        }
        let title = "\(loaded.base.name): \(Format.grouped(Int64(loaded.base.clients.count))) clients, seed \(loaded.base.seed) → \(outPath)"
        print(SummaryTable.render(title: title, results: outcome.results), terminator: "")
        fflush(nil)  // flush stdout before the perf line on stderr
        FileHandle.standardError.write(Data((outcome.perf.line + "\n").utf8))
    }
}
