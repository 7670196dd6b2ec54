import RetryPolicy
import RetryStormEngine
import RetryStormVocabulary

/// One declared service while a scenario is resolved: its `server.*` entries and its calls.
struct ServiceSpec {
    var name: String
    var declaredAt: SourceLocation
    /// Its `server.*` entries, in order (paths still `services.NAME.server.KEY`).
    var entries: [Entry] = []
    var calls: [CallSpec] = []

    /// The services a scenario's entries (file, variant, options, in order) declare, each with
    /// its entries; empty when the file declares none. With services, a top-level `server.*` key
    /// is refused: each service has its own.
    static func specs(_ entries: [Entry]) throws(ScenarioError) -> [ServiceSpec] {
        var specs = declared(entries)
        try assign(entries, to: &specs)
        if !specs.isEmpty, let top = entries.first(where: { $0.path.hasPrefix("server.") }) {
            throw ScenarioError(
                top.location, field: top.path,
                "with services:, each service has its own server: set services.\(specs[0].name).\(top.path) (or another service's)")
        }
        return specs
    }

    /// `specs` built on `base` (the scenario's draft) into engine values, checked.
    ///
    /// Each server starts from the `server.*` defaults, not from the top-level `server:`; its
    /// other inputs (the horizon, the clients' timeout) are the scenario's.
    static func build(
        _ specs: [ServiceSpec], base: ScenarioDraft, locations: [String: SourceLocation], inputs: InputFiles
    ) throws(ScenarioError) -> [Scenario.Service] {
        let graph = specs.count > 1 || specs.contains { !$0.calls.isEmpty }
        let names = specs.map(\.name)
        var out: [Scenario.Service] = []
        for (index, spec) in specs.enumerated() {
            let prefix = ScenarioSchema.servicePrefix + spec.name + "."
            var draft = base
            draft.scope = prefix
            try ScenarioLoader.applyDefaults(ScenarioSchema.fields.filter { $0.path.hasPrefix("server.") }, to: &draft)
            var own = locations
            try ScenarioLoader.apply(spec.entries, to: &draft, locations: &own) { String($0.path.dropFirst(prefix.count)) }
            if graph, let problem = modelProblem(draft.model, first: index == 0, calls: !spec.calls.isEmpty) {
                let set = spec.entries.last { $0.path == prefix + "server.model" }
                throw ScenarioError(set?.location ?? spec.declaredAt, field: prefix + "server.model", problem)
            }
            let built = try ScenarioLoader.scoped(prefix, owns: ScenarioSchema.serviceServerKeys) { () throws(ScenarioError) in
                try draft.build(locations: own, inputs: inputs)
            }
            var service = Scenario.Service(name: spec.name, server: built.server)
            if let release = spec.entries.last(where: { $0.path == prefix + "server.release_while_calling" }),
                let field = ScenarioSchema.field(at: release.path)
            {
                do { service.releaseWhileCalling = try field.parse(release.text).bool } catch {
                    throw ScenarioError(release.location, field: release.path, error.message)
                }
            }
            for call in spec.calls {
                service.calls.append(try call.build(caller: spec.name, index: index, names: names, inputs: inputs))
            }
            service.calls = try staged(service.calls, of: spec)
            out.append(service)
        }
        return out
    }

    /// Why a service of a call graph cannot run `model` (nil: it can). Every service may run the
    /// queue model; a leaf (no calls) behind the first service the flaky model; none the contention
    /// model, whose read and write round trips are the calling client's own, not a service's.
    static func modelProblem(_ model: String, first: Bool, calls: Bool) -> String? {
        switch model {
        case "queue":
            return nil
        case "flaky" where calls:
            return "is flaky, but the service makes calls: a flaky server has no workers to make them (use queue)"
        case "flaky" where first:
            return "is flaky on the first service: it makes no calls, so no other service would be called (run a flaky server without services:)"
        case "flaky":
            return nil
        default:
            return
                "is \(model): a call graph cannot run it (its read and write round trips are the client's own); use queue, or flaky on a service that makes no calls"
        }
    }

    /// `calls` (of `spec`, in its order) in the order their stages run. Without a `stage` key
    /// they are as given, each a stage of its own. With one, every call gets a stage: its own, or
    /// one more than the call listed before it (so an unstaged call runs after it, alone), and
    /// they are sorted by stage, keeping the list's order within one. A call whose `count` calls
    /// would go one after another (`parallel: false`) cannot share its stage: a stage's calls go
    /// out together.
    static func staged(_ calls: [Scenario.Call], of spec: ServiceSpec) throws(ScenarioError) -> [Scenario.Call] {
        guard calls.contains(where: { $0.stage != nil }) else { return calls }
        var resolved = calls
        var previous = 0
        for i in resolved.indices {
            let stage = resolved[i].stage ?? previous + 1
            resolved[i].stage = stage
            previous = stage
        }
        let order = resolved.indices.sorted { (resolved[$0].stage!, $0) < (resolved[$1].stage!, $1) }
        for i in order where resolved[i].count > 1 && !resolved[i].parallel {
            let stage = resolved[i].stage!
            guard let other = resolved.indices.first(where: { $0 != i && resolved[$0].stage == stage }) else { continue }
            let scope = ScenarioSchema.servicePrefix + spec.name + ".calls." + spec.calls[i].to + "."
            let set = spec.calls[i].entries.last { $0.path == scope + "stage" }
            throw ScenarioError(
                set?.location ?? spec.calls[i].declaredAt, field: scope + "parallel",
                "is false with count \(resolved[i].count), but stage \(stage) also holds the call to \(spec.calls[other].to): a stage's calls go out together (set parallel: true, or give the calls their own stages)"
            )
        }
        return order.map { resolved[$0] }
    }

    /// The services and calls the entries declare (`services.NAME`, `services.NAME.calls.TO`), in order.
    static func declared(_ entries: [Entry]) -> [ServiceSpec] {
        var specs: [ServiceSpec] = []
        for e in entries {
            switch ServicePath(e.path) {
            case .service(let name)?:
                specs.append(ServiceSpec(name: name, declaredAt: e.location))
            case .call(let name, let to)?:
                guard let k = specs.firstIndex(where: { $0.name == name }) else { continue }
                specs[k].calls.append(CallSpec(to: to, declaredAt: e.location))
            default:
                continue
            }
        }
        return specs
    }

    /// Gives each `services.NAME.server.KEY` and `services.NAME.calls.TO.KEY` entry to its
    /// service or call; one naming neither is refused.
    static func assign(_ entries: [Entry], to specs: inout [ServiceSpec]) throws(ScenarioError) {
        for e in entries {
            let path = ServicePath(e.path)
            guard let path, ScenarioSchema.field(at: e.path) != nil else { continue }
            guard let k = specs.firstIndex(where: { $0.name == path.service }) else {
                let known = specs.isEmpty ? "the scenario declares no services" : "services: \(specs.map(\.name).joined(separator: ", "))"
                throw ScenarioError(e.location, field: e.path, "names no service ('\(path.service)'; \(known))")
            }
            switch path {
            case .callKey(_, let to, _):
                guard let c = specs[k].calls.firstIndex(where: { $0.to == to }) else {
                    let known = specs[k].calls.isEmpty ? "it makes no calls" : "it calls \(specs[k].calls.map(\.to).joined(separator: ", "))"
                    throw ScenarioError(e.location, field: e.path, "names no call of '\(specs[k].name)' ('\(to)'; \(known))")
                }
                specs[k].calls[c].entries.append(e)
            default:
                specs[k].entries.append(e)
            }
        }
    }
}
