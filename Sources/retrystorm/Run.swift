import ArgumentParser
import Foundation
import RetryStormKit

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario and write timeseries.csv, summary.csv, tts_quantiles.csv and perf.json.",
        discussion: """
            Runs the scenario's base (not its variants: see `compare`) for --replications
            replications and prints a summary. Results go to a temporary directory beside --out
            and are moved into place only when complete.

            Examples:
              retrystorm run experiments/quickstart.yaml
              retrystorm run experiments/quickstart.yaml --seed 7 --set clients.count=50000 --out /tmp/q
              retrystorm run experiments/quickstart.yaml --replications 10 --expect 'peak_load_ratio<=3.5'
            """)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @OptionGroup var options: CommonOptions

    func run() throws {
        let context = try StudyContext(scenario: scenario, options: options)
        let study = Studies.run(context.loaded, replications: options.replications)
        let outcome = try context.execute(study, series: true)
        try context.report(outcome, study: study)
    }
}
