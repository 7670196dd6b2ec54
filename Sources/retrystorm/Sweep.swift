import ArgumentParser
import Foundation
import RetryStormKit

struct Sweep: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sweep a grid over one to three scenario keys and write sweep.csv.",
        discussion: """
            Each --grid names a key and its values: a list (path=v1,v2,v3) or a range
            (path=LO...HI:log:N or LO...HI:lin:N). Without --grid, the scenario's `grid:` list is
            used. Writes sweep.csv (per grid point and metric: mean and 95% CI; one column per
            swept key) and summary.csv.

            Examples:
              retrystorm sweep experiments/tune-delays.yaml
              retrystorm sweep my.yaml --grid policy.backoff.base=100ms...2s:log:6 --grid policy.backoff.max=10s,30s,60s
            """)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Option(help: ArgumentHelp("A swept key and its values (repeatable, up to three).", valueName: "path=v1,v2,… | path=LO...HI:log:N"))
    var grid: [String] = []

    @OptionGroup var options: CommonOptions

    func run() throws {
        let context = try StudyContext(scenario: scenario, options: options)
        let study = try CLIErrors.scenario { () throws(ScenarioError) in
            try Studies.sweep(context.loaded, grid: try Studies.grid(options: grid, loaded: context.loaded), replications: options.replications)
        }
        StudyOutput.reportSkipped(study)
        // A shard writes every task's time series (merge keeps the first two points'); unsharded,
        // only the first two points' are written, from the results in memory.
        let outcome = try context.execute(study, series: options.shard != nil)
        try context.report(outcome, study: study)
    }
}
