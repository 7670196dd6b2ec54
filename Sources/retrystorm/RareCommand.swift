import ArgumentParser
import Foundation
import RetryStormKit

struct RareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rare",
        abstract: "Estimate a rare event by multilevel splitting: the mean time to collapse, or a P(stuck) too small for replications.",
        discussion: """
            Branches copies of the engine's state, never replaying a prefix (docs/models.md,
            "Rare events"):
              collapse  the mean time from a healthy start (the scenario without its trigger) to a
                        backlog (requests waiting or in service) of capacity × timeout, in
                        seconds: multilevel splitting on the backlog, from runs that start at an
                        empty server and branches that stop when it empties again
              stuck     the probability that a replication is stuck at the horizon after the
                        scenario's trigger: replications copied and dropped at checkpoints
                        through the trigger as their backlog gets ahead or falls behind, then run
                        to the horizon
            Writes DIR/rare.json (event, estimate, low, high, method, levels, events_simulated,
            plain_monte_carlo_events, speedup) and prints the estimate with its 95% interval,
            from 5 independent batches. One-hop queue servers only.

            Examples:
              retrystorm rare experiments/metastable.yaml --event stuck --set server.brownout.duration=3s --out results/rare-stuck
              retrystorm rare experiments/metastable.yaml --event collapse --set clients.rate=0.05/s --out results/rare-collapse
            """)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Option(help: ArgumentHelp("The event to estimate.", valueName: "collapse|stuck"))
    var event: RareEvent

    @Option(help: ArgumentHelp("Output directory (default: results/<scenario name>-rare).", valueName: "dir"))
    var out: String?

    @Option(
        help: ArgumentHelp(
            "Branches per level over all batches (default: 500 for collapse, 100 for stuck, whose branches run to the horizon; 4000 or more for a P(stuck) of 10^-6 or less).",
            valueName: "n"))
    var effort: Int?

    /// `--effort`, or the event's default.
    var branches: Int { effort ?? (event == .collapse ? 500 : 100) }

    @Option(help: "Scenario seed (overrides the file's `seed`).")
    var seed: UInt64?

    @Option(name: .customLong("variant"), help: ArgumentHelp("Estimate this variant of the file instead of its base.", valueName: "name"))
    var variant: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("Override a key (repeatable).", valueName: "path=value"))
    var overrides: [String] = []

    @Flag(help: "Replace an existing --out directory.")
    var force = false

    @Flag(help: "Say on stderr where each level is placed.")
    var progress = false

    func validate() throws {
        if let effort, !(20...100_000).contains(effort) {
            throw ValidationError("--effort must be between 20 and 100000 (got \(effort))")
        }
    }

    func run() throws {
        let target = try ScenarioChoice.load(path: scenario, overrides: overrides, seed: seed, variant: variant)
        if let why = event.refusal(target) {
            throw CLIErrors.Failure(message: "\(scenario): \(why)", status: CLIErrors.badInput)
        }
        let path = out ?? OutputDirectory.defaultPath(scenarioName: target.name + "-rare")
        let directory = try StudyOutput.open(path, force: force)
        let estimate: RareEstimate
        do {
            estimate = try Splitting.estimate(target, event: event, options: SplittingOptions(effort: branches)) { line in
                if progress { Terminal.error(line + "\n") }
            }
        } catch {
            directory.abandon()
            throw CLIErrors.Failure(message: "\(scenario): \(error.description)", status: CLIErrors.badInput)
        }
        try CLIErrors.output { () throws(OutputError) in
            try directory.write("rare.json", estimate.json(scenario: target.name))
            try directory.commit()
        }
        Terminal.out(estimate.text(scenario: target.name) + "  wrote \(path)/rare.json\n")
    }
}

extension RareEvent: ExpressibleByArgument {}
