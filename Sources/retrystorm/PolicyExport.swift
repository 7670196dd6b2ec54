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
            policy is not what those clients ran. A call graph whose edges run policies other than
            the clients' needs --edge CALLER:CALLEE (clients:FIRST for the clients'), and every
            export of a call graph says on stderr whose policy it wrote; a tune's recommendation that
            sets an edge's policy exports that edge.
              retrystorm policy export experiments/call-graph.yaml --edge backend:db

            --format grpc-service-config writes a gRPC service config (one methodConfig, named by
            --grpc-service and --method, or the default config; --service is its older name); --format envoy writes a route's
            retry_policy and timeout and a cluster's circuit_breakers. Each says on stderr, one line
            per field, what of the policy the format does not carry (the file is read back with
            retrystorm policy import and compared field by field); docs/policy-formats.md has the
            mapping tables.
              retrystorm policy export my.yaml --format grpc-service-config --grpc-service shop.Cart
              retrystorm policy export my.yaml --format envoy > envoy-retry.yaml

            Given a result directory, the policy is read from its scenario.yaml with the --set of
            its command.txt: for a tune, at the recommended point (tune.json), with a warning when
            no point met every constraint; for a run or compare, the base or --variant. A sweep has
            no recommendation: run tune, or export from the scenario with --set.

            Exit status: 0 success, 2 bad input (scenario or result directory, unknown variant,
            population or edge, no --population where populations run their own policies, no
            --edge where a call graph's edges do, or --service naming a service of the call graph).
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
            "policy-file (the JSON RetryPolicyFile, the default), grpc-service-config, envoy or aws-config.", valueName: "format"))
    var format: ExportFormat = .policyFile

    @Option(
        help: ArgumentHelp(
            "A call graph's edge: export the policy CALLER runs on its calls to CALLEE (clients:FIRST for the clients').",
            valueName: "caller:callee"))
    var edge: String?

    @Option(
        name: .customLong("grpc-service"),
        help: ArgumentHelp("grpc-service-config: the gRPC service the methodConfig names (default: every service).", valueName: "name"))
    var grpcService: String?

    // The older spelling of --grpc-service, kept for scripts; a graph's service has its own
    // option (--edge), so a name that is both is refused rather than read as either.
    @Option(help: ArgumentHelp("The same as --grpc-service; refused when it names a service of the call graph.", valueName: "name"))
    var service: String?

    @Option(help: ArgumentHelp("grpc-service-config: the method the methodConfig names (with --grpc-service).", valueName: "name"))
    var method: String?

    /// What `--format` writes.
    enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
        case policyFile = "policy-file"
        case grpcServiceConfig = "grpc-service-config"
        case envoy
        case awsConfig = "aws-config"

        /// The format the policy is written in; nil for the JSON policy file.
        var policyFormat: PolicyFormat? {
            switch self {
            case .policyFile: nil
            case .grpcServiceConfig: .grpcServiceConfig
            case .envoy: .envoy
            case .awsConfig: .awsConfig
            }
        }
    }

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Override a scenario key, e.g. --set policy.max_attempts=3 (repeatable).", valueName: "path=value"))
    var overrides: [String] = []

    func run() throws {
        var isDirectory: ObjCBool = false
        let fromResults = FileManager.default.fileExists(atPath: scenario, isDirectory: &isDirectory) && isDirectory.boolValue
        let (loaded, origin, tuned) = fromResults ? try resultsScenario() : (try scenarioFile(), scenario, [])
        let file = MessageText.escaped(scenario)
        for n in loaded.inputs.importNotes { Terminal.error("retrystorm: note: \(MessageText.escaped(n))\n") }
        var chosen = loaded.base
        var source = origin
        var variantIndex: Int?
        if let variant {
            let k = try pick(variant, among: loaded.variants.map(\.name), kind: "variant", file: file)
            chosen = loaded.variants[k].scenario
            source += ", variant \(variant)"
            variantIndex = k
        }
        var policy = chosen.policy
        let edges = Self.edges(of: chosen)
        let picked = try edge.map { try pickEdge($0, in: chosen, file: file) } ?? recommendedEdge(tuned, in: chosen, file: file)
        if let picked, population != nil {
            throw CLIErrors.Failure(
                message: "--population names a group of clients and --edge \(picked.name) a service's calls: give one of them",
                status: CLIErrors.badInput)
        }
        let own = chosen.populations.filter { $0.policy != chosen.policy }.map(\.name)
        if population == nil && picked == nil && !own.isEmpty {
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
        // Which layer's policy this is: in a call graph the clients' is one of several.
        var timeout = chosen.populations.first { $0.name == population }?.clients.timeout ?? chosen.clients.timeout
        var timeoutKey = "clients.timeout"
        if let picked, let call = picked.call {
            policy = call.policy
            timeout = call.timeout
            timeoutKey = "services.\(picked.caller).calls.\(picked.callee).timeout"
            source += ", edge \(picked.name)"
        } else if let first = chosen.services.first, chosen.isCallGraph {
            let differ = edges.filter { $0.call?.policy != policy }
            if picked == nil && population == nil && !differ.isEmpty {
                // Exporting the clients' policy then would pass over the policy a layer below ran.
                throw CLIErrors.Failure(
                    message: "\(file): the call graph's edges \(differ.map(\.name).joined(separator: ", ")) run policies of their own: "
                        + "name one with --edge CALLER:CALLEE, or --edge clients:\(first.name) for the clients'",
                    status: CLIErrors.badInput)
            }
            if picked != nil { source += ", edge clients:\(first.name)" }
        }
        let grpcName = try self.grpcName(chosen, file: file)
        let flag = grpcService != nil ? "--grpc-service" : "--service"
        guard format == .grpcServiceConfig || (grpcName == nil && method == nil) else {
            throw CLIErrors.Failure(
                message: "\(flag) and --method name a gRPC methodConfig: use them with --format grpc-service-config", status: CLIErrors.badInput)
        }
        if chosen.isCallGraph, let first = chosen.services.first {
            var whose = "the clients' policy (their calls to \(first.name)\(population.map { ", population \($0)" } ?? ""))"
            if let picked, picked.call != nil {
                whose = "the policy of \(picked.caller)'s calls to \(picked.callee) (services.\(picked.caller).calls.\(picked.callee).policy)"
            }
            Terminal.error("retrystorm: note: exports \(MessageText.escaped(whose))\n")
        }
        for o in overrides { source += ", --set \(o)" }
        if let policyFormat = format.policyFormat {
            guard method == nil || grpcName != nil else {
                throw CLIErrors.Failure(
                    message: "--method needs --grpc-service (the method's service, with its proto package)", status: CLIErrors.badInput)
            }
            var scope = population.map { "populations.\($0)." } ?? ""
            if let picked, picked.call != nil { scope = "services.\(picked.caller).calls.\(picked.callee)." }
            let imported = try CLIErrors.scenario { () throws(ScenarioError) in try loaded.importedPolicy(variant: variantIndex, scope: scope) }
            let written = PolicyExporter.export(
                policy, attemptTimeout: timeout, timeoutKey: timeoutKey, format: policyFormat,
                service: grpcName, method: method, origin: imported)
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
    func resultsScenario() throws -> (LoadedScenario, String, [String]) {
        let results = try CLIErrors.runDirectory { () throws(ResultsError) in try ResultsCodec.decode(directory: scenario) }
        var sets = results.command?.scenarioOverrides ?? []
        var origin = scenario
        var tuned: [String] = []
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
            tuned = rec.point.keys.sorted()
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
        return (loaded, origin, tuned)
    }

    /// One call of a call graph (`call` nil: the clients' calls to the first service), by its
    /// `CALLER:CALLEE` name.
    struct Edge {
        var caller: String
        var callee: String
        var call: Scenario.Call?
        var name: String { caller + ":" + callee }
    }

    /// Every call of `s`'s services, in the order the file lists them.
    static func edges(of s: Scenario) -> [Edge] {
        s.services.flatMap { service in
            service.calls.map { Edge(caller: service.name, callee: s.services[$0.to].name, call: $0) }
        }
    }

    /// The edge `text` (`CALLER:CALLEE`, or `clients:FIRST`) names in `s`, or exit 2 naming what it could be.
    func pickEdge(_ text: String, in s: Scenario, file: String) throws -> Edge {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let quoted = "'\(MessageText.escaped(text))'"
        guard s.isCallGraph, let first = s.services.first else {
            throw CLIErrors.Failure(message: "\(file): --edge \(quoted): the scenario has no call graph (services:)", status: CLIErrors.badInput)
        }
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw CLIErrors.Failure(
                message: "--edge \(quoted): give the caller and the callee, e.g. --edge \(Self.edges(of: s).first?.name ?? "clients:" + first.name)",
                status: CLIErrors.badInput)
        }
        // Nothing calls the first service, so clients:FIRST is never also a service's edge.
        if parts[0] == "clients" && parts[1] == first.name { return Edge(caller: parts[0], callee: parts[1], call: nil) }
        let all = Self.edges(of: s)
        if let found = all.first(where: { $0.caller == parts[0] && $0.callee == parts[1] }) { return found }
        let names = ["clients:" + first.name] + all.map(\.name)
        let hint = Suggest.nearest(text, in: names).map { "did you mean '\($0)'?" } ?? "its edges: \(names.joined(separator: ", "))"
        throw CLIErrors.Failure(message: "\(file): no edge named \(quoted) (\(hint))", status: CLIErrors.badInput)
    }

    /// The edge a tune's recommended point (`keys`, the tuned paths) sets the policy of, when
    /// it sets one: that is the policy the tune chose. Nil when it sets none; exit 2 when it sets
    /// several, or the clients' too, and --edge does not say which.
    func recommendedEdge(_ keys: [String], in s: Scenario, file: String) throws -> Edge? {
        guard edge == nil, population == nil else { return nil }
        var names: [String] = []
        for key in keys {
            let parts = key.split(separator: ".", maxSplits: 4).map(String.init)
            guard parts.count == 5, parts[0] == "services", parts[2] == "calls" else { continue }
            let name = parts[1] + ":" + parts[3]
            if !names.contains(name) { names.append(name) }
        }
        if keys.contains(where: { $0.hasPrefix("policy.") || $0 == "clients.timeout" }), let first = s.services.first, !names.isEmpty {
            names.insert("clients:" + first.name, at: 0)
        }
        guard names.count <= 1 else {
            throw CLIErrors.Failure(
                message:
                    "\(file): the tune's recommendation sets the policies of \(names.joined(separator: ", ")): name one with --edge CALLER:CALLEE",
                status: CLIErrors.badInput)
        }
        return try names.first.map { try pickEdge($0, in: s, file: file) }
    }

    /// The gRPC service name for the methodConfig: --grpc-service, or --service when it names no
    /// service of the call graph (a name that is both would be read as one and meant as the other).
    func grpcName(_ s: Scenario, file: String) throws -> String? {
        if let grpcService, service != nil {
            throw CLIErrors.Failure(
                message:
                    "--service is the older name of --grpc-service: give one of them (got '\(MessageText.escaped(grpcService))' and '\(MessageText.escaped(service ?? ""))')",
                status: CLIErrors.badInput)
        }
        if let service, s.isCallGraph, s.services.contains(where: { $0.name == service }) {
            let callers = Self.edges(of: s).filter { $0.callee == service }.map(\.name)
            let example = callers.first ?? "clients:\(service)"
            throw CLIErrors.Failure(
                message: "\(file): --service '\(MessageText.escaped(service))' names a service of the call graph, and --service is the gRPC "
                    + "service's name: pass --grpc-service \(MessageText.escaped(service)) for the gRPC name, or --edge \(example) for the policy of a call to it",
                status: CLIErrors.badInput)
        }
        return grpcService ?? service
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
