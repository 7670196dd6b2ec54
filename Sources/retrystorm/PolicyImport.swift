import ArgumentParser
import Foundation
import RetryStormKit

extension PolicyFormat: ExpressibleByArgument {}

/// `retrystorm policy import`: a policy file as a service ships it (a gRPC service config, Envoy
/// route and cluster settings) as the scenario keys it decides, on stdout — YAML to paste into a
/// scenario, or what `policy.import` in a scenario applies. What the simulator reads differently
/// from the file goes to stderr; what it cannot read is refused (exit 2).
struct PolicyImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Print the scenario keys of a gRPC service config's, Envoy's or the AWS shared config file's retry settings (YAML) on stdout.",
        discussion: """
            Every field of the file's retry settings is mapped to a scenario key or refused, naming
            the file, its line and the field's path. Each key's comment says which field (or which
            documented default) it comes from; where the simulator's meaning is close to the file's
            but not the same (a call deadline, Envoy's jitter of Retry-After), a note on stderr says
            how. docs/policy-formats.md has the mapping tables and their sources.

            A scenario imports the same file with policy.import (paths relative to the scenario),
            so that a release gate checks the file that ships:
              policy:
                import: {file: service-config.json, service: shop.Cart, method: Checkout}

            Examples:
              retrystorm policy import service-config.json --service shop.Cart --method Checkout
              retrystorm policy import envoy.yaml --route checkout
              retrystorm policy import envoy.yaml --route checkout --ignore max_connections,max_pending_requests
              retrystorm policy import ~/.aws/config --profile ci

            Every refusal of the file is listed, one line each (at most 20).

            Exit status: 0 success, 2 bad input (unreadable or malformed file, a field refused or of
            the wrong type, no such method or route).
            """)

    @Argument(help: "The policy file: a gRPC service config (JSON), Envoy settings (YAML or JSON) or an AWS shared config file (INI).")
    var file: String

    @Option(
        help:
            "The file's format (default: aws-config when it starts with a [section], a gRPC service config when it has methodConfig or retryThrottling, else Envoy)."
    )
    var format: PolicyFormat?

    @Option(help: ArgumentHelp("gRPC: the service (with its proto package) whose methodConfig applies.", valueName: "name"))
    var service: String?

    @Option(help: ArgumentHelp("gRPC: the method (with --service).", valueName: "name"))
    var method: String?

    @Option(help: ArgumentHelp("Envoy: the route, by name.", valueName: "name"))
    var route: String?

    @Option(help: ArgumentHelp("Envoy: the cluster, by name (default: the route's cluster).", valueName: "name"))
    var cluster: String?

    @Option(help: ArgumentHelp("aws-config: the profile, [profile NAME] (default: [default]).", valueName: "name"))
    var profile: String?

    @Option(
        help: ArgumentHelp(
            "Fields not modelled that the simulation may leave out (comma-separated paths without list indices, or names; repeatable).",
            valueName: "fields"))
    var ignore: [String] = []

    func run() throws {
        let request = PolicyImportRequest(
            format: format, service: service, method: method, route: route, cluster: cluster, profile: profile,
            ignore: ignore.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty })
        let imported = try CLIErrors.scenario { () throws(ScenarioError) in try PolicyImporter.read(file, request: request) }
        let name = MessageText.escaped(file)
        for note in imported.notes { Terminal.error("retrystorm: note: \(name): \(MessageText.escaped(note))\n") }
        Terminal.out("# The retry settings of \(name) (\(imported.format.rawValue)), from retrystorm policy import.\n" + imported.yaml)
    }
}
