/// `populations:` — groups of clients with their own share of the fleet and their own `clients.*`
/// and `policy.*` keys. In the flat entries a population's keys are `populations.NAME.KEY`, the
/// form `--set`, `--vary` and `--grid` use; the list in the file also gives the entry
/// `populations.NAME` (text: its position), which declares it.
extension ScenarioSchema {
    static let populationPrefix = "populations."

    /// The keys a population sets besides its `clients.*` and `policy.*` overrides.
    static let populationOwn: [Field] = [
        Field(
            "share", .fraction, "",
            "The population's share of the clients (of those that populations with a `count` leave); the shares add up to 1. Setting it again (`--set`, `--vary`, a variant) scales the other shares to keep the total (an equal split when they are all 0)."
        ) { _, _ in },
        Field(
            "count", .integer(min: 0, max: maxCount), "",
            "The population's number of clients, instead of a share. With counts only, clients.count is their sum."
        ) { _, _ in }
    ]

    /// `clients.*` keys that stay the fleet's: the count is the populations' sum, and hosts,
    /// offline windows, restarts and credentials are fleet-wide happenings.
    static let fleetOnlyClientKeys: Set<String> = ["clients.count", "clients.hosts"]
    static let fleetOnlyClientPrefixes = ["clients.offline.", "clients.restart.", "clients.credentials."]

    /// Whether a population may set `path` (a `clients.*` or `policy.*` key).
    static func isPopulationOverride(_ path: String) -> Bool {
        guard byPath[path] != nil else { return false }
        if path.hasPrefix("policy.") { return true }
        guard path.hasPrefix("clients.") else { return false }
        return !fleetOnlyClientKeys.contains(path) && !fleetOnlyClientPrefixes.contains { path.hasPrefix($0) }
    }

    /// Splits `populations.NAME.KEY` into the name and the key (nil for any other path).
    static func populationPath(_ path: String) -> (name: String, key: String)? {
        guard path.hasPrefix(populationPrefix) else { return nil }
        let rest = path.dropFirst(populationPrefix.count)
        guard let dot = rest.firstIndex(of: ".") else { return nil }
        return (String(rest[..<dot]), String(rest[rest.index(after: dot)...]))
    }

    /// The field at `path`: a schema key, or a population's key (`populations.NAME.share`,
    /// `populations.NAME.policy.preset`, …) or a service's (``serviceField(at:)``) under its full
    /// path. nil when there is none.
    package static func field(at path: String) -> Field? {
        if let f = byPath[path] { return f }
        if path.hasPrefix(servicePrefix) { return serviceField(at: path) }
        guard let (name, key) = populationPath(path), PopulationName.isValid(name) else { return nil }
        if let own = populationOwn.first(where: { $0.path == key }) { return own.scoped(to: path) }
        guard isPopulationOverride(key), let f = byPath[key] else { return nil }
        return f.scoped(to: path)
    }

    /// Whether `path` may hold a mapping of population keys (`populations`, `populations.v2`,
    /// `populations.v2.policy`, …).
    static func isPopulationSection(_ path: String) -> Bool {
        if path == "populations" { return true }
        guard path.hasPrefix(populationPrefix) else { return false }
        let rest = path.dropFirst(populationPrefix.count)
        guard let dot = rest.firstIndex(of: ".") else { return PopulationName.isValid(String(rest)) }
        let key = String(rest[rest.index(after: dot)...])
        return fields.contains { $0.path.hasPrefix(key + ".") && isPopulationOverride($0.path) }
    }

    /// The rows of the key table for populations (after the schema's own keys).
    static var populationReference: [(path: String, kind: String, defaultText: String, doc: String)] {
        [
            (
                "populations", "list of {name, share or count, keys}", "",
                "Groups of clients with their own settings, in contiguous client ranges, all sending to the same server: each item has a `name` (letters, digits, `-`, `_`), a `share` or a `count`, and any `clients.*` or `policy.*` key but clients.count, clients.hosts, clients.offline.*, clients.restart.* and clients.credentials.* (the fleet's). A population with its own policy.preset does not inherit the scenario's policy.* keys. Client counts from shares by largest-remainder rounding. Outputs populations.csv and timeseries_populations.csv."
            )
        ]
            + populationOwn.map { ("populations.NAME.\($0.path)", $0.kind.summary, "", $0.doc) }
            + [
                (
                    "populations.NAME.KEY", "as KEY", "the scenario's",
                    "Any `clients.*` or `policy.*` key for this population (see above); `--set`, `--vary` and `--grid` reach it by this path."
                )
            ]
    }
}

/// Population and service names appear in CSV files and inside dotted key paths: letters, digits,
/// `-` and `_`.
enum PopulationName {
    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.unicodeScalars.allSatisfy(\.isASCII)
            && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } && VariantName.formulaProblem(name) == nil
    }
}
