import RetryStormVocabulary
import Yams

/// Turns a scenario file's YAML into flat entries (nested and dotted keys alike), checking every
/// key against the schema on the way, and collects the `variants` list.
struct ScenarioEntries {
    /// A variant: its name, where it was declared, and its own entries.
    struct Variant: Sendable {
        var name: String
        package var location: SourceLocation
        var entries: [Entry]
    }

    private(set) var entries: [Entry] = []
    private(set) var variants: [Variant] = []
    /// The study keys, each a list of texts with where they were written: `expect`, `grid`,
    /// `constraints` (lists) and `objective` (one value).
    private(set) var studyKeys: [String: [Located<String>]] = [:]
    static let studyKeyNames: Set<String> = ["expect", "grid", "constraints", "objective"]
    private let file: String
    /// The file's text, for ``tooManyValues(_:text:what:)``.
    private let text: String
    /// Nodes visited; aliases can make a small file expand enormously, so this is bounded.
    private var visited = 0
    static let maxNodes = 100_000

    /// Why a document of `text` is refused at `limit` values (`what`: "a scenario"): the aliases
    /// are named only when the text has an anchor and an alias, so a large plain JSON file is not
    /// told that YAML aliases expand too far.
    static func tooManyValues(_ limit: Int, text: String, what: String) -> String {
        let shown = Format.grouped(Int64(limit))
        let aliases = text.utf8.contains(UInt8(ascii: "&")) && text.utf8.contains(UInt8(ascii: "*"))
        return aliases
            ? "has more than \(shown) values once its YAML aliases are expanded; \(what) holds at most that many"
            : "has more than \(shown) values; \(what) holds at most that many"
    }

    /// Parses `text` (the contents of `file`).
    init(text: String, file: String) throws(ScenarioError) {
        self.file = file
        self.text = text
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.translate(error, file: file)
        } catch {
            throw ScenarioError(SourceLocation(origin: .file(file)), "cannot read YAML: \(error)")
        }
        guard let root else {
            throw ScenarioError(SourceLocation(origin: .file(file), line: 1), "is empty: expected a mapping of scenario keys")
        }
        guard case .mapping(let mapping) = root else {
            throw ScenarioError(location(root), "expected a mapping of scenario keys at the top level")
        }
        var seen: [String: SourceLocation] = [:]
        var top: [Entry] = []
        try walk(mapping, prefix: "", into: &top, seen: &seen, allowVariants: true)
        entries = top
    }

    private func location(_ node: Node) -> SourceLocation {
        SourceLocation(origin: .file(file), line: node.mark?.line, column: node.mark?.column)
    }

    private mutating func walk(
        _ mapping: Node.Mapping, prefix: String, into out: inout [Entry],
        seen: inout [String: SourceLocation], allowVariants: Bool
    ) throws(ScenarioError) {
        for (keyNode, value) in mapping {
            visited += 1
            guard visited <= Self.maxNodes else {
                throw ScenarioError(location(keyNode), Self.tooManyValues(Self.maxNodes, text: text, what: "a scenario"))
            }
            guard case .scalar(let k) = keyNode, !k.string.isEmpty else {
                throw ScenarioError(location(keyNode), "keys must be plain names")
            }
            let path = prefix.isEmpty ? k.string : prefix + "." + k.string
            let here = location(keyNode)
            try Self.checkTag(keyNode, allowing: [.str], at: here, field: path)
            try Self.checkTag(value, allowing: Self.tags(for: ScenarioSchema.field(at: path)?.kind), at: location(value), field: path)
            if allowVariants && prefix.isEmpty && path == "populations" {
                try readPopulations(value, at: here, into: &out)
                continue
            }
            if allowVariants && prefix.isEmpty && path == "services" {
                try readServices(value, at: here, into: &out)
                continue
            }
            if allowVariants && prefix.isEmpty && path == "variants" {
                try readVariants(value, at: here)
                continue
            }
            if allowVariants && prefix.isEmpty && Self.studyKeyNames.contains(path) {
                try readStudyKey(path, value, at: here)
                continue
            }
            if let earlier = seen[path] {
                throw ScenarioError(here, field: path, "is set twice (first at \(earlier))")
            }
            switch value {
            case .mapping(let inner):
                if let field = ScenarioSchema.field(at: path) {
                    throw ScenarioError(here, field: path, "expects a value (\(field.kind.summary)), not a mapping")
                }
                guard
                    ScenarioSchema.sections.contains(path) || Self.isSectionPrefix(path) || ScenarioSchema.isPopulationSection(path)
                        || ScenarioSchema.isServiceSection(path)
                else {
                    throw unknown(path, at: here)
                }
                try walk(inner, prefix: path, into: &out, seen: &seen, allowVariants: false)
            case .scalar(let scalar):
                guard let field = ScenarioSchema.field(at: path) else {
                    if let problem = ScenarioSchema.sectionProblem(path) { throw ScenarioError(here, field: path, problem) }
                    throw unknown(path, at: here)
                }
                if Self.isNull(scalar) {
                    throw ScenarioError(here, field: path, "has no value: expected \(field.kind.summary)")
                }
                seen[path] = here
                out.append(Entry(path: path, text: scalar.string, location: location(value)))
            case .sequence:
                if let field = ScenarioSchema.byPath[path], case .points = field.kind {
                    seen[path] = here
                    out.append(Entry(path: path, text: try flowText(value, field: path), location: location(value)))
                    continue
                }
                if ScenarioSchema.byPath[path] == nil && !ScenarioSchema.sections.contains(path) { throw unknown(path, at: here) }
                throw ScenarioError(here, field: path, "expects a single value, not a list")
            case .alias:
                throw ScenarioError(here, field: path, "uses an unresolved YAML alias")
            }
        }
    }

    /// A list value written back as YAML flow text (`[["0s", "1"], ["20s", "2"]]`), the form
    /// `--set` gives it in, so both are read by the field's own parser.
    private mutating func flowText(_ node: Node, field: String) throws(ScenarioError) -> String {
        visited += 1
        guard visited <= Self.maxNodes else {
            throw ScenarioError(location(node), Self.tooManyValues(Self.maxNodes, text: text, what: "a scenario"))
        }
        switch node {
        case .scalar(let scalar):
            let escaped = scalar.string.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"" + escaped + "\""
        case .sequence(let items):
            var parts: [String] = []
            for item in items { parts.append(try flowText(item, field: field)) }
            return "[" + parts.joined(separator: ", ") + "]"
        case .mapping, .alias:
            throw ScenarioError(location(node), field: field, "expects [time, multiplier] pairs, e.g. [[0s, 1], [20s, 2]]")
        }
    }

    /// One item of a list of named mappings (variants, populations, services, calls): its name
    /// (the value of `key`, a non-empty string), checked against `isValid` (`rule` says what is
    /// allowed) and against the names before it (`again` explains a repeat), where the name was
    /// written, and its other keys.
    private mutating func namedItem(
        _ item: Node, field: String, key: String = "name", what: String, shape: String, isValid: (String) -> Bool, rule: String,
        again: String = "", names: inout [String: SourceLocation]
    ) throws(ScenarioError) -> (name: String, at: SourceLocation, rest: [(Node, Node)]) {
        visited += 1
        let here = location(item)
        try Self.checkTag(item, allowing: [], at: here, field: field)
        guard case .mapping(let m) = item else {
            throw ScenarioError(here, field: field, "each \(what.dropFirst(2)) is \(shape)")
        }
        var name: (text: String, at: SourceLocation)?
        var rest: [(Node, Node)] = []
        for (k, v) in m {
            guard case .scalar(let ks) = k, ks.string == key else {
                rest.append((k, v))
                continue
            }
            try Self.checkTag(v, allowing: [.str], at: location(v), field: field + "." + key)
            guard case .scalar(let vs) = v, !Self.isNull(vs) else {
                throw ScenarioError(location(v), field: field + "." + key, "has no value: expected a name")
            }
            guard !vs.string.isEmpty else { throw ScenarioError(location(v), field: field + "." + key, "must be a non-empty name") }
            name = (vs.string, location(v))
        }
        guard let name else { throw ScenarioError(here, field: field, "\(what) needs a `\(key)`") }
        guard isValid(name.text) else {
            throw ScenarioError(here, field: field + "." + key, VariantName.formulaProblem(name.text) ?? "'\(name.text)' may hold only \(rule)")
        }
        if let earlier = names[name.text] {
            throw ScenarioError(here, field: field + "." + key, "'\(name.text)' is used twice (first at \(earlier))\(again)")
        }
        names[name.text] = here
        return (name.text, name.at, rest)
    }

    private mutating func readVariants(_ node: Node, at here: SourceLocation) throws(ScenarioError) {
        guard case .sequence(let items) = node else {
            throw ScenarioError(here, field: "variants", "expects a list of variants, each with a name and the keys it changes")
        }
        var names: [String: SourceLocation] = [:]
        for item in items {
            let (name, _, rest) = try namedItem(
                item, field: "variants", what: "a variant", shape: "a mapping with a `name` and the keys it changes",
                isValid: VariantName.isValid, rule: "letters, digits and \(VariantName.punctuation)", names: &names)
            var own: [Entry] = []
            var seen: [String: SourceLocation] = [:]
            try walk(Node.Mapping(rest), prefix: "", into: &own, seen: &seen, allowVariants: false)
            variants.append(Variant(name: name, location: location(item), entries: own))
        }
        if variants.isEmpty {
            throw ScenarioError(here, field: "variants", "is empty: list at least one variant or remove the key")
        }
    }

    /// `populations:` — a list of `{name, share or count, keys}`. Each population gives the entry
    /// `populations.NAME` (declaring it, in order) and its keys as `populations.NAME.KEY`.
    private mutating func readPopulations(_ node: Node, at here: SourceLocation, into out: inout [Entry]) throws(ScenarioError) {
        guard case .sequence(let items) = node, !items.isEmpty else {
            throw ScenarioError(
                here, field: "populations",
                "expects a list of populations, each with a name and a share or a count, e.g. [{name: v1, share: 90%}, {name: v2, share: 10%}]")
        }
        guard items.count <= 256 else { throw ScenarioError(here, field: "populations", "has \(items.count) populations; at most 256") }
        var names: [String: SourceLocation] = [:]
        for (index, item) in items.enumerated() {
            let (name, _, rest) = try namedItem(
                item, field: "populations", what: "a population", shape: "a mapping with a `name` and a `share` or a `count`",
                isValid: PopulationName.isValid, rule: "letters, digits, - and _ (at most 64)", names: &names)
            var own: [Entry] = []
            var seen: [String: SourceLocation] = [:]
            let prefix = "populations.\(name)"
            try walk(Node.Mapping(rest), prefix: prefix, into: &own, seen: &seen, allowVariants: false)
            let sized = own.filter { $0.path == prefix + ".share" || $0.path == prefix + ".count" }
            guard sized.count == 1 else {
                throw ScenarioError(
                    location(item), field: prefix,
                    sized.isEmpty
                        ? "needs a share (of clients.count) or a count of clients"
                        : "has both a share and a count: give one")
            }
            out.append(Entry(path: prefix, text: String(index), location: location(item)))
            out.append(contentsOf: own)
        }
    }

    /// `services:` — a list of `{name, server, calls}`. Each service gives the entry
    /// `services.NAME` (declaring it, in order), its keys as `services.NAME.server.KEY`, and each
    /// of its calls the entry `services.NAME.calls.TO` (declaring it, in order) and its keys as
    /// `services.NAME.calls.TO.KEY`. What the names refer to is checked once the scenario is
    /// resolved (``ServiceSpec``), when every service is known.
    private mutating func readServices(_ node: Node, at here: SourceLocation, into out: inout [Entry]) throws(ScenarioError) {
        guard case .sequence(let items) = node, !items.isEmpty else {
            throw ScenarioError(
                here, field: "services",
                "expects a list of services, each with a name, a server and its calls, e.g. [{name: api, server: {capacity: 500/s}, calls: [{to: db}]}, {name: db}]"
            )
        }
        guard items.count <= ScenarioSchema.maxServices else {
            throw ScenarioError(here, field: "services", "has \(items.count) services; at most \(ScenarioSchema.maxServices)")
        }
        var names: [String: SourceLocation] = [:]
        for (index, item) in items.enumerated() {
            let (name, _, rest) = try namedItem(
                item, field: "services", what: "a service", shape: "a mapping with a `name`, a `server` and `calls`",
                isValid: PopulationName.isValid, rule: "letters, digits, - and _ (at most 64)", names: &names)
            let prefix = ScenarioSchema.servicePrefix + name
            out.append(Entry(path: prefix, text: String(index), location: location(item)))
            var own: [Entry] = []
            var seen: [String: SourceLocation] = [:]
            try walk(Node.Mapping(rest.filter { !Self.isKey($0.0, "calls") }), prefix: prefix, into: &own, seen: &seen, allowVariants: false)
            out.append(contentsOf: own)
            if let (key, calls) = rest.first(where: { Self.isKey($0.0, "calls") }) {
                try readCalls(calls, service: name, at: location(key), into: &out)
            }
        }
    }

    /// A service's `calls:` — a list of `{to, keys}`, at most ``ScenarioSchema/maxCalls``, one per
    /// called service.
    private mutating func readCalls(_ node: Node, service: String, at here: SourceLocation, into out: inout [Entry]) throws(ScenarioError) {
        let field = ScenarioSchema.servicePrefix + service + ".calls"
        try Self.checkTag(node, allowing: [], at: location(node), field: field)
        guard case .sequence(let items) = node else {
            throw ScenarioError(here, field: field, "expects a list of calls, each with a `to` (a service listed later), e.g. [{to: db, count: 2}]")
        }
        guard items.count <= ScenarioSchema.maxCalls else {
            throw ScenarioError(here, field: field, "has \(items.count) calls; at most \(ScenarioSchema.maxCalls) (use count for repeated calls)")
        }
        var names: [String: SourceLocation] = [:]
        for (index, item) in items.enumerated() {
            let (to, toAt, rest) = try namedItem(
                item, field: field, key: "to", what: "a call", shape: "a mapping with a `to` (the service called) and the call's keys",
                isValid: PopulationName.isValid, rule: "letters, digits, - and _ (at most 64), as a service's name",
                again: ": one call per called service, with a count for more", names: &names)
            let prefix = field + "." + to
            out.append(Entry(path: prefix, text: String(index), location: toAt))
            var seen: [String: SourceLocation] = [:]
            try walk(Node.Mapping(rest), prefix: prefix, into: &out, seen: &seen, allowVariants: false)
        }
    }

    /// Whether `node` is the plain key `name`.
    private static func isKey(_ node: Node, _ name: String) -> Bool {
        if case .scalar(let s) = node { return s.string == name }
        return false
    }

    /// `expect`, `grid` and `constraints` take a list of texts (or one text); `objective` one text.
    private mutating func readStudyKey(_ key: String, _ node: Node, at here: SourceLocation) throws(ScenarioError) {
        guard studyKeys[key] == nil else { throw ScenarioError(here, field: key, "is set twice") }
        var items: [Located<String>] = []
        switch node {
        case .scalar(let s) where key == "objective" || !s.string.isEmpty:
            items.append(Located(s.string, location(node)))
        case .sequence(let seq) where key != "objective":
            for item in seq {
                visited += 1
                try Self.checkTag(item, allowing: [.str], at: location(item), field: key)
                guard case .scalar(let s) = item, !s.string.isEmpty else {
                    throw ScenarioError(location(item), field: key, "each item is one text, e.g. \(Self.studyExample(key))")
                }
                items.append(Located(s.string, location(item)))
            }
        default:
            throw ScenarioError(
                here, field: key,
                key == "objective"
                    ? "expects one metric name, e.g. objective: tts_p99_s"
                    : "expects a list of texts, e.g. \(key): [\"\(Self.studyExample(key))\"]")
        }
        studyKeys[key] = items
    }

    /// Explicit YAML tags a field's value may carry: every value is read from its text, so `!!str`
    /// always; `!!int` where whole numbers go, `!!float` where any number goes, `!!bool` for
    /// booleans. Nothing else: `!!binary`, `!!timestamp`, application tags (`!thing`) and the like
    /// would be silently reinterpreted, and `!!float` on a count would pass for a whole number.
    static func tags(for kind: FieldKind?) -> Set<Tag.Name> {
        switch kind {
        case .integer?: [.str, .int]
        case .number?: [.str, .int, .float]
        case .boolean?: [.str, .bool]
        case nil: []
        default: [.str]
        }
    }

    /// Refuses `node` when it carries an explicit tag outside `allowed` (a tag equal to what the
    /// YAML core schema would resolve anyway is not explicit and passes).
    static func checkTag(_ node: Node, allowing allowed: Set<Tag.Name>, at here: SourceLocation, field: String) throws(ScenarioError) {
        let implicit: Tag.Name
        switch node {
        case .scalar(let scalar):
            implicit = scalar.style == .plain ? Resolver.default.resolveTag(of: Node.scalar(.init(scalar.string))) : .str
        case .mapping: implicit = .map
        case .sequence: implicit = .seq
        case .alias: return
        }
        // Yams keeps a tag's name internal; its description is the name.
        let tag = node.tag.description
        guard tag != implicit.rawValue, !allowed.contains(where: { $0.rawValue == tag }) else { return }
        let shown = tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst(18) : Substring(tag)
        throw ScenarioError(here, field: field, "has the YAML tag \(shown), which is not supported here: write the value without a tag")
    }

    static func studyExample(_ key: String) -> String {
        switch key {
        case "grid": "policy.backoff.base=100ms...2s:log:6"
        case "objective": "tts_p99_s"
        default: "peak_load_ratio<=1.5"
        }
    }

    private func unknown(_ path: String, at here: SourceLocation) -> ScenarioError {
        if path == "services" || path.hasPrefix(ScenarioSchema.servicePrefix) {
            return ScenarioError(here, field: path, ScenarioSchema.serviceKeyProblem(path))
        }
        if ScenarioSchema.serviceOwn.contains(where: { $0.path == path }) {
            return ScenarioError(here, field: path, ScenarioSchema.misplacedServiceKey(path))
        }
        if let (name, key) = ScenarioSchema.populationPath(path) {
            if !PopulationName.isValid(name) {
                return ScenarioError(
                    here, field: path, VariantName.formulaProblem(name) ?? "'\(name)' is not a population name: letters, digits, - and _ only")
            }
            if ScenarioSchema.byPath[key] != nil {
                return ScenarioError(
                    here, field: path,
                    "\(key) is the fleet's, not a population's: set it for all clients (a population may set share, count, and clients.* and policy.* keys but clients.count, clients.hosts, clients.offline.*, clients.restart.* and clients.credentials.*)"
                )
            }
        }
        let candidates = ScenarioSchema.fields.map(\.path) + ScenarioSchema.sections.sorted() + ["variants"] + Self.studyKeyNames.sorted()
        let hint = Suggest.nearest(path, in: candidates).map { " Did you mean '\($0)'?" } ?? ""
        return ScenarioError(here, field: path, "is not a scenario key.\(hint)")
    }

    /// `policy` is a prefix of `policy.backoff.base`, so it may hold a mapping.
    static func isSectionPrefix(_ path: String) -> Bool {
        ScenarioSchema.fields.contains { $0.path.hasPrefix(path + ".") }
    }

    /// Whether `scalar` is YAML's null (`~`, `null`, an empty value), as YAML 1.2's core schema
    /// resolves a plain scalar: a name or a value written so is absent, not the text "null".
    static func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    static func translate(_ error: YamlError, file: String) -> ScenarioError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let ctx = context.map { " (\($0.text))" } ?? ""
            return ScenarioError(
                SourceLocation(origin: .file(file), line: mark.line, column: mark.column),
                "invalid YAML: \(problem)\(ctx)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            // The mapping's position: Yams does not say where the second key is.
            return ScenarioError(
                SourceLocation(origin: .file(file), line: context.mark.line, column: context.mark.column), field: duplicates.first,
                "is given twice in one mapping")
        case .reader(let problem, let offset, _, _):
            return ScenarioError(
                SourceLocation(origin: .file(file)), "cannot read the file as text: \(problem)\(offset.map { " at byte \($0)" } ?? "")")
        default:
            return ScenarioError(SourceLocation(origin: .file(file)), "invalid YAML: \(error)")
        }
    }
}
