import ArgumentParser
import Foundation
import RetryStormKit

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say whether a scenario tips into a metastable state, from the laws of a retrying server, without simulating.",
        discussion: """
            Applies the laws of a FIFO queue server that serves abandoned work to the scenario
            (docs/models.md, "Explain: the laws"), in well under a second:
              sustain   the highest first-attempt load at which an overload sustained by retries
                        cannot persist, and the critical backlog past which every attempt times out
              trigger   the shortest trigger of the scenario's depth that tips the server, whether
                        the scenario's own does, and how long its backlog takes to drain
              collapse  the mean time to a spontaneous collapse from a healthy start
              budget    the failure rate at which the clients' retry budget drains
            and warns when the baseline itself is unstable. Where a law does not hold (call
            graphs, backoff, breakers, multi-worker collapse, …) it says why instead of a number.
            Writes nothing; --json prints the same as JSON.

            Examples:
              retrystorm explain experiments/metastable.yaml
              retrystorm explain experiments/metastable.yaml --set clients.rate=0.02/s --json
            """)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Flag(help: "Print JSON (services[i].sustain, .trigger, .collapse; budget) instead of text.")
    var json = false

    @Option(name: .customLong("variant"), help: ArgumentHelp("Explain this variant of the file instead of its base.", valueName: "name"))
    var variant: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("Override a key (repeatable).", valueName: "path=value"))
    var overrides: [String] = []

    func run() throws {
        let target = try ScenarioChoice.load(path: scenario, overrides: overrides, seed: nil, variant: variant)
        let e = Explainer.explain(target)
        Terminal.out(json ? e.json : e.text)
    }
}
