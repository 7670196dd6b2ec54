import RetryPolicy
import RetryStormVocabulary

/// Collects the keys and notes of one import, and refuses what the simulator does not model
/// unless the user listed it to ignore (``PolicyImportRequest/ignore``).
struct ImportBuilder {
    let request: PolicyImportRequest
    let file: String
    private(set) var keys: [ImportedPolicy.Key] = []
    private(set) var notes: [String] = []
    /// The gRPC status codes the file names (``ImportedPolicy/grpcCodes``).
    var grpcCodes: [String] = []

    init(request: PolicyImportRequest, file: String) {
        self.request = request
        self.file = file
    }

    /// Sets `path` to `value` as the field at `node` says.
    mutating func set(_ path: String, _ value: String, from node: DocumentNode) {
        keys.append(.init(path: path, value: value, source: node.path, line: node.node.mark?.line, column: node.node.mark?.column))
    }

    /// Sets `path` to `value` as the field `source` (a path) at `line`:`column` says, for a format
    /// read without the YAML parser (the AWS shared config file).
    mutating func set(_ path: String, _ value: String, source: String, line: Int, column: Int) {
        keys.append(.init(path: path, value: value, source: source, line: line, column: column))
    }

    /// Sets `path` to `value`, which the format's documentation gives when the file leaves it out
    /// (`source` says which default, e.g. "num_retries default 1").
    mutating func set(_ path: String, _ value: String, default source: String) {
        keys.append(.init(path: path, value: value, source: source))
    }

    /// Sets `path` to the format's default `value` for a field that `node` (the object that
    /// would hold it) leaves out: a message about the key names where that object is.
    mutating func set(_ path: String, _ value: String, default source: String, at node: DocumentNode) {
        keys.append(.init(path: path, value: value, source: source, line: node.node.mark?.line, column: node.node.mark?.column))
    }

    /// A line for stderr: where the simulator's meaning is close to the file's but not the same.
    mutating func note(_ node: DocumentNode?, _ text: String) {
        notes.append(node.map { "\($0.path): \(text)" } ?? text)
    }

    /// A field the simulator does not model: refused (`why` says what is missing), or noted when
    /// the user listed it to ignore and `ignorable`.
    mutating func notModelled(_ node: DocumentNode, _ why: String, ignorable: Bool = true) throws(ScenarioError) {
        guard ignorable, request.ignores(node.path) else {
            // The field's own name: --ignore takes it as it takes the whole path (``PolicyImportRequest/ignores(_:)``).
            let hint = ignorable ? " (to import the rest, list it to ignore: --ignore \(Self.name(node.path)))" : ""
            throw node.failure(why + hint)
        }
        notes.append("\(node.path): ignored as asked: \(why)")
    }

    /// A path without list indices: `methodConfig[0].waitForReady` → `methodConfig.waitForReady`.
    static func bare(_ path: String) -> String {
        var out = ""
        var depth = 0
        for c in path {
            if c == "[" { depth += 1 } else if c == "]" { depth -= 1 } else if depth == 0 { out.append(c) }
        }
        return out
    }

    /// The field's own name, the last part of its path: `routes[0].route.retry_policy.retry_priority` → `retry_priority`.
    static func name(_ path: String) -> String { String(bare(path).split(separator: ".").last ?? "") }

    /// The import, each value checked as its scenario key checks it, so that a value the file
    /// allows but the simulator does not (a multiplier above 100) is refused at its field.
    func finish(_ format: PolicyFormat) throws(ScenarioError) -> ImportedPolicy {
        var refusals: [ScenarioError] = []
        for k in keys {
            guard let field = ScenarioSchema.byPath[k.path] else {
                preconditionFailure("the importer set \(k.path), which is not a scenario key")
            }
            do { _ = try field.parse(k.value) } catch {
                refusals.append(
                    ScenarioError(
                        SourceLocation(origin: .file(file), line: k.line, column: k.column), field: k.source,
                        "maps to \(k.path), which \(error.message)"))
            }
        }
        if var first = refusals.first {
            first.more = Array(refusals.dropFirst())
            throw first
        }
        var imported = ImportedPolicy(format: format, keys: keys, notes: notes)
        imported.grpcCodes = grpcCodes
        return imported
    }

    /// The whole numbers the integer key `path` takes: a count in a file is checked against the
    /// key it maps to, so that the refusal is at the file's field and names the largest accepted.
    static func range(of path: String) -> ClosedRange<Int> {
        guard case .integer(let lo, let hi, _)? = ScenarioSchema.byPath[path]?.kind else {
            preconditionFailure("\(path) is not an integer scenario key")
        }
        return lo...hi
    }

    /// The largest value the number key `path` takes.
    static func most(of path: String) -> Double {
        guard case .number(_, let hi)? = ScenarioSchema.byPath[path]?.kind else { preconditionFailure("\(path) is not a number scenario key") }
        return hi
    }

    /// The refusal of a count above the most that `path` takes (``range(of:)``), as written.
    static func aboveKey(_ path: String, _ written: String) -> String {
        "must be at most \(range(of: path).upperBound), the most \(path) takes (got \(written))"
    }

    /// A number as scenario text: whole numbers without a decimal point, others as Swift prints them.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    /// Statuses as a scenario status list (`500,502-504`, `none`).
    static func statuses<S: Sequence<Int>>(_ s: S) -> String { StatusSet(s).text }
}
