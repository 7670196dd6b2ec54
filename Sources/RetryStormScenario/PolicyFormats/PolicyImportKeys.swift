import RetryStormVocabulary

/// Resolves the `policy.import.*` keys of a scenario, of one of its populations or of a service's
/// call: reads the file they name and puts the keys it decides (``ImportedPolicy``) in their
/// place, first, so that every later key — a variant's, `--set`, `--vary`, `--grid` — changes the
/// imported value.
///
/// Within the scope that imports the file (the scenario's own keys, one population's or one
/// call's), a key the file also decides is refused (``checkConflicts(_:variants:inputs:)``): the base of a
/// scenario that names the file a service ships runs that file as it is, so a release gate checks
/// what ships.
enum PolicyImportKeys {
    static let prefix = "policy.import."

    /// `entries` with the import keys of `scope` (`""`, `populations.NAME.` or
    /// `services.NAME.calls.TO.`) replaced by the keys of the file they name (nothing, when the
    /// file is `none`). The last value of each import key wins, as for any key.
    static func expand(_ entries: [Entry], scope: String, inputs: InputFiles) throws(ScenarioError) -> [Entry] {
        let isImport = { (e: Entry) in e.path.hasPrefix(scope + prefix) }
        guard entries.contains(where: isImport) else { return entries }
        let rest = entries.filter { !isImport($0) }
        guard let imported = try read(entries.filter(isImport), scope: scope, inputs: inputs) else { return rest }
        return imported.entries + rest
    }

    /// The import that `spec` (a scope's import entries, in order) asks for, with the resolved
    /// path of its file; nil when the file is `none`.
    static func read(_ spec: [Entry], scope: String, inputs: InputFiles) throws(ScenarioError) -> (entries: [Entry], policy: ImportedPolicy)? {
        var last: [String: Entry] = [:]
        for e in spec {
            // Checked as any key is (a choice, a path without control characters): these entries
            // are replaced before the others are applied, so their own setters never see them.
            if let field = ScenarioSchema.field(at: e.path) {
                do { _ = try field.parse(e.text) } catch { throw ScenarioError(e.location, field: e.path, error.message) }
            }
            last[String(e.path.dropFirst(scope.count + prefix.count))] = e
        }
        // `none` (or nothing) clears an option a variant or population would otherwise inherit:
        // a variant importing a gRPC file drops the base's Envoy route with `route: none`.
        func value(_ key: String) -> String? {
            guard let text = last[key]?.text.trimmingWhitespace(), !text.isEmpty, text != "none" else { return nil }
            return text
        }
        guard let fileEntry = last["file"], let file = value("file"), file != "none" else { return nil }
        var request = PolicyImportRequest(
            service: value("service"), method: value("method"), route: value("route"), cluster: value("cluster"), profile: value("profile"),
            ignore: (value("ignore") ?? "").split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty })
        if let format = value("format"), format != "auto" {
            guard let f = PolicyFormat(rawValue: format) else {
                throw ScenarioError(
                    last["format"]!.location, field: last["format"]!.path,
                    "must be auto, \(PolicyFormat.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(format)')")
            }
            request.format = f
        }
        let (path, read) = try inputs.read(key: fileEntry.path, value: file, setAt: fileEntry.location)
        let policy = try PolicyImporter.parse(read.bytes, file: path, request: request)
        for n in policy.notes { inputs.note("\(path): \(n)") }
        var entries = policy.entries(file: path, prefix: scope)
        // On a call graph's edge the per-attempt timeout (Envoy's per_try_timeout) is the call's
        // own `timeout`: the clients' key would be dropped there.
        if isCall(scope) {
            for i in entries.indices where entries[i].path == scope + "clients.timeout" { entries[i].path = scope + callTimeout }
        }
        return (entries, policy)
    }

    /// The call's own key an imported `clients.timeout` becomes on an edge.
    static let callTimeout = "timeout"

    /// Whether `scope` is a call graph's edge (`services.NAME.calls.TO.`).
    static func isCall(_ scope: String) -> Bool { scope.hasPrefix(ScenarioSchema.servicePrefix) }

    /// The key of the imported policy (``ImportedPolicy/keys``) that decides `key` of `scope`.
    static func fileKey(_ key: String, scope: String) -> String {
        isCall(scope) && key == callTimeout ? "clients.timeout" : key
    }

    /// Refuses a key that the scenario file sets in the scope that imports a policy file (its
    /// own keys, a population's or a call's) when the file decides it too; and for each variant
    /// that imports a file (or changes an import option), a key of the base or of the variant in
    /// that scope that the variant's file decides: a variant runs the file it imports as it
    /// ships, as the base does, rather than have a base key override the file without a word.
    static func checkConflicts(_ fileEntries: [Entry], variants: [(name: String, entries: [Entry])] = [], inputs: InputFiles) throws(ScenarioError) {
        try check(fileEntries, scopes: scopes(of: fileEntries, importsOnly: false), variant: nil, inputs: inputs)
        for v in variants {
            let scopes = scopes(of: v.entries, importsOnly: true)
            guard !scopes.isEmpty else { continue }
            try check(fileEntries + v.entries, scopes: scopes, variant: v.name, inputs: inputs)
        }
    }

    /// The scopes the entries name (`""`, `populations.NAME.`, `services.NAME.calls.TO.`); with
    /// `importsOnly`, only those where an import key is set.
    static func scopes(of entries: [Entry], importsOnly: Bool) -> [String] {
        var out: [String] = importsOnly ? [] : [""]
        for e in entries {
            var scope = ""
            if let (name, _) = ScenarioSchema.populationPath(e.path) { scope = ScenarioSchema.populationPrefix + name + "." }
            if case .callKey(let name, let to, _)? = ServicePath(e.path) { scope = ScenarioSchema.servicePrefix + name + ".calls." + to + "." }
            if importsOnly && !e.path.hasPrefix(scope + prefix) { continue }
            if !out.contains(scope) { out.append(scope) }
        }
        return out
    }

    static func check(_ entries: [Entry], scopes: [String], variant: String?, inputs: InputFiles) throws(ScenarioError) {
        for scope in scopes {
            let inScope = entries.filter { scope.isEmpty ? !ScenarioSchema.isScoped($0.path) : $0.path.hasPrefix(scope) }
            let spec = inScope.filter { $0.path.hasPrefix(scope + prefix) }
            guard !spec.isEmpty, let (imported, policy) = try read(spec, scope: scope, inputs: inputs) else { continue }
            for e in inScope where !e.path.hasPrefix(scope + prefix) {
                guard let from = imported.first(where: { $0.path == e.path }) else { continue }
                let key = String(e.path.dropFirst(scope.count))
                let source = policy.keys.first { $0.path == fileKey(key, scope: scope) }?.source ?? key
                guard let variant else {
                    throw ScenarioError(
                        e.location, field: e.path,
                        "is also decided by policy.import (\(from.location), \(source)): the scenario runs the file as it ships; change the value in a variant or with --set, or drop the key"
                    )
                }
                throw ScenarioError(
                    e.location, field: e.path,
                    "is also decided by the policy.import of variant '\(variant)' (\(from.location), \(source)): the variant runs the file it imports as it ships, as the base does; change the value with --set, or set the key in the variants that do not import that file"
                )
            }
        }
    }
}
