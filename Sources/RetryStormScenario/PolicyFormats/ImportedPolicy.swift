import RetryStormVocabulary

/// What a policy file (a gRPC service config, Envoy settings) says, as scenario keys: each key
/// with its value and the field of the file it comes from, plus the notes the importer owes its
/// user — every place where the simulator's meaning is close to the file's but not the same, and
/// every default it filled in.
///
/// The keys are always the same set for a format (``GRPCServiceConfigImport/keys``,
/// ``EnvoyImport/keys``), in that order, with `clients.timeout` added when Envoy gives a per-try
/// timeout: a scenario that imports the file knows which of its own keys the file decides.
package struct ImportedPolicy: Sendable, Equatable {
    /// One scenario key the file decides.
    package struct Key: Sendable, Equatable {
        /// The scenario key (`policy.max_attempts`).
        package var path: String
        /// Its value as scenario text (`4`, `100ms`, `502,503`).
        package var value: String
        /// The field of the file it comes from (`methodConfig[0].retryPolicy.maxAttempts`), or
        /// what the format's documented default is when the file leaves the field out.
        package var source: String
        /// Where in the file, when the field is there.
        package var line: Int?
        package var column: Int?
    }

    package var format: PolicyFormat
    package var keys: [Key]
    /// One line each, for stderr: approximations, caps and defaults the file did not state.
    package var notes: [String]
    /// The gRPC status codes the file names, as it lists them (`["INTERNAL", "ABORTED"]`): a
    /// service config's retryable or non-fatal codes, Envoy's gRPC retry conditions. An export
    /// writes them back as they are rather than every code of the failures they stand for.
    package var grpcCodes: [String] = []

    /// The value of `path`, if the import sets it.
    package func value(of path: String) -> String? { keys.last { $0.path == path }?.value }

    /// The keys as a scenario's YAML (`policy:` and, for Envoy's per-try timeout, `clients:`),
    /// nested by section in the order the keys first appear, each with the field it comes from.
    package var yaml: String {
        var sections: [String] = []
        var bySection: [String: [Key]] = [:]
        for k in keys {
            let top = String(k.path.prefix { $0 != "." })
            if bySection[top] == nil { sections.append(top) }
            bySection[top, default: []].append(k)
        }
        var out = ""
        for s in sections {
            out += "\(s):\n"
            out += Self.block(bySection[s]!.map { (Array($0.path.split(separator: ".").dropFirst().map(String.init)), $0) }, indent: 1)
        }
        return out
    }

    /// Lines for keys whose remaining path components are `rows`, grouping those that share a
    /// first component under it.
    static func block(_ rows: [([String], Key)], indent: Int) -> String {
        let pad = String(repeating: "  ", count: indent)
        var out = ""
        var done = Set<String>()
        for (parts, key) in rows {
            let head = parts[0]
            if parts.count == 1 {
                out += "\(pad)\(head): \(Self.scalar(key.value))  # \(key.source)\n"
                continue
            }
            guard !done.contains(head) else { continue }
            done.insert(head)
            out += "\(pad)\(head):\n"
            out += block(rows.filter { $0.0.count > 1 && $0.0[0] == head }.map { (Array($0.0.dropFirst()), $0.1) }, indent: indent + 1)
        }
        return out
    }

    /// A value as a YAML scalar: plain when that reads back as the same text, else double-quoted.
    static func scalar(_ v: String) -> String {
        let plain = v.allSatisfy { $0.isLetter || $0.isNumber || ",.-_".contains($0) } && !v.isEmpty
        return plain ? v : "\"" + v.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The keys as scenario entries read from `file` (each at its field's line), under `prefix`
    /// (`populations.NAME.` for a population's import).
    func entries(file: String, prefix: String = "") -> [Entry] {
        keys.map { k in
            Entry(path: prefix + k.path, text: k.value, location: SourceLocation(origin: .file(file), line: k.line, column: k.column))
        }
    }
}
