/// A dotted path under `services.`, split into the service, the call and the key it names. Service
/// names hold no dots (``PopulationName``), so the parts are found by splitting at every dot.
enum ServicePath: Equatable {
    /// `services.NAME`: declares the service (only the file's `services:` list gives it).
    case service(String)
    /// `services.NAME.server.KEY`: `key` keeps its `server.` (`server.capacity`,
    /// `server.release_while_calling`).
    case server(String, key: String)
    /// `services.NAME.calls.TO`: declares the call (only a service's `calls:` list gives it).
    case call(String, to: String)
    /// `services.NAME.calls.TO.KEY`: one of the call's own keys, or a `policy.*` key.
    case callKey(String, to: String, key: String)
    /// Anything else under `services.NAME.` (`rest` is what follows the name).
    case other(String, rest: String)

    /// nil for a path outside `services.`.
    init?(_ path: String) {
        guard path.hasPrefix(ScenarioSchema.servicePrefix) else { return nil }
        let parts = path.dropFirst(ScenarioSchema.servicePrefix.count).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        switch (parts.count, parts.count > 1 ? parts[1] : "") {
        case (1, _): self = .service(name)
        case (3..., "server"): self = .server(name, key: parts[1...].joined(separator: "."))
        case (3, "calls"): self = .call(name, to: parts[2])
        case (4..., "calls"): self = .callKey(name, to: parts[2], key: parts[3...].joined(separator: "."))
        default: self = .other(name, rest: parts[1...].joined(separator: "."))
        }
    }

    /// The service the path is under.
    var service: String {
        switch self {
        case .service(let name), .server(let name, _), .call(let name, _), .callKey(let name, _, _), .other(let name, _): name
        }
    }
}
