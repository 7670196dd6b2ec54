import ArgumentParser
import Foundation
import RetryStormKit

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare variants: the scenario's `variants:` or --vary values, with common random numbers.",
        discussion: """
            Every variant runs the same replications (replication r of every variant sees the same
            arrival and service-time streams), so differences come from the policies, not the dice.
            Writes compare.csv (per variant and metric: mean and 95% CI), summary.csv,
            timeseries.csv and tts_quantiles.csv for every variant, and prints a table.

            Examples:
              retrystorm compare experiments/jitter-comparison.yaml --replications 10
              retrystorm compare my.yaml --vary policy.backoff.jitter=none,full,equal,decorrelated
              retrystorm compare my.yaml --vary policy.backoff.base=100ms,1s --vary policy.max_attempts=3,6
            """)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Option(
        help: ArgumentHelp(
            "Variants from a key's values (repeatable: every combination), instead of the scenario's `variants:`.",
            valueName: "path=v1,v2,…"))
    var vary: [String] = []

    @Option(
        help: ArgumentHelp(
            "The variant every other is compared with (paired differences in compare.csv; default: the first).",
            valueName: "name"))
    var baseline: String?

    @OptionGroup var options: CommonOptions

    func run() throws {
        let context = try StudyContext(scenario: scenario, options: options)
        let study = try CLIErrors.scenario { () throws(ScenarioError) in
            let specs = try vary.map { (v: String) throws(ScenarioError) -> GridSpec in
                try GridSpec.parse(v, at: SourceLocation(origin: .option("--vary \(v)")))
            }
            return try Studies.compare(
                context.loaded, vary: specs, replications: options.replications,
                baseline: baseline.map { Located($0, SourceLocation(origin: .option("--baseline"))) })
        }
        let outcome = try context.execute(study, series: true)
        try context.report(outcome, study: study)
    }
}
