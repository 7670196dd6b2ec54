import ArgumentParser
import Foundation
import RetryStormKit

struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Map where a scenario tips into a metastable state: P(stuck) over a grid of one to three keys.",
        discussion: """
            Each --grid names a key and its values, as for sweep. Every point runs --replications
            replications; a point whose P(stuck) is undecided (its 95% Wilson interval still holds
            50%) then doubles them, round by round, up to --max-replications, while a point whose
            replications agree stops: the boundary gets the replications. Writes map.csv (per point:
            the swept keys, replications, stuck, p_stuck, p_stuck_low, p_stuck_high,
            recovery_p50_s), map.svg (the heatmap with the 50% boundary), report.html, and a
            sweep's files over every replication that ran (summary.csv, sweep.csv).

            Examples:
              retrystorm map experiments/metastable.yaml --grid server.brownout.duration=2s,5s,10s,20s --grid clients.rate=0.02/s,0.035/s,0.05/s
              retrystorm map my.yaml --grid server.outage.duration=10s...120s:lin:12 --replications 4 --max-replications 64
            """)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Option(help: ArgumentHelp("A mapped key and its values (repeatable, up to three).", valueName: "path=v1,v2,… | path=LO...HI:log:N"))
    var grid: [String] = []

    @Option(
        name: .customLong("max-replications"),
        help: ArgumentHelp(
            "The most replications a point near the boundary runs (default: 32, or 8 × --replications if more).", valueName: "n"))
    var maxReplications: Int?

    @OptionGroup var options: CommonOptions

    /// A point's most replications: `--max-replications`, else 32 or 8 × `--replications`.
    var maximum: Int { maxReplications ?? max(32, 8 * options.replications) }

    func validate() throws {
        if options.shard != nil {
            throw ValidationError("map decides its replications as it goes, so it cannot be split into shards (run it whole)")
        }
        if let m = maxReplications, m < options.replications || m > 100_000 {
            throw ValidationError("--max-replications must be between --replications (\(options.replications)) and 100000 (got \(m))")
        }
    }

    func run() throws {
        let context = try StudyContext(scenario: scenario, options: options)
        var study = try CLIErrors.scenario { () throws(ScenarioError) in
            try Studies.sweep(context.loaded, grid: try Studies.grid(options: grid, loaded: context.loaded), replications: options.replications)
        }
        StudyOutput.reportSkipped(study)
        // The guard checks the most a map can run: every point at its maximum.
        study.replications = maximum
        let out = try context.open(study, series: false)
        study.replications = options.replications
        let map = MapStudy(
            loaded: context.loaded, study: study, initial: options.replications, maximum: maximum, jobs: options.effectiveJobs,
            options: options.engine, progress: options.progress, command: options.command)
        let outcome = map.execute()
        try context.write(outcome, to: out)
        try context.report(outcome, study: study)
    }
}
