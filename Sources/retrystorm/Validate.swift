import ArgumentParser
import Foundation
import RetryStormEngine
import RetryStormKit

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a scenario file without running it.",
        discussion: """
            Parses the file, applies --set overrides, checks every key, type, unit and range, the
            variants, the grid, the expectations, the objective and the constraints, and estimates
            what each study the file defines needs (run; compare with variants or --vary; sweep
            and tune with a grid): it refuses exactly what those commands would refuse. Takes their
            options, so `validate FILE --vary … --replications 20` checks that compare up front.
            Exit status 0 when valid, 2 with one message naming file, line and field when not.

            Example:
              retrystorm validate my-scenario.yaml --set clients.count=1000000
            """)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Option(help: ArgumentHelp("Variants from a key's values, as compare takes them (repeatable).", valueName: "path=v1,v2,…"))
    var vary: [String] = []

    @Option(
        help: ArgumentHelp("A swept key and its values, as sweep and tune take them (repeatable).", valueName: "path=v1,v2,… | path=LO...HI:log:N"))
    var grid: [String] = []

    @Option(help: ArgumentHelp("compare's baseline variant.", valueName: "name"))
    var baseline: String?

    @Option(help: ArgumentHelp("tune's objective.", valueName: "metric"))
    var objective: String?

    @Option(name: .customLong("constraint"), help: ArgumentHelp("A tune constraint (repeatable).", valueName: "metric<=value"))
    var constraints: [String] = []

    @OptionGroup var options: CommonOptions

    func run() throws {
        let context = try StudyContext(scenario: scenario, options: options)
        let loaded = context.loaded
        var studies: [(String, Study, Bool)] = [("run", Studies.run(loaded, replications: options.replications), true)]
        try CLIErrors.scenario { () throws(ScenarioError) in
            if !vary.isEmpty || !loaded.variants.isEmpty {
                let specs = try vary.map { (v: String) throws(ScenarioError) -> GridSpec in
                    try GridSpec.parse(v, at: SourceLocation(origin: .option("--vary \(v)")))
                }
                studies.append(
                    (
                        "compare",
                        try Studies.compare(
                            loaded, vary: specs, replications: options.replications,
                            baseline: baseline.map { Located($0, SourceLocation(origin: .option("--baseline"))) }), true
                    ))
            }
            if !grid.isEmpty || !loaded.grid.isEmpty {
                let specs = try Studies.grid(options: grid, loaded: loaded)
                studies.append(("sweep", try Studies.sweep(loaded, grid: specs, replications: options.replications), false))
            }
            if objective != nil || loaded.objective != nil {
                let text = objective.map { Located($0, SourceLocation(origin: .option("--objective"))) } ?? loaded.objective!
                try Tuner.objective(text.value, at: text.location).scoped.check(populations: StudyOutput.populations(loaded), at: text.location)
            }
            _ = try StudyOutput.constraints(loaded, constraints)
        }
        // An expectation may name any point of any of these studies.
        let names = studies.flatMap { $0.1.points.map(\.name) }
        try CLIErrors.scenario { () throws(ScenarioError) in
            for e in context.expectations { try e.check(points: names) }
        }
        // The largest study first (sweep, compare, then run, which each of them holds): a refusal
        // is then word for word what the command with those options would say.
        for (_, study, series) in studies.reversed() { try context.check(study, series: series, expectations: false) }
        // `run` judges the base alone and refuses a gate that names a variant; compare judges it.
        // The file is valid (for compare), so validate says what run would refuse, word for word.
        if let run = studies.first(where: { $0.0 == "run" })?.1, studies.count > 1 {
            for e in context.expectations {
                do throws(ScenarioError) { try e.check(points: run.points.map(\.name)) } catch {
                    Terminal.error("retrystorm: warning: \(error.description) `run` refuses it (it runs the base alone); `compare` judges it.\n")
                }
            }
        }
        context.warnHorizon(studies.map(\.1))
        var lines: [String] = []
        for (kind, study, series) in studies {
            let budget = StudyBudget(study: study, jobs: options.effectiveJobs, series: series, inputs: loaded.inputs)
            let what = kind == "run" ? "the base" : "\(Format.grouped(study.points.count)) \(kind == "compare" ? "variants" : "grid points")"
            let base = ResourceEstimate(study.points[budget.busiestPoint].scenario)
            lines.append(
                "  \(kind): \(what) × \(Format.grouped(study.replications)) replication\(study.replications == 1 ? "" : "s"); "
                    + "about \(Format.grouped(base.expectedOperations)) operations and at most \(Format.grouped(budget.eventsPerReplication)) events per replication; "
                    + "about \(Format.fixed(budget.bytes / 1_048_576, 0)) MiB at once")
        }
        let variants = loaded.variants.isEmpty ? "" : ", \(loaded.variants.count) variants (\(loaded.variants.map(\.name).joined(separator: ", ")))"
        Terminal.line(
            "\(MessageText.escaped(scenario)): valid — \(MessageText.escaped(loaded.base.name)), "
                + "\(Format.grouped(loaded.base.clients.count)) clients\(variants)")
        for line in lines { Terminal.line(line) }
        context.noteImports()
    }
}
