import RetryStormEngine
import RetryStormVocabulary

/// `services:` — a call graph: services, each with its own `server.*` keys and the calls its
/// requests make down the list. In the flat entries a service's keys are
/// `services.NAME.server.KEY` and a call's `services.NAME.calls.TO.KEY`, the form `--set`,
/// `--vary` and `--grid` use; the list in the file also gives the entries `services.NAME` (text:
/// its position) and `services.NAME.calls.TO` (text: the call's position), which declare them.
extension ScenarioSchema {
    static let servicePrefix = "services."
    /// The most services of a scenario, and of calls of one service.
    static let maxServices = 64
    static let maxCalls = 16

    /// The service key besides the `server.*` keys, written in the service's `server:`.
    static let serviceOwn: [Field] = [
        Field(
            "server.release_while_calling", .boolean, "false",
            "true: a request frees its worker when its own work is done, before its calls end (an event-loop server); false: it holds the worker until its calls end (thread-per-request)."
        ) { _, _ in }
    ]

    /// A call's own keys besides its `policy.*` keys. The timeout reads as `clients.timeout` does,
    /// with its built-in default: an edge without a timeout of its own gets a client's.
    static let callOwn: [Field] = {
        let clientTimeout = byPath["clients.timeout"]!
        return [
            Field("count", .integer(min: 1, max: 1_000), "1", "Calls to the service `to` per request.") { _, _ in },
            Field(
                "parallel", .boolean, "false",
                "true: the count calls go out at once (fan-out) and the request waits for all of them; false: one after another, the next when the one before succeeded."
            ) { _, _ in },
            Field(
                "stage", .integer(min: 1, max: maxCalls, allowsNone: true), "none",
                "Calls with the same stage go out together, and stages run in order: the request waits for every call of a stage and fails if any of them fails after its retries. none: the stage after the call listed before it (the first call's: stage 1). In a stage shared with another call, a count above 1 needs parallel: true."
            ) { _, _ in },
            Field(
                "timeout", clientTimeout.kind, clientTimeout.defaultText,
                "Each attempt's timeout of this call, as clients.timeout (its default is clients.timeout's built-in one, not the scenario's). none: wait forever."
            ) { _, _ in },
            Field(
                "failure_status", .choice(Scenario.Call.failureStatuses.map(String.init)), "503",
                "What the request answers its caller when this call failed after its retries: the caller's policy classifies it like any status (429: overloaded, don't retry)."
            ) { _, _ in },
            Field(
                "cancellation", .choice(["propagate", "none"]), "none",
                "propagate: an attempt of this call that the caller abandons (its timeout, a hedged copy another copy outran, the deadline, the caller's own request cancelled) is cancelled at the called service: still queued, it leaves the queue unserved; in service, it finishes as wasted work and makes no calls; making its calls, it abandons them (and cancels their attempts where their own edges propagate). none: the attempt runs on, unwatched."
            ) { _, _ in },
            Field(
                "deadline", .choice(["propagate", "none"]), "none",
                "propagate: each call carries the time left of its request's deadline (an attempt's timeout is the smaller of its own and the time left; no attempt starts after it), as gRPC propagates deadlines."
            ) { _, _ in }
        ]
    }()

    /// The `server.*` keys a service may set.
    static let serviceServerKeys = Set(fields.map(\.path).filter { $0.hasPrefix("server.") } + serviceOwn.map(\.path))
    /// The `policy.*` keys, which a call may set.
    static let policyKeys = Set(fields.map(\.path).filter { $0.hasPrefix("policy.") })

    /// The field at `services.NAME.server.KEY` or `services.NAME.calls.TO.KEY` (nil for any other
    /// path, and for the paths that declare a service or a call).
    static func serviceField(at path: String) -> Field? {
        switch ServicePath(path) {
        case .server(let name, let key)? where PopulationName.isValid(name):
            if let own = serviceOwn.first(where: { $0.path == key }) { return own.scoped(to: path) }
            return byPath[key]?.scoped(to: path)
        case .callKey(let name, let to, let key)? where PopulationName.isValid(name) && PopulationName.isValid(to):
            if let own = callOwn.first(where: { $0.path == key }) { return own.scoped(to: path) }
            guard key.hasPrefix("policy.") else { return nil }
            return byPath[key]?.scoped(to: path)
        default:
            return nil
        }
    }

    /// Whether `path` may hold a mapping of service keys (`services`, `services.db`,
    /// `services.db.server.outage`, `services.api.calls.db.policy.backoff`, …).
    static func isServiceSection(_ path: String) -> Bool {
        if path == "services" { return true }
        switch ServicePath(path) {
        case .service(let name)?: return PopulationName.isValid(name)
        case .other(let name, let rest)?: return PopulationName.isValid(name) && (rest == "server" || rest == "calls")
        case .server(let name, let key)?: return PopulationName.isValid(name) && sections.contains(key)
        case .call(let name, let to)?: return PopulationName.isValid(name) && PopulationName.isValid(to)
        case .callKey(let name, let to, let key)?:
            return PopulationName.isValid(name) && PopulationName.isValid(to) && key.hasPrefix("policy") && sections.contains(key)
        case nil: return false
        }
    }

    /// Why `path` (`services` or a path under it) is not a key that a variant or an option may
    /// set, with the nearest key of its service or call.
    static func serviceKeyProblem(_ path: String) -> String {
        let declare = "only the scenario file's services: list declares services and their calls; variants and options change their keys"
        guard let p = ServicePath(path) else { return "\(declare) (services.NAME.KEY)" }
        let name = p.service
        guard PopulationName.isValid(name) else {
            return VariantName.formulaProblem(name) ?? "'\(name)' is not a service name: letters, digits, - and _ only"
        }
        let scope = servicePrefix + name + "."
        var candidates = serviceServerKeys.sorted().map { scope + $0 } + [scope + "calls"]
        switch p {
        case .service: return "declares a service: \(declare) (services.\(name).KEY)"
        case .call: return "declares a call: \(declare) (\(path).KEY)"
        case .other(_, "calls"): return "declares calls: \(declare) (\(path).TO.KEY)"
        case .other(_, let rest) where byPath["server." + rest] != nil:
            return "is a server key: put it under the service's server: (services.\(name).server.\(rest))"
        case .callKey(_, let to, _):
            guard PopulationName.isValid(to) else { return "'\(to)' is not a service name: letters, digits, - and _ only" }
            let call = scope + "calls." + to + "."
            candidates = (callOwn.map(\.path) + policyKeys.sorted()).map { call + $0 }
        default: break
        }
        let hint = Suggest.nearest(path, in: candidates).map { " Did you mean '\($0)'?" } ?? ""
        return "is not a key of a service or of its calls.\(hint)"
    }

    /// The message for a key that is not in the schema, given by `--set`, `--vary` or `--grid`.
    package static func unknownKeyMessage(_ path: String) -> String {
        if let problem = sectionOptionProblem(path) { return problem }
        if path == "services" || path.hasPrefix(servicePrefix) { return serviceKeyProblem(path) }
        if let own = serviceOwn.first(where: { $0.path == path }) { return misplacedServiceKey(own.path) }
        let hint = Suggest.nearest(path, in: fields.map(\.path)).map { " Did you mean '\($0)'?" } ?? ""
        return "is not a scenario key.\(hint)"
    }

    /// The message for `server.release_while_calling` outside a service.
    static func misplacedServiceKey(_ key: String) -> String {
        "is a service's key, not the top-level server's: set it in a service's server: (services.NAME.\(key))"
    }

    /// The rows of the key table for services (after the populations').
    static var serviceReference: [(path: String, kind: String, defaultText: String, doc: String)] {
        [
            (
                "services", "list of {name, server, calls}", "",
                "A call graph: the clients call the first service, and each service's requests call services listed after it (a DAG). Each item has a `name` (letters, digits, `-`, `_`, at most 64), a `server:` with any `server.*` key (from the server.* defaults, not the top-level server:, which a scenario with services may not set) and `calls:`. At most \(maxServices) services. With more than one service or any call, every service runs the queue model, but a service that makes no calls, after the first, may run the flaky model (a leaf); none runs contention."
            ),
            (
                "services.NAME.server.KEY", "as server.KEY", "the server.* default",
                "Any `server.*` key for this service; `--set`, `--vary` and `--grid` reach it by this path."
            )
        ]
            + serviceOwn.map { ("services.NAME.\($0.path)", $0.kind.summary, $0.defaultText, $0.doc) }
            + [
                (
                    "services.NAME.calls", "list of {to, keys}", "",
                    "What one request of the service does downstream, in order, once its own work is done: each item's `to` names a service listed later (one call per service, at most \(maxCalls)); `services.NAME.calls.TO.KEY` reaches its keys."
                )
            ]
            + callOwn.map { ("services.NAME.calls.TO.\($0.path)", $0.kind.summary, $0.defaultText, $0.doc) }
            + [
                (
                    "services.NAME.calls.TO.policy.KEY", "as policy.KEY", "the policy.* default",
                    "The calling service's retry policy on this edge: any `policy.*` key or preset, from the policy defaults (not the scenario's policy:)."
                )
            ]
    }
}
