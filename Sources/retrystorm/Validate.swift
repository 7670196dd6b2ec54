import ArgumentParser
import Foundation
import RetryStormEngine
import RetryStormKit

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a scenario file without running it.",
        discussion: """
            Parses the file, applies --set overrides, checks every key, type, unit and range, and
            estimates memory. Exit status 0 when valid, 2 with one message naming file, line and
            field when not.

            Example:
              retrystorm validate my-scenario.yaml --set clients.count=1000000
            """)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Option(name: .customLong("set"), help: ArgumentHelp("Override a scenario key (repeatable).", valueName: "path=value"))
    var overrides: [String] = []

    func run() throws {
        let loaded = try CLIErrors.scenario { () throws(ScenarioError) in
            try ScenarioLoader.load(path: scenario, overrides: overrides)
        }
        try CLIErrors.scenario { () throws(ScenarioError) in
            try MemoryGuard.check(loaded, parallel: 1)
        }
        let variants = loaded.variants.isEmpty ? "" : ", \(loaded.variants.count) variants (\(loaded.variants.map(\.name).joined(separator: ", ")))"
        let estimate = ResourceEstimate(loaded.base)
        print("\(scenario): valid — \(loaded.base.name), \(Format.grouped(Int64(loaded.base.clients.count))) clients\(variants); "
              + "about \(Format.grouped(Int64(estimate.expectedOperations))) operations, at most \(Format.grouped(Int64(estimate.maxEvents))) events "
              + "and \(Format.fixed(Double(estimate.bytesPerReplication) / 1_048_576, 0)) MiB per replication")
    }
}
