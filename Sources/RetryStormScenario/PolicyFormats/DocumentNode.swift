import RetryStormVocabulary
import Yams

/// One value of a policy file (a gRPC service config, Envoy settings) with where it is: its
/// JSON/YAML path (`methodConfig[0].retryPolicy.maxAttempts`) and its line and column, so that
/// every refusal names the file, the line and the field.
///
/// Both formats are read through the YAML parser (JSON is YAML's flow style), which gives every
/// node a position; the gRPC reader checks separately that its file is JSON. Field names are
/// compared in the format's own spelling: proto3's JSON mapping accepts a field's lowerCamelCase
/// JSON name and its original snake_case name alike, so ``fields(_:spelling:)`` does too.
struct DocumentNode {
    let node: Node
    /// The JSON/YAML path; empty for the root.
    let path: String
    let file: String
    /// Paths left out of this reading, as if the file did not hold them: the fields already
    /// refused, so that a second reading finds the next refusal (``PolicyImporter``).
    var skipped: Set<String> = []

    /// Which spelling a format's field names use in its documentation.
    enum Spelling {
        /// gRPC service configs: `maxAttempts`.
        case camel
        /// Envoy: `num_retries`.
        case snake
    }

    var location: SourceLocation {
        SourceLocation(origin: .file(file), line: node.mark?.line, column: node.mark?.column)
    }

    /// A refusal of this value: `file:line:column: field 'path': message`.
    func failure(_ message: String) -> ScenarioError {
        ScenarioError(location, field: path.isEmpty ? nil : path, message)
    }

    func child(_ key: String, _ node: Node) -> DocumentNode {
        DocumentNode(node: node, path: path.isEmpty ? key : path + "." + key, file: file, skipped: skipped)
    }

    /// Whether the value is a mapping.
    var isMapping: Bool {
        guard case .mapping = node else { return false }
        return true
    }

    /// Whether a reading leaves this value out (``skipped``).
    var isSkipped: Bool { skipped.contains(path) }

    /// What the value is, for messages: "a mapping", "a list", "the number 4", "true", "null", "the text 'x'".
    var shown: String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let s):
            switch scalarTag {
            case .null: return "null"
            case .bool: return s.string
            case .int, .float: return "the number \(s.string)"
            default: return "the text '\(MessageText.escaped(s.string))'"
            }
        }
    }

    /// The YAML core schema's reading of a scalar: a quoted scalar is always text.
    var scalarTag: Tag.Name? {
        guard case .scalar(let s) = node else { return nil }
        guard s.style == .plain else { return .str }
        let resolved = Resolver.default.resolveTag(of: Node.scalar(.init(s.string)))
        return resolved
    }

    /// The fields of a mapping, by their spelling in `known` (a field may be written in the
    /// other spelling too); a field not in `known` is refused, naming the nearest known one.
    /// A field given twice (in either spelling) is refused.
    func fields(_ known: [String], spelling: Spelling) throws(ScenarioError) -> [(name: String, value: DocumentNode)] {
        guard case .mapping(let mapping) = node else { throw failure("expected a mapping of fields (got \(shown))") }
        var out: [(name: String, value: DocumentNode)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let k) = keyNode, !k.string.isEmpty else {
                throw DocumentNode(node: keyNode, path: path, file: file).failure("field names must be plain text")
            }
            let name = Self.canonical(k.string, spelling)
            let here = child(k.string, value)
            if here.isSkipped { continue }
            guard known.contains(name) else {
                let hint = Suggest.nearest(name, in: known).map { "; did you mean '\($0)'?" } ?? ""
                throw DocumentNode(node: keyNode, path: here.path, file: file).failure(
                    "is not a field this importer knows (known here: \(known.joined(separator: ", ")))\(hint)")
            }
            if out.contains(where: { $0.name == name }) {
                throw DocumentNode(node: keyNode, path: here.path, file: file).failure("is given twice")
            }
            out.append((name, here))
        }
        return out
    }

    /// `max_attempts` → `maxAttempts` for a camelCase format, `maxAttempts` → `max_attempts` for a snake_case one.
    static func canonical(_ name: String, _ spelling: Spelling) -> String {
        switch spelling {
        case .camel:
            guard name.contains("_") else { return name }
            var out = ""
            var upper = false
            for c in name {
                if c == "_" {
                    upper = true
                } else {
                    out.append(upper ? Character(c.uppercased()) : c)
                    upper = false
                }
            }
            return out
        case .snake:
            guard name.contains(where: \.isUppercase) else { return name }
            var out = ""
            for c in name {
                if c.isUppercase {
                    out += "_" + c.lowercased()
                } else {
                    out.append(c)
                }
            }
            return out
        }
    }

    /// The items of a list, each with its index in the path.
    func items() throws(ScenarioError) -> [DocumentNode] {
        guard case .sequence(let seq) = node else { throw failure("expected a list (got \(shown))") }
        return seq.enumerated().map { DocumentNode(node: $1, path: "\(path)[\($0)]", file: file, skipped: skipped) }.filter { !$0.isSkipped }
    }

    /// A text value.
    func text() throws(ScenarioError) -> String {
        guard case .scalar(let s) = node, scalarTag == .str else { throw failure("expected text (got \(shown))") }
        return s.string
    }

    /// A whole number in `range`, written as a number or as text holding one (proto3's JSON
    /// mapping accepts both); one outside it, however large (`9223372036854775808`, `1e30`), is
    /// refused as `refusal` says, given the value as the file writes it and whether it is below
    /// the range (else above).
    func integer(in range: ClosedRange<Int>, else refusal: (_ written: String, _ below: Bool) -> String) throws(ScenarioError) -> Int {
        guard case .scalar(let s) = node, [.int, .float, .str].contains(scalarTag) else {
            throw failure("expected a whole number (got \(shown))")
        }
        if let v = Int(s.string) {
            guard range.contains(v) else { throw failure(refusal(s.string, v < range.lowerBound)) }
            return v
        }
        guard let d = Double(s.string), d.isFinite, d == d.rounded() else { throw failure("expected a whole number (got \(shown))") }
        // Beyond 2^53 a Double is not every whole number: only a value well inside Int converts.
        guard d.magnitude < 1e15, range.contains(Int(d)) else { throw failure(refusal(s.string, d < Double(range.lowerBound))) }
        return Int(d)
    }

    /// A finite number, written as a number or as text holding one.
    func number() throws(ScenarioError) -> Double {
        guard case .scalar(let s) = node, [.int, .float, .str].contains(scalarTag), let d = Double(s.string), d.isFinite else {
            throw failure("expected a number (got \(shown))")
        }
        return d
    }

    /// `true` or `false`.
    func boolean() throws(ScenarioError) -> Bool {
        guard case .scalar(let s) = node, scalarTag == .bool else { throw failure("expected true or false (got \(shown))") }
        return ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"].contains(s.string)
    }

    /// A `google.protobuf.Duration` in its JSON form (``ProtoDuration``), in nanoseconds.
    func duration() throws(ScenarioError) -> Int64 {
        guard scalarTag == .str, case .scalar(let s) = node else {
            throw failure("expected a duration as text in seconds with an s, such as \"0.1s\" (got \(shown))")
        }
        let t = s.string
        switch ProtoDuration.nanoseconds(t) {
        case nil:
            throw failure("expected a duration in seconds with an s, such as \"0.1s\" or \"2s\" (got '\(MessageText.escaped(t))')")
        case .nanoseconds(let ns) where ns >= 0: return ns
        case .nanoseconds, .tooLong(negative: true): throw failure("must not be negative (got '\(MessageText.escaped(t))')")
        case .tooLong(negative: false): throw failure(Self.tooLong(t))
        }
    }

    /// The refusal of a duration past ``InputBounds/maxDuration``, in the file's own unit.
    static func tooLong(_ text: String) -> String {
        "must be at most \(InputBounds.maxDurationSeconds)s, the longest duration the simulator takes (got '\(MessageText.escaped(text))')"
    }

    /// Counts the nodes under `node` and refuses more than `limit`: YAML aliases can make a small
    /// file expand enormously, so the walk stops before it is done.
    static func checkSize(_ root: Node, file: String, text: String, limit: Int) throws(ScenarioError) {
        var stack = [root]
        var count = 0
        while let n = stack.popLast() {
            count += 1
            guard count <= limit else {
                throw ScenarioError(SourceLocation(origin: .file(file)), ScenarioEntries.tooManyValues(limit, text: text, what: "a policy file"))
            }
            switch n {
            case .mapping(let m):
                for (k, v) in m {
                    stack.append(k)
                    stack.append(v)
                }
            case .sequence(let s): stack.append(contentsOf: s)
            case .scalar, .alias: break
            }
        }
    }
}
