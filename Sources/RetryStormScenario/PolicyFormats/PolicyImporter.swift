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
        // An option of the other format would be silently ignored: the file is not what the user thinks.
        let misplaced =
            format == .envoy
            ? [("service", request.service), ("method", request.method)] : [("route", request.route), ("cluster", request.cluster)]
        if let (option, _) = misplaced.first(where: { $0.1 != nil }) {
            throw ScenarioError(
                here,
                "is \(format == .envoy ? "Envoy settings" : "a gRPC service config"), which has no \(option) to pick (--\(option), policy.import.\(option))"
            )
        }
        switch format {
        case .grpcServiceConfig:
            try checkJSON(bytes, file: file)
            var importer = GRPCServiceConfigImport(request: request, file: file)
            return try importer.run(document)
        case .envoy:
            var importer = EnvoyImport(request: request, file: file)
            return try importer.run(document)
        }
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
