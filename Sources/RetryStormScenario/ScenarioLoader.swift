import Foundation
import RetryPolicy
import RetryStormEngine
import RetryStormVocabulary

/// Reads, checks and resolves scenario files.
package enum ScenarioLoader {
    /// Loads `path` and applies `overrides` (`path=value` strings from `--set`, applied in order,
    /// after the file and after each variant's keys), then `seed` and `focus` (`--seed`, `--focus`).
    package static func load(
        path: String, overrides: [String] = [], seed: UInt64? = nil, focus: String? = nil
    ) throws(ScenarioError) -> LoadedScenario {
        let here = SourceLocation(origin: .file(path))
        guard !path.isEmpty else { throw ScenarioError(here, "no scenario file given (the path is empty)") }
        let decoded: String?
        do {
            decoded = try InputFile.text(path, cap: InputFile.maxScenarioBytes)
        } catch {
            switch error {
            case .notRegular(let kind): throw ScenarioError(here, "is \(kind), not a scenario file: give the path of a YAML file")
            case .tooLarge:
                throw ScenarioError(
                    here, "holds more than \(Format.grouped(Int64(InputFile.maxScenarioBytes))) bytes; a scenario file is at most that")
            default: throw ScenarioError(here, error.message)
            }
        }
        guard let text = decoded else { throw ScenarioError(here, "is not UTF-8 text") }
        return try parse(text: text, path: path, overrides: overrides, seed: seed, focus: focus)
    }

    /// Resolves scenario `text` as if read from `path`.
    /// - Parameter inputs: where the files the scenario names are read (by default from the file
    ///   system, as their paths resolve), and the cache that shares them between the points of
    ///   the command.
    package static func parse(
        text: String, path: String, overrides: [String] = [], seed: UInt64? = nil, focus: String? = nil,
        inputs: InputFiles = InputFiles()
    ) throws(ScenarioError) -> LoadedScenario {
        let file = try ScenarioEntries(text: text, file: path)
        try PolicyImportKeys.checkConflicts(file.entries, variants: file.variants.map { ($0.name, $0.entries) }, inputs: inputs)
        var extra = try overrides.map { (o: String) throws(ScenarioError) -> Entry in try override(o) }
        if let seed {
            extra.append(Entry(path: "seed", text: String(seed), location: SourceLocation(origin: .option("--seed"))))
        }
        if let focus {
            extra.append(Entry(path: "focus", text: focus, location: SourceLocation(origin: .option("--focus \(focus)"))))
        }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let base = try resolve(file.entries + extra, defaultName: stem, inputs: inputs)
        var variants: [(name: String, scenario: Scenario)] = []
        for v in file.variants {
            if let set = v.entries.first(where: { $0.path == "focus" }) {
                throw ScenarioError(set.location, field: "focus", Self.focusPerStudy)
            }
            let s = try resolve(file.entries + v.entries + extra, defaultName: stem, inputs: inputs)
            variants.append((v.name, s.scenario))
        }
        let resultsText = try CopyNaming.text(
            text, entries: file, file: path,
            copies: try copies(of: file.entries + file.variants.flatMap(\.entries), inputs: inputs))
        return LoadedScenario(
            path: path, text: text, resultsText: resultsText, inputs: inputs, base: base.scenario, variants: variants, description: base.description,
            expectations: file.studyKeys["expect"] ?? [], grid: file.studyKeys["grid"] ?? [],
            objective: file.studyKeys["objective"]?.first, constraints: file.studyKeys["constraints"] ?? [],
            fileEntries: file.entries, variantEntries: file.variants.map(\.entries), overrideEntries: extra, stem: stem)
    }

    /// Every entry of the scenario file that names an input file (a key of kind `.file` that is
    /// not `none`), with the name of the copy results keep. Each file is read and checked here
    /// even when an option replaces the key: the results' scenario.yaml names it, and `report`
    /// and `chart` load that file as written.
    static func copies(of entries: [Entry], inputs: InputFiles) throws(ScenarioError) -> [(entry: Entry, copy: String)] {
        var out: [(entry: Entry, copy: String)] = []
        for e in entries {
            guard let field = ScenarioSchema.field(at: e.path), case .file(let column) = field.kind,
                case .text(let value)? = try? field.parse(e.text), value != "none"
            else { continue }
            let sha256 =
                column == nil
                ? try inputs.read(key: e.path, value: value, setAt: e.location).1.sha256
                : try inputs.points(key: e.path, value: value, setAt: e.location).sha256
            out.append((e, InputRecord.copyName(key: e.path, sha256: sha256)))
        }
        return out
    }

    /// Why `focus` is refused in a variant, `--vary` and `--grid`.
    package static let focusPerStudy =
        "is one per study, so that every point is judged at the same service: set it at the top level or with --focus"

    /// Parses one `--set path=value`.
    static func override(_ option: String) throws(ScenarioError) -> Entry {
        let here = SourceLocation(origin: .option("--set \(option)"))
        guard let eq = option.firstIndex(of: "=") else {
            throw ScenarioError(here, "expected path=value, e.g. --set clients.count=50000")
        }
        let path = String(option[..<eq]).trimmingWhitespace()
        let value = String(option[option.index(after: eq)...])
        guard ScenarioSchema.field(at: path) != nil else {
            if path == "variants" || path == "services" { throw ScenarioError(here, field: path, "cannot be set from the command line") }
            throw ScenarioError(here, field: path, ScenarioSchema.unknownKeyMessage(path))
        }
        return Entry(path: path, text: value, location: here)
    }

    /// Defaults, then `policy.preset`, then every other entry in order; then the cross-field checks.
    static func resolve(_ entries: [Entry], defaultName: String, inputs: InputFiles) throws(ScenarioError) -> (
        scenario: Scenario, description: String
    ) {
        let services = try ServiceSpec.specs(entries)
        var draft = ScenarioDraft()
        try applyDefaults(ScenarioSchema.fields.filter { $0.path != "policy.preset" }, to: &draft)
        draft.policy = PolicyDraft()
        let own = try PolicyImportKeys.expand(entries.filter { !ScenarioSchema.isScoped($0.path) }, scope: "", inputs: inputs)
        var locations: [String: SourceLocation] = [:]
        try apply(own, to: &draft, locations: &locations)
        if draft.name.isEmpty { draft.name = defaultName }
        var scenario = try draft.build(locations: locations, inputs: inputs)
        scenario.services = try ServiceSpec.build(services, base: draft, locations: locations, inputs: inputs)
        // The clients call the first service: every output about "the server" describes it.
        if let first = scenario.services.first { scenario.server = first.server }
        scenario.focus = try focus(draft.focus, of: scenario.services, at: locations["focus"])
        scenario.populations = try PopulationSpec.resolve(entries, base: draft, locations: locations, scenario: scenario, inputs: inputs)
        if !scenario.populations.isEmpty { scenario.clients.count = scenario.populations.reduce(0) { $0 + $1.clients.count } }
        return (scenario, draft.description)
    }

    /// `name` (the `focus` key, set at `location`) checked against the services: nil when empty.
    static func focus(_ name: String, of services: [Scenario.Service], at location: SourceLocation?) throws(ScenarioError) -> String? {
        guard !name.isEmpty else { return nil }
        let here = location ?? SourceLocation(origin: .defaultValue)
        guard !services.isEmpty else {
            throw ScenarioError(here, field: "focus", "names a service of a call graph, and this scenario has no services:")
        }
        let names = services.map(\.name)
        guard names.contains(name) else {
            let hint = Suggest.nearest(name, in: names).map { " Did you mean '\($0)'?" } ?? ""
            throw ScenarioError(here, field: "focus", "names no service ('\(name)'; services: \(names.joined(separator: ", "))).\(hint)")
        }
        return name
    }

    /// Sets each of `fields` on `draft` to its built-in default.
    static func applyDefaults(_ fields: [Field], to draft: inout ScenarioDraft) throws(ScenarioError) {
        for f in fields {
            // Defaults are part of the program: a failure here is a bug, reported like any other.
            let v: FieldValue
            do { v = try f.parse(f.defaultText) } catch {
                throw ScenarioError(SourceLocation(origin: .defaultValue), field: f.path, "bad built-in default: \(error.message)")
            }
            f.apply(&draft, v)
        }
    }

    /// What `body` returns; its error, when about one of the keys `owns` (keys as a population
    /// or a service sets them, e.g. `server.capacity`), names the key under `prefix` (its full path).
    static func scoped<T>(_ prefix: String, owns: Set<String>, _ body: () throws(ScenarioError) -> T) throws(ScenarioError) -> T {
        do { return try body() } catch {
            var e = error
            if let f = e.field, owns.contains(f) { e.field = prefix + f }
            throw e
        }
    }

    /// Applies `entries` to `draft`: `policy.preset` first, then the others in order, each where it was written.
    static func apply(
        _ entries: [Entry], to draft: inout ScenarioDraft, locations: inout [String: SourceLocation],
        path: (Entry) -> String = \.path
    ) throws(ScenarioError) {
        let ordered = entries.filter { path($0) == "policy.preset" } + entries.filter { path($0) != "policy.preset" }
        for e in ordered {
            guard let field = ScenarioSchema.byPath[path(e)] else { continue }
            do {
                field.apply(&draft, try field.parse(e.text))
            } catch {
                throw ScenarioError(e.location, field: e.path, error.message)
            }
            locations[path(e)] = e.location
        }
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSCocoaErrorDomain && ns.code == NSFileReadNoSuchFileError { return "no such file" }
        return ns.localizedDescription
    }
}
