import ArgumentParser
import Foundation
import RetryPolicy
import RetryStormKit
import RetryStormReport

/// `retrystorm policy export`: a scenario's policy (the base, or a variant) as the versioned JSON
/// file `RetryPolicyFile` reads, on stdout — the exact value the simulated clients ran. Given a
/// result directory instead, the policy its study ran: a tune's recommended point.
struct PolicyExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a scenario's retry policy as a versioned JSON policy file (RetryPolicyFile), a gRPC service config or Envoy settings.",
        discussion: """
            The policy of the scenario's base, or of one of its variants, after --set overrides, with
            every field written out (durations with units, absent parts as null). An app decodes it
            with JSONDecoder into RetryPolicyFile and runs file.policy with the executor; docs/policy-library.md
            (Policy files) documents the format.

            Examples:
              retrystorm policy export experiments/mobile-fleet.yaml > policy.json
              retrystorm policy export experiments/mobile-fleet.yaml --variant naive
              retrystorm policy export experiments/staged-rollout.yaml --population v2
              retrystorm policy export results/tune-delays      # the tune's recommended point
              retrystorm policy export my.yaml --set policy.preset=grpc --set policy.max_attempts=3

            A scenario whose populations run policies of their own needs --population: the base's
            policy is not what those clients ran.

            --format grpc-service-config writes a gRPC service config (one methodConfig, named by
            --service and --method, or the default config); --format envoy writes a route's
            retry_policy and timeout and a cluster's circuit_breakers. Each says on stderr, one line
            per field, what of the policy the format does not carry (the file is read back with
            retrystorm policy import and compared field by field); docs/policy-formats.md has the
            mapping tables.
              retrystorm policy export my.yaml --format grpc-service-config --service shop.Cart
              retrystorm policy export my.yaml --format envoy > envoy-retry.yaml

            Given a result directory, the policy is read from its scenario.yaml with the --set of
            its command.txt: for a tune, at the recommended point (tune.json), with a warning when
            no point met every constraint; for a run or compare, the base or --variant. A sweep has
            no recommendation: run tune, or export from the scenario with --set.

            Exit status: 0 success, 2 bad input (scenario or result directory, unknown variant or
            population, or no --population where populations run their own policies).
            """)

    @Argument(help: "The scenario file (YAML), or a result directory (a tune's: its recommended point).")
    var scenario: String

    @Option(help: ArgumentHelp("Export this variant's policy instead of the base's.", valueName: "name"))
    var variant: String?

    @Option(
        help: ArgumentHelp(
            "Export the policy of this client population (of the variant, with --variant).",
            valueName: "name"))
    var population: String?

    @Option(
        help: ArgumentHelp(
            "policy-file (the JSON RetryPolicyFile, the default), grpc-service-config or envoy.", valueName: "format"))
    var format: ExportFormat = .policyFile

    @Option(help: ArgumentHelp("grpc-service-config: the service the methodConfig names (default: every service).", valueName: "name"))
    var service: String?

    @Option(help: ArgumentHelp("grpc-service-config: the method the methodConfig names (with --service).", valueName: "name"))
    var method: String?

    /// What `--format` writes.
    enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
        case policyFile = "policy-file"
        case grpcServiceConfig = "grpc-service-config"
        case envoy
    }

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Override a scenario key, e.g. --set policy.max_attempts=3 (repeatable).", valueName: "path=value"))
    var overrides: [String] = []

    func run() throws {
        var isDirectory: ObjCBool = false
        let fromResults = FileManager.default.fileExists(atPath: scenario, isDirectory: &isDirectory) && isDirectory.boolValue
        let (loaded, origin) = fromResults ? try resultsScenario() : (try scenarioFile(), scenario)
        let file = MessageText.escaped(scenario)
        for n in loaded.inputs.importNotes { Terminal.error("retrystorm: note: \(MessageText.escaped(n))\n") }
        var chosen = loaded.base
        var source = origin
        if let variant {
            let k = try pick(variant, among: loaded.variants.map(\.name), kind: "variant", file: file)
            chosen = loaded.variants[k].scenario
            source += ", variant \(variant)"
        }
        var policy = chosen.policy
        let own = chosen.populations.filter { $0.policy != chosen.policy }.map(\.name)
        if population == nil && !own.isEmpty {
            // The base's policy is then one that some or all clients do not run: exporting it
            // would ship a policy nobody simulated.
            let names = chosen.populations.map(\.name).joined(separator: ", ")
            throw CLIErrors.Failure(
                message: "\(file): the clients are in populations (\(names)) and \(own.joined(separator: ", ")) "
                    + "run\(own.count == 1 ? "s" : "") a policy of \(own.count == 1 ? "its" : "their") own: name one with --population",
                status: CLIErrors.badInput)
        }
        if let population {
            policy = chosen.populations[try pick(population, among: chosen.populations.map(\.name), kind: "population", file: file)].policy
            source += ", population \(population)"
        }
        for o in overrides { source += ", --set \(o)" }
        if format != .policyFile {
            guard format == .grpcServiceConfig || (service == nil && method == nil) else {
                throw CLIErrors.Failure(
                    message: "--service and --method name a gRPC methodConfig: use them with --format grpc-service-config", status: CLIErrors.badInput
                )
            }
            guard method == nil || service != nil else {
                throw CLIErrors.Failure(
                    message: "--method needs --service (the method's service, with its proto package)", status: CLIErrors.badInput)
            }
            let timeout = chosen.populations.first { $0.name == population }?.clients.timeout ?? chosen.clients.timeout
            let written = PolicyExporter.export(
                policy, attemptTimeout: timeout, format: format == .envoy ? .envoy : .grpcServiceConfig, service: service, method: method)
            for note in written.notes { Terminal.error("retrystorm: note: \(MessageText.escaped(note))\n") }
            Terminal.out(written.text)
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(RetryPolicyFile(policy: policy, source: source))
        Terminal.line(String(decoding: data, as: UTF8.self))
    }

    func scenarioFile() throws -> LoadedScenario {
        try CLIErrors.scenario { () throws(ScenarioError) in
            try ScenarioLoader.load(path: scenario, overrides: overrides)
        }
    }

    /// The scenario a result directory's study ran: its scenario.yaml, with its command's `--set`,
    /// then (for a tune) the recommended point's values, then this command's `--set`; and the words
    /// for the policy file's `source`.
    func resultsScenario() throws -> (LoadedScenario, String) {
        let results = try CLIErrors.runDirectory { () throws(ResultsError) in try ResultsCodec.decode(directory: scenario) }
        var sets = results.command?.values(of: "--set") ?? []
        var origin = scenario
        switch results.kind {
        case .tune:
            guard let rec = results.tune?.recommendation else {
                throw CLIErrors.Failure(
                    message: "\(MessageText.escaped(ResultsCodec.file(scenario, "tune.json"))): the tune has no recommendation to export",
                    status: CLIErrors.badInput)
            }
            guard variant == nil else {
                throw CLIErrors.Failure(
                    message: "\(MessageText.escaped(scenario)): a tune's result exports its recommended point: leave out --variant",
                    status: CLIErrors.badInput)
            }
            let point = rec.point.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            sets += point
            origin += ", tune's recommendation \(point.joined(separator: ", "))"
            if !rec.feasible || rec.basis == .closest {
                Terminal.error(
                    "retrystorm: \(MessageText.escaped(scenario)): no evaluated point met every constraint; exporting the closest, \(rec.variant)\n")
            }
        case .sweep:
            throw CLIErrors.Failure(
                message:
                    "\(MessageText.escaped(scenario)): a sweep has no recommendation to export: run `retrystorm tune`, or export from the scenario with --set",
                status: CLIErrors.badInput)
        case .run, .compare:
            break
        }
        sets += overrides
        let path = ResultsCodec.file(scenario, "scenario.yaml")
        let loaded = try CLIErrors.scenario { () throws(ScenarioError) in
            try ScenarioLoader.parse(text: results.scenario, path: path, overrides: sets, inputs: RunDirectory.inputs(in: scenario))
        }
        return (loaded, origin)
    }

    /// The index of `name` among `names` (the scenario's variants or populations), or exit 2 with a hint.
    func pick(_ name: String, among names: [String], kind: String, file: String) throws -> Int {
        if let k = names.firstIndex(of: name) { return k }
        let hint =
            names.isEmpty
            ? "the scenario has no \(kind)s"
            : Suggest.nearest(name, in: names).map { "did you mean '\($0)'?" } ?? "its \(kind)s: \(names.joined(separator: ", "))"
        throw CLIErrors.Failure(message: "\(file): no \(kind) named '\(MessageText.escaped(name))' (\(hint))", status: CLIErrors.badInput)
    }
}
