import ArgumentParser
import Foundation
import RetryStormKit

/// `retrystorm`: the command-line front of the simulator.
struct RetryStorm: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retrystorm",
        abstract: "Simulate retry storms: many clients running real retry policies against an overloaded server.",
        discussion: """
            Examples:
              retrystorm run experiments/quickstart.yaml
              retrystorm run experiments/quickstart.yaml --seed 7 --set clients.count=50000 --out /tmp/q
              retrystorm run my.yaml --replications 10 --jobs 2
              retrystorm validate my-scenario.yaml
              retrystorm keys            # every scenario key, its type, default and meaning

            Exit status: 0 success, 2 bad input (scenario, options, existing --out), 3 internal error,
            130 interrupted.
            """,
        version: RetryStormVersion.current,
        subcommands: [Run.self, Validate.self, Keys.self, ChartCommand.self, ReportCommand.self]
    )
}

/// Options every simulating subcommand takes.
struct CommonOptions: ParsableArguments {
    @Option(help: "Scenario seed (overrides the file's `seed`).")
    var seed: UInt64?

    @Option(help: ArgumentHelp("Output directory (default: results/<scenario name>).", valueName: "dir"))
    var out: String?

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override a scenario key, e.g. --set clients.count=100000 (repeatable).", valueName: "path=value"))
    var overrides: [String] = []

    @Option(help: "Independent replications, each seeded from (seed, replication index).")
    var replications: Int = 1

    @Option(help: "Replications run in parallel (default: the number of cores). Outputs do not depend on it.")
    var jobs: Int?

    @Flag(help: "Replace an existing --out directory.")
    var force = false

    @Flag(name: .customLong("check-invariants"), help: "Check the conservation laws after every event (slower).")
    var checkInvariants = false

    func validate() throws {
        guard replications >= 1 && replications <= 100_000 else {
            throw ValidationError("--replications must be between 1 and 100000 (got \(replications))")
        }
        if let jobs, jobs < 1 || jobs > 1024 { throw ValidationError("--jobs must be between 1 and 1024 (got \(jobs))") }
    }

    var effectiveJobs: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
}
