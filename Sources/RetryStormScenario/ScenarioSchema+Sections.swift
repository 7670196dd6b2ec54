/// Sections given a value: `policy: 5`, `--set clients=5`, `populations.a.policy: 5`,
/// `services.api.calls.db.policy: 5`, `services.db.server: 5`. Each names keys, not a value, so
/// the right advice is "put its keys under it", wherever the section stands (the file's top level,
/// a variant, a population, a service or call, or an option); "is not a key" would send the user
/// looking for a key that exists.
extension ScenarioSchema {
    /// Why the section at `path` cannot take a value in a file, with one of its keys as it is
    /// written inside it (`is a section: put its keys under it (e.g. preset: none)`); nil when
    /// `path` is not a section.
    package static func sectionProblem(_ path: String) -> String? {
        guard let (key, field) = firstField(under: path) else { return nil }
        return "is a section: put its keys under it (e.g. \(key.dropFirst(path.count + 1)): \(shown(field)))"
    }

    /// The same for an option (`--set`, `--vary`, `--grid`), which sets one key by its full path.
    package static func sectionOptionProblem(_ path: String) -> String? {
        guard let (key, field) = firstField(under: path) else { return nil }
        return "is a section: set one of its keys (e.g. \(key)=\(shown(field)))"
    }

    private static func shown(_ field: Field) -> String { field.defaultText.isEmpty ? "…" : field.defaultText }

    /// The first key under the section at `path` by its full path (`services.api.calls.db.policy.preset`),
    /// and its field; nil when `path` is not a section.
    private static func firstField(under path: String) -> (String, Field)? {
        guard let key = firstKey(under: path), let field = byPath[key] else { return nil }
        let depth = sectionDepth(path, scoped: path.split(separator: ".").count)
        let tail = key.split(separator: ".").dropFirst(depth).joined(separator: ".")
        return (path + "." + tail, field)
    }

    /// The schema path of the first key under the section at `path`, or nil: a section of the
    /// scenario (`policy.backoff`), of a population (`populations.v2.policy`), or of a service or
    /// call (`services.db.server`, `services.api.calls.db.policy`).
    private static func firstKey(under path: String) -> String? {
        if sections.contains(path) { return fields.first { $0.path.hasPrefix(path + ".") }?.path }
        if let (name, key) = populationPath(path), PopulationName.isValid(name) {
            return fields.first { $0.path.hasPrefix(key + ".") && isPopulationOverride($0.path) }?.path
        }
        switch ServicePath(path) {
        case .other(let name, "server")? where PopulationName.isValid(name):
            return fields.first { $0.path.hasPrefix("server.") }?.path
        case .server(let name, let key)? where PopulationName.isValid(name) && sections.contains(key):
            return fields.first { $0.path.hasPrefix(key + ".") }?.path
        case .callKey(let name, let to, let key)?
        where PopulationName.isValid(name) && PopulationName.isValid(to) && key.hasPrefix("policy") && sections.contains(key):
            return fields.first { $0.path.hasPrefix(key + ".") }?.path
        default:
            return nil
        }
    }

    /// How many of a schema path's parts the section at `path` stands for: all of an unscoped
    /// path's, and the parts after the population's or service's scope of a scoped one
    /// (`services.api.calls.db.policy` stands for `policy`: 1).
    private static func sectionDepth(_ path: String, scoped parts: Int) -> Int {
        if populationPath(path) != nil { return parts - 2 }
        switch ServicePath(path) {
        case .other?: return parts - 2
        case .server?: return parts - 2
        case .callKey?: return parts - 4
        default: return parts
        }
    }
}
