import Foundation
import RetryPolicy
import RetryStormEngine
import RetryStormVocabulary

/// Writes a scenario's policy in a format services ship (``PolicyFormat``), and says what does
/// not map.
///
/// What "does not map" means is decided by reading the written file back: the file is imported
/// (``PolicyImporter``) into the scenario keys it decides, those keys give a policy, and every
/// field of the policy file format (`RetryPolicyFile`, docs/policy-library.md) whose value differs
/// from the exported policy's is one note — so nothing is lost without a word, whatever part of
/// the policy the format lacks (a breaker, decorrelated jitter, a budget kind).
package enum PolicyExporter {
    /// The text of the file and the notes (one line each) on what it does not carry.
    package struct Export: Sendable {
        package var text: String
        package var notes: [String]
    }

    /// `policy` (with the per-attempt timeout `clients.timeout` of its scenario, nil: none) in
    /// `format`; `service` and `method` name the gRPC methodConfig (none: the default config).
    /// `timeoutKey` is the key that set the timeout, for the notes: an edge's is its call's.
    /// `origin` is the import the policy came from, if any: its gRPC status codes go out as the
    /// file listed them while they still give the policy's classifier.
    package static func export(
        _ policy: RetryPolicy, attemptTimeout: Nanoseconds?, timeoutKey: String = "clients.timeout", format: PolicyFormat,
        service: String? = nil, method: String? = nil, origin: ImportedPolicy? = nil
    ) -> Export {
        var notes: [String] = []
        let text: String
        let imported = (origin?.grpcCodes ?? []).compactMap(GRPCStatusCode.code(named:))
        switch format {
        case .grpcServiceConfig:
            let timer = GRPCServiceConfigExport.writesTimer(policy, attemptTimeout: attemptTimeout)
            let codes = GRPCCodeSet.codes(for: policy.classifier, imported: imported, timer: timer)
            text = GRPCServiceConfigExport.text(
                policy, codes: codes, recvTimeout: timer ? attemptTimeout : nil, service: service, method: method)
            if let attemptTimeout, !timer {
                notes.append(
                    "\(timeoutKey) (\(ProtoDuration.scenarioText(attemptTimeout)) per attempt) goes out only as a retryPolicy's perAttemptRecvTimeout, which retries the attempts it ends: this policy does not retry timeouts, so the file has no per-attempt timeout (a gRPC call's timeout is one deadline over every attempt)"
                )
            }
        case .awsConfig:
            text = AWSConfigExport.text(policy)
            if let attemptTimeout {
                notes.append(
                    "\(timeoutKey) (\(ProtoDuration.scenarioText(attemptTimeout)) per attempt) has no setting in the AWS shared config file: the SDKs set their timeouts in code"
                )
            }
        case .envoy:
            text = EnvoyExport.text(policy, attemptTimeout: attemptTimeout, grpcCodes: imported)
            let unmatched = imported.filter { GRPCCodeSet.envoyConditions[$0.name] == nil }.map(\.name)
            if !unmatched.isEmpty {
                notes.append(
                    "\(unmatched.joined(separator: ", ")) \(unmatched.count == 1 ? "has" : "have") no Envoy retry condition (Envoy judges only cancelled, deadline-exceeded, internal, resource-exhausted and unavailable by grpc-status): written as the HTTP statuses \(unmatched.count == 1 ? "it stands" : "they stand") for"
                )
            }
        }
        notes += differences(policy, attemptTimeout: attemptTimeout, text: text, format: format).map {
            $0.hasPrefix("clients.timeout ") ? timeoutKey + $0.dropFirst("clients.timeout".count) : $0
        }
        return Export(text: text, notes: notes)
    }

    /// The fields whose value the written `text` does not give back.
    static func differences(_ policy: RetryPolicy, attemptTimeout: Nanoseconds?, text: String, format: PolicyFormat) -> [String] {
        let request = PolicyImportRequest(format: format)
        let back: LoadedScenario
        let imported: ImportedPolicy
        do {
            imported = try PolicyImporter.parse(Array(text.utf8), file: "export", request: request)
            back = try ScenarioLoader.parse(text: imported.yaml, path: "export.yaml")
        } catch {
            // The exporters keep every value within what the importer reads; should one not be,
            // say so rather than stop: the file is still written, and nothing is claimed about it.
            return ["the \(format.rawValue) file does not read back (\(error.message)): what it loses is not known; check it by hand"]
        }
        var out: [String] = []
        let mine = flatten(policy)
        let theirs = flatten(back.base.policy)
        let name = format.rawValue
        // A part one side lacks (null) and the other has: one line for the part, not one per field.
        func children(_ of: [String: String], _ key: String) -> [String] {
            of.keys.filter { $0.hasPrefix(key + ".") }.sorted().map { "\($0.dropFirst(key.count + 1)) \(of[$0]!)" }
        }
        // Whether a proper prefix of `key` is a leaf of `side` (a part that is null there).
        func insideLeaf(_ key: String, _ side: [String: String]) -> Bool {
            var parts = key.split(separator: ".").dropLast()
            while !parts.isEmpty {
                if side[parts.joined(separator: ".")] != nil { return true }
                parts = parts.dropLast()
            }
            return false
        }
        for key in Set(mine.keys).union(theirs.keys).sorted() where mine[key] != theirs[key] {
            switch (mine[key], theirs[key]) {
            case (let m?, let t?):
                out.append("\(key) is \(m), which \(name) does not carry: the file reads back as \(t)")
            case (let m?, nil) where !insideLeaf(key, theirs):
                let t = children(theirs, key)
                out.append(
                    "\(key) is \(m), which \(name) does not carry: the file reads back as \(t.isEmpty ? "nothing" : t.joined(separator: ", "))")
            case (nil, let t?) where !insideLeaf(key, mine):
                let m = children(mine, key)
                out.append(
                    m.isEmpty
                        ? "\(key): the \(name) file adds \(t), which the policy does not have"
                        : "\(key) is \(m.joined(separator: ", ")), which \(name) does not carry: the file reads back as \(t)")
            default:
                continue  // inside a part one side lacks: said with the part
            }
        }
        // Without per_try_timeout an Envoy attempt has no timeout of its own (the route's bounds it).
        let perTry = imported.value(of: "clients.timeout") == nil ? nil : back.base.clients.timeout
        if format == .envoy && perTry != attemptTimeout {
            out.append("clients.timeout is \(attemptTimeout.map(ProtoDuration.scenarioText) ?? "none"), which the envoy file does not carry")
        }
        return out
    }

    /// Every leaf of the policy's file form (`RetryPolicyFile`) by dotted path: `policy.backoff.jitter` → `"full"`.
    static func flatten(_ policy: RetryPolicy) -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(RetryPolicyFile(policy: policy)),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { preconditionFailure("a RetryPolicy always encodes") }
        var out: [String: String] = [:]
        func walk(_ value: Any, _ path: String) {
            if let dict = value as? [String: Any] {
                for (k, v) in dict { walk(v, path.isEmpty ? k : path + "." + k) }
                if dict.isEmpty { out[path] = "{}" }
                return
            }
            let leaf = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]))
                .map { String(decoding: $0, as: UTF8.self) }
            out[path] = leaf ?? "\(value)"
        }
        walk(object, "")
        out["retrystorm_policy"] = nil
        return out
    }

    /// A JSON string literal.
    static func json(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }
}
