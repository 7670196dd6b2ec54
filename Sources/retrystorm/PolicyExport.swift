import ArgumentParser
import Foundation
import RetryPolicy
import RetryStormKit

/// `retrystorm policy export`: a scenario's policy (the base, or a variant) as the versioned JSON
/// file `RetryPolicyFile` reads, on stdout — the exact value the simulated clients ran.
struct PolicyExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a scenario's retry policy as a versioned JSON policy file (RetryPolicyFile) on stdout.",
        discussion: """
            The policy of the scenario's base, or of one of its variants, after --set overrides, with
            every field written out (durations with units, absent parts as null). An app decodes it
            with JSONDecoder into RetryPolicyFile and runs file.policy with the executor; docs/policy-library.md
            (Policy files) documents the format.

            Examples:
              retrystorm policy export experiments/mobile-fleet.yaml > policy.json
              retrystorm policy export experiments/mobile-fleet.yaml --variant naive
              retrystorm policy export my.yaml --set policy.preset=grpc --set policy.max_attempts=3

            Exit status: 0 success, 2 bad input (scenario, unknown variant, --population).
            """)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Option(help: ArgumentHelp("Export this variant's policy instead of the base's.", valueName: "name"))
    var variant: String?

    @Option(help: ArgumentHelp("Export the policy of this client population (refused: scenarios have no populations yet).",
                               valueName: "name"))
    var population: String?

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override a scenario key, e.g. --set policy.max_attempts=3 (repeatable).", valueName: "path=value"))
    var overrides: [String] = []

    func run() throws {
        let loaded = try CLIErrors.scenario { () throws(ScenarioError) in
            try ScenarioLoader.load(path: scenario, overrides: overrides)
        }
        let file = MessageText.escaped(scenario)
        if let population {
            throw CLIErrors.Failure(message: "\(file): the scenario has no populations (--population \(MessageText.escaped(population)))",
                                    status: CLIErrors.badInput)
        }
        var policy = loaded.base.policy
        var source = scenario
        if let variant {
            guard let match = loaded.variants.first(where: { $0.name == variant }) else {
                let names = loaded.variants.map(\.name)
                let hint = names.isEmpty ? "the scenario has no variants"
                    : Suggest.nearest(variant, in: names).map { "did you mean '\($0)'?" } ?? "its variants: \(names.joined(separator: ", "))"
                throw CLIErrors.Failure(message: "\(file): no variant named '\(MessageText.escaped(variant))' (\(hint))",
                                        status: CLIErrors.badInput)
            }
            policy = match.scenario.policy
            source += ", variant \(variant)"
        }
        for o in overrides { source += ", --set \(o)" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(RetryPolicyFile(policy: policy, source: source))
        print(String(decoding: data, as: UTF8.self))
    }
}
