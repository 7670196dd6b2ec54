import ArgumentParser
import Foundation
import RetryStormEngine
import RetryStormKit

/// Options every simulating subcommand takes.
struct CommonOptions: ParsableArguments {
    @Option(help: "Scenario seed (overrides the file's `seed`).")
    var seed: UInt64?

    @Option(help: ArgumentHelp("Output directory (default: results/<scenario name>).", valueName: "dir"))
    var out: String?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Override a scenario key, e.g. --set clients.count=100000 (repeatable).", valueName: "path=value"))
    var overrides: [String] = []

    @Option(
        help: ArgumentHelp(
            "The service of a call graph whose load the table, best marks, findings and charts weigh (overrides the file's `focus`; default: where the storm lands, the highest peak load over capacity).",
            valueName: "name"))
    var focus: String?

    /// `--set`'s overrides, then `--focus` as the scenario's `focus` key.
    var scenarioOverrides: [String] { overrides + (focus.map { [StudyCommand.focusOverride($0)] } ?? []) }

    @Option(help: "Independent replications, each seeded from (seed, replication index).")
    var replications: Int = 1

    @Option(help: "Replications run in parallel (default: the number of cores). Outputs do not depend on it.")
    var jobs: Int?

    @Flag(help: "Replace an existing --out directory.")
    var force = false

    @Flag(name: .customLong("check-invariants"), help: "Check the conservation laws after every event (slower).")
    var checkInvariants = false

    @Option(
        name: .customLong("expect"),
        help: ArgumentHelp(
            "A release gate on the mean over replications, e.g. --expect 'peak_load_ratio<=1.5' or 'full:gave_up==0', or on a paired difference, 'mine:tts_p99_s.vs(full-jitter).ci95_high<=5%'; exit 1 when it fails (repeatable).",
            valueName: "[variant:]metric<=value"))
    var expectations: [String] = []

    @Option(
        name: .customLong("min-difference"),
        help: ArgumentHelp(
            "The smallest difference a verdict counts as clear, besides the paired 95% interval: N% relative, Npt for shares, or both (default 1%,0.1pt).",
            valueName: "N%,Npt"))
    var minDifference: String?

    @Option(
        name: .customLong("event-queue"),
        help: ArgumentHelp(
            "Where retries wait: wheel (a calendar queue, the default) or heap; for measuring the choice (make bench). Outputs are the same.",
            valueName: "wheel|heap"))
    var eventQueue: EventQueueKind = .wheel

    @Flag(
        name: .customLong("all-events"),
        help: ArgumentHelp(
            "Simulate every happening as a queued event: no attempt outcome settled when it is sent, FIFO queues served event by event. Slower; for checking the shortcuts (results agree exactly where no random draw moves, in distribution otherwise)."
        ))
    var allEvents = false

    @Option(
        name: .customLong("max-events"),
        help: ArgumentHelp(
            "The most events one replication may process (default 1000000000). Work whose estimate exceeds it is refused before it runs.",
            valueName: "n"))
    var maxEventsOption: Int64?

    @Option(
        help: ArgumentHelp(
            "Progress on stderr: a bar on a terminal and lines in logs (auto), or bar, lines, none.",
            valueName: "auto|bar|lines|none"))
    var progress: ProgressMode = .auto

    var maxEvents: Int64 { maxEventsOption ?? ResourceGuard.defaultMaxEvents }

    /// The command line as typed, for command.txt and the report, without the options that change
    /// no byte of the results (so shards and merges, any --out and any --jobs record the same).
    var command: StudyCommand {
        StudyCommand(
            argv: CommandLine.arguments,
            leavingOut: ["--out", "--jobs", "--progress", "--shard", "--max-events", "--event-queue"],
            flags: ["--force", "--check-invariants"])
    }

    var engine: EngineOptions {
        EngineOptions(
            checkInvariants: checkInvariants, eventQueue: eventQueue, allEvents: allEvents, maxEvents: maxEvents,
            graphMemory: ResourceGuard.graphMemory(jobs: effectiveJobs))
    }

    @Option(help: ArgumentHelp("Run only slice i of n of the work (grid points × replications); combine the slices with `merge`.", valueName: "i/n"))
    var shard: String?

    func validate() throws {
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard takes i/n with 0 ≤ i < n (got \(shard))")
        }
        guard replications >= 1 && replications <= 100_000 else {
            throw ValidationError("--replications must be between 1 and 100000 (got \(replications))")
        }
        if let jobs, jobs < 1 || jobs > 1024 { throw ValidationError("--jobs must be between 1 and 1024 (got \(jobs))") }
        if let m = minDifference, MinimumDifference(parsing: m) == nil {
            throw ValidationError("--min-difference takes N% (relative), Npt (share points) or both, comma-separated, e.g. 2%,0.5pt (got \(m))")
        }
        if let m = maxEventsOption, m < 1 { throw ValidationError("--max-events must be at least 1 (got \(m))") }
    }

    var effectiveJobs: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
    var parsedShard: Shard? { shard.flatMap { Shard(parsing: $0) } }
}

extension EventQueueKind: ExpressibleByArgument {}
extension ProgressMode: ExpressibleByArgument {}
