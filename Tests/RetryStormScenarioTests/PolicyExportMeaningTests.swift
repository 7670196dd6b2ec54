import Foundation
import RetryPolicy
import RetryStormScenario
import Testing

/// Exports carry what the format carries (issue 41): a hedged policy as gRPC's `hedgingPolicy`,
/// status codes as the file listed them, a gRPC-born policy as Envoy's gRPC conditions, and
/// export(import(x)) means what x means — codes, counts and durations, not only the same keys.
struct PolicyExportMeaningTests {
    typealias S = PolicyFormatSupport

    /// import x → the policy a scenario runs → export, with the import as the export's origin.
    static func reexport(_ text: String, _ request: PolicyImportRequest = PolicyImportRequest(), to format: PolicyFormat? = nil) throws
        -> PolicyExporter.Export
    {
        let imported = try S.importing(text, request)
        let policy = try S.policy(imported)
        let timeout =
            imported.value(of: "clients.timeout") == nil ? nil : try ScenarioLoader.parse(text: imported.yaml, path: "i.yaml").base.clients.timeout
        return PolicyExporter.export(
            policy, attemptTimeout: timeout, format: format ?? imported.format, service: request.service, method: request.method, origin: imported)
    }

    /// The service configs the importers' tests read, and the one in experiments/.
    static let grpcFiles: [(String, PolicyImportRequest)] = [
        (GRPCServiceConfigImportTests.a6Example, PolicyImportRequest()),
        (GRPCHedgingImportTests.a6Example, PolicyImportRequest()),
        (GRPCServiceConfigImportTests.config(retry: Self.retry(["INTERNAL", "ABORTED"])), PolicyImportRequest()),
        (GRPCServiceConfigImportTests.config(retry: Self.retry(["UNKNOWN", "ALREADY_EXISTS", "DEADLINE_EXCEEDED"])), PolicyImportRequest()),
        (
            GRPCHedgingImportTests.config(hedging: "\"maxAttempts\": 3, \"hedgingDelay\": \"0.025s\", \"nonFatalStatusCodes\": [\"DATA_LOSS\", 14]"),
            PolicyImportRequest()
        ),
        (
            try! String(contentsOfFile: Self.root + "/experiments/grpc-service-config.json", encoding: .utf8),
            PolicyImportRequest(service: "shop.Cart", method: "Checkout")
        )
    ]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func retry(_ codes: [String]) -> String {
        "\"maxAttempts\": 3, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [\(codes.map { "\"\($0)\"" }.joined(separator: ", "))]"
    }

    @Test("a service config exports to one that means the same: the same codes in the same order, counts and durations", arguments: 0..<6)
    func grpcMeaning(_ k: Int) throws {
        let (text, request) = Self.grpcFiles[k]
        let written = try Self.reexport(text, request)
        #expect(written.notes.isEmpty, "\(written.notes)")
        // The experiment's file names the method in its first methodConfig.
        #expect(try PolicyMeaning.grpc(written.text) == PolicyMeaning.grpc(text), "\(written.text)")
    }

    @Test("INTERNAL and ABORTED go out as INTERNAL and ABORTED, not the five codes of 500 and 409")
    func exactCodes() throws {
        let text = GRPCServiceConfigImportTests.config(retry: Self.retry(["INTERNAL", "ABORTED"]))
        #expect(try Self.reexport(text).text.contains("\"retryableStatusCodes\": [\"INTERNAL\", \"ABORTED\"]"))
        // Made in the simulator (no file): the smallest set that covers 500 and 409, one code for
        // each (google/rpc/code.proto maps UNKNOWN, INTERNAL, DATA_LOSS to 500; ABORTED, ALREADY_EXISTS to 409).
        var p = RetryPolicy.grpc
        p.classifier.retryableStatuses = [500]
        p.classifier.throttlingStatuses = []
        p.classifier.retryConflict = true
        p.classifier.retryTimeouts = false
        p.classifier.retryTransport = false
        let made = PolicyExporter.export(p, attemptTimeout: nil, format: .grpcServiceConfig)
        #expect(made.text.contains("\"retryableStatusCodes\": [\"ABORTED\", \"INTERNAL\"]"), "\(made.text)")
        #expect(!made.notes.contains { $0.hasPrefix("policy.classify.") }, "\(made.notes)")
    }

    @Test("a classifier no set of codes expresses exports the smallest covering set, and a note names what it adds")
    func inexpressible() {
        // 503 alone: UNAVAILABLE is 502, 503 and transport failures together.
        var p = RetryPolicy.grpc
        p.classifier.retryableStatuses = [503]
        p.classifier.throttlingStatuses = []
        p.classifier.retryTransport = false
        p.classifier.retryTimeouts = false
        let written = PolicyExporter.export(p, attemptTimeout: nil, format: .grpcServiceConfig)
        #expect(written.text.contains("\"retryableStatusCodes\": [\"UNAVAILABLE\"]"))
        #expect(
            written.notes.contains(
                "policy.classify.retryable_statuses is \"503\", which grpc-service-config does not carry: the file reads back as \"502-503\""))
        #expect(
            written.notes.contains("policy.classify.retry_transport is false, which grpc-service-config does not carry: the file reads back as true"))
    }

    @Test("a hedged policy exports a hedgingPolicy (A6): maxAttempts, hedgingDelay, nonFatalStatusCodes, and no retryPolicy")
    func hedging() throws {
        let written = try Self.reexport(GRPCHedgingImportTests.a6Example)
        #expect(
            written.text.contains(
                "\"hedgingPolicy\": {\n        \"maxAttempts\": 4,\n        \"hedgingDelay\": \"0.5s\",\n        \"nonFatalStatusCodes\": [\"UNAVAILABLE\", \"INTERNAL\", \"ABORTED\"]\n      }"
            ), "\(written.text)")
        #expect(!written.text.contains("retryPolicy"))
        // A preset made hedged in the simulator.
        var p = RetryPolicy.grpc
        p.hedging = Hedging(delay: .fixed(20_000_000), maxAttempts: 3)
        p.maxAttempts = 1
        let preset = PolicyExporter.export(p, attemptTimeout: nil, format: .grpcServiceConfig)
        #expect(preset.text.contains("\"hedgingPolicy\": {\n        \"maxAttempts\": 3,\n        \"hedgingDelay\": \"0.02s\""), "\(preset.text)")
        #expect(!preset.notes.contains { $0.hasPrefix("policy.hedge") }, "\(preset.notes)")
    }

    @Test("a gRPC-born policy exports Envoy's gRPC conditions: gRPC errors reach Envoy as HTTP 200 with a grpc-status")
    func grpcToEnvoy() throws {
        let written = try Self.reexport(GRPCServiceConfigImportTests.a6Example, to: .envoy)
        // UNAVAILABLE → unavailable (x-envoy-retry-grpc-on); the transport failures gRPC retries as
        // UNAVAILABLE are Envoy's connect-failure.
        #expect(written.text.contains("  retry_on: unavailable,connect-failure\n"), "\(written.text)")
        #expect(!written.text.contains("retriable_status_codes"))
        #expect(!written.notes.contains { $0.hasPrefix("policy.classify.") }, "\(written.notes)")
        let aborted = try Self.reexport(GRPCServiceConfigImportTests.config(retry: Self.retry(["INTERNAL", "ABORTED"])), to: .envoy)
        #expect(aborted.text.contains("  retry_on: internal,retriable-4xx\n"), "\(aborted.text)")
        #expect(
            aborted.notes.contains(
                "ABORTED has no Envoy retry condition (Envoy judges only cancelled, deadline-exceeded, internal, resource-exhausted and unavailable by grpc-status): written as the HTTP statuses it stands for"
            ))
    }

    @Test(
        "Envoy settings export to settings that mean the same: conditions, gRPC conditions, counts, durations",
        arguments: [
            "retry_policy: {retry_on: \"unavailable,deadline-exceeded,cancelled\", num_retries: 3}\n",
            "retry_policy: {retry_on: \"resource-exhausted,reset\", per_try_timeout: 0.3s}\ntimeout: 2s\n",
            "retry_policy: {retry_on: 5xx}\n",
            "retry_policy: {retry_on: connect-failure, num_retries: 0}\ncircuit_breakers: {thresholds: [{max_retries: 0}]}\n"
        ])
    func envoyMeaning(_ text: String) throws {
        let first = try S.importing(text, file: "envoy.yaml")
        let written = try Self.reexport(text, to: .envoy)
        #expect(written.notes.isEmpty, "\(written.notes)")
        let back = try S.importing(written.text, PolicyImportRequest(format: .envoy), file: "back")
        #expect(back.grpcCodes == first.grpcCodes, "\(written.text)")
        #expect(S.values(back) == S.values(first), "\(written.text)")
    }
}
