import Foundation
import RetryStormVocabulary
import Yams

/// Reads a policy file as services ship it — a gRPC service config or Envoy route and cluster
/// settings — into scenario keys (``ImportedPolicy``): every field is mapped to a key, or refused
/// with its path and the reason. Bad input is one ``ScenarioError`` naming the file, the line and
/// the field; nothing here traps.
package enum PolicyImporter {
    /// The most bytes read from a policy file: a service config travels in DNS TXT records and
    /// Envoy's settings for a route and a cluster are a page; 4 MiB is far beyond both.
    package static let maxBytes = 4 << 20
    /// The most values in a file (aliases included), as for scenario files.
    static let maxNodes = 100_000

    /// Reads `path` (at most ``maxBytes``) and imports what `request` asks for.
    package static func read(_ path: String, request: PolicyImportRequest) throws(ScenarioError) -> ImportedPolicy {
        let here = SourceLocation(origin: .file(path))
        let bytes: [UInt8]
        do { bytes = try InputFile.read(path, cap: maxBytes) } catch {
            switch error {
            case .notRegular: throw ScenarioError(here, "\(error.message): give the path of a policy file")
            case .tooLarge: throw ScenarioError(here, "holds more than \(Format.grouped(Int64(maxBytes))) bytes; a policy file is at most that")
            default: throw ScenarioError(here, error.message)
            }
        }
        return try parse(bytes, file: path, request: request)
    }

    /// Imports the policy file `file` whose contents are `bytes`.
    package static func parse(_ bytes: [UInt8], file: String, request: PolicyImportRequest) throws(ScenarioError) -> ImportedPolicy {
        let here = SourceLocation(origin: .file(file))
        guard bytes.count <= maxBytes else {
            throw ScenarioError(here, "holds more than \(Format.grouped(Int64(maxBytes))) bytes; a policy file is at most that")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ScenarioError(here, "is not UTF-8 text") }
        // The AWS shared config file is INI, which the YAML parser cannot read: told apart first.
        if request.format == .awsConfig || (request.format == nil && AWSConfigImport.looksLikeINI(text)) {
            try checkOptions(request, format: .awsConfig, file: file)
            var importer = AWSConfigImport(request: request, file: file)
            return try importer.run(text)
        }
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch let error as YamlError {
            throw ScenarioEntries.translate(error, file: file)
        } catch {
            throw ScenarioError(here, "cannot read it as YAML or JSON: \(error)")
        }
        guard let root else { throw ScenarioError(SourceLocation(origin: .file(file), line: 1), "is empty: expected a policy file") }
        try DocumentNode.checkSize(root, file: file, text: text, limit: maxNodes)
        let document = DocumentNode(node: root, path: "", file: file)
        guard case .mapping(let top) = root else { throw document.failure("expected a mapping at the top level (got \(document.shown))") }
        let format = request.format ?? detect(top)
        try checkOptions(request, format: format, file: file)
        if format == .grpcServiceConfig { try checkJSON(bytes, file: file) }
        return try importEveryRefusal(document, format: format, request: request)
    }

    /// The most refusals one run lists.
    static let maxRefusals = 20

    /// Imports `document`, or throws every refusal in it at once (up to ``maxRefusals``), as a
    /// compiler goes on past an error: each refused field is left out of the next reading
    /// (``DocumentNode/skipped``) until the file imports or a refusal names no field. A refusal
    /// of a field's parent that only follows from the field being left out ("needs
    /// base_interval") is not listed again.
    static func importEveryRefusal(_ document: DocumentNode, format: PolicyFormat, request: PolicyImportRequest) throws(ScenarioError)
        -> ImportedPolicy
    {
        var reading = document
        var refusals: [ScenarioError] = []
        while true {
            do {
                let imported = try importOnce(reading, format: format, request: request)
                if refusals.isEmpty { return imported }
                break
            } catch {
                let found = [error] + error.more
                for e in found where !refusals.contains(where: { isWithin($0.field, e.field) }) { refusals.append(e) }
                let fields = found.compactMap(\.field).filter { !reading.skipped.contains($0) }
                // One past the limit tells that there are more than it lists.
                guard found.count == fields.count, !fields.isEmpty, refusals.count <= maxRefusals else { break }
                reading.skipped.formUnion(fields)
            }
        }
        var first = refusals[0]
        first.more = Array(refusals.dropFirst().prefix(maxRefusals - 1))
        if refusals.count > maxRefusals {
            first.more.append(
                ScenarioError(SourceLocation(origin: .file(document.file)), "stopped after \(maxRefusals) refusals: fix these and import again"))
        }
        throw first
    }

    /// Whether the field at path `inner` is `outer` or inside it (`a.b[0].c` is inside `a.b`).
    static func isWithin(_ inner: String?, _ outer: String?) -> Bool {
        guard let inner, let outer else { return false }
        return inner == outer || inner.hasPrefix(outer + ".") || inner.hasPrefix(outer + "[")
    }

    static func importOnce(_ document: DocumentNode, format: PolicyFormat, request: PolicyImportRequest) throws(ScenarioError) -> ImportedPolicy {
        switch format {
        case .grpcServiceConfig:
            var importer = GRPCServiceConfigImport(request: request, file: document.file)
            return try importer.run(document)
        case .envoy:
            var importer = EnvoyImport(request: request, file: document.file)
            return try importer.run(document)
        case .awsConfig:
            // Read by ``parse(_:file:request:)`` before any YAML: an INI file never gets here.
            throw document.failure("is YAML or JSON, and the AWS shared config file is INI ([default], name = value)")
        }
    }

    /// Refuses an option of another format, which would be silently ignored: the file is not
    /// what the user thinks.
    static func checkOptions(_ request: PolicyImportRequest, format: PolicyFormat, file: String) throws(ScenarioError) {
        let options: [(name: String, value: String?, format: PolicyFormat)] = [
            ("service", request.service, .grpcServiceConfig), ("method", request.method, .grpcServiceConfig), ("route", request.route, .envoy),
            ("cluster", request.cluster, .envoy), ("profile", request.profile, .awsConfig)
        ]
        guard let misplaced = options.first(where: { $0.value != nil && $0.format != format }) else { return }
        let what: String
        switch format {
        case .envoy: what = "Envoy settings"
        case .grpcServiceConfig: what = "a gRPC service config"
        case .awsConfig: what = "an AWS shared config file"
        }
        throw ScenarioError(
            SourceLocation(origin: .file(file)),
            "is \(what), which has no \(misplaced.name) to pick (--\(misplaced.name), policy.import.\(misplaced.name))")
    }

    /// A gRPC service config has `methodConfig` or `retryThrottling` at the top (in either
    /// spelling); anything else is read as Envoy settings.
    static func detect(_ top: Node.Mapping) -> PolicyFormat {
        let grpcKeys: Set<String> = ["methodConfig", "retryThrottling", "loadBalancingConfig", "loadBalancingPolicy", "healthCheckConfig"]
        for (k, _) in top {
            if case .scalar(let s) = k, grpcKeys.contains(DocumentNode.canonical(s.string, .camel)) { return .grpcServiceConfig }
        }
        return .envoy
    }

    /// gRPC reads its service config as JSON: YAML that is not JSON (unquoted keys, comments) is
    /// refused, as a gRPC client would refuse it.
    static func checkJSON(_ bytes: [UInt8], file: String) throws(ScenarioError) {
        do { _ = try JSONSerialization.jsonObject(with: Data(bytes)) } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw ScenarioError(
                SourceLocation(origin: .file(file)),
                "is not JSON, and a gRPC service config is JSON\(detail.map { ": \(MessageText.escaped($0))" } ?? "")")
        }
    }
}
