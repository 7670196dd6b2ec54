import Foundation
import RetryPolicy
import RetryStormScenario
import Testing

/// Every preset through each format, compared by meaning (issue 41, item 2): x = the preset's
/// export (what a team would deploy), then export(import(x)) must mean what x means — the same
/// codes in the same order, counts and durations (``PolicyMeaning``) for a service config; the
/// same scenario keys read back for Envoy settings. What a format cannot carry is the export's
/// notes (``PolicyExporterTests``); what it does carry must survive a second trip unchanged.
struct PresetExportMeaningTests {
    typealias S = PolicyFormatSupport
    typealias M = PolicyExportMeaningTests

    /// A 1 s attempt timeout, which both formats carry (gRPC's `timeout`, Envoy's `per_try_timeout`).
    static let timeout: Int64 = 1_000_000_000

    @Test("every preset's service config, imported and exported again, means the same", arguments: RetryPolicy.presets.map(\.name))
    func grpc(_ name: String) throws {
        let p = try #require(RetryPolicy.preset(named: name))
        let x = PolicyExporter.export(p, attemptTimeout: Self.timeout, format: .grpcServiceConfig).text
        let again = try M.reexport(x, PolicyImportRequest(format: .grpcServiceConfig), to: .grpcServiceConfig)
        #expect(again.notes.isEmpty, "\(name): \(again.notes)")
        // Not two empty readings: every preset retries, so x has a retryPolicy (or a hedgingPolicy).
        let meaning = try PolicyMeaning.grpc(x)
        #expect(meaning.contains { $0.hasPrefix("retry.maxAttempts") || $0.hasPrefix("hedging.maxAttempts") }, "\(name): \(x)")
        #expect(try PolicyMeaning.grpc(again.text) == meaning, "\(name): \(x) → \(again.text)")
    }

    @Test("every preset's Envoy settings, imported and exported again, read back the same", arguments: RetryPolicy.presets.map(\.name))
    func envoy(_ name: String) throws {
        let p = try #require(RetryPolicy.preset(named: name))
        let x = PolicyExporter.export(p, attemptTimeout: Self.timeout, format: .envoy).text
        let first = try S.importing(x, PolicyImportRequest(format: .envoy), file: "x.yaml")
        let again = try M.reexport(x, PolicyImportRequest(format: .envoy), to: .envoy)
        #expect(again.notes.isEmpty, "\(name): \(again.notes)")
        let back = try S.importing(again.text, PolicyImportRequest(format: .envoy), file: "back.yaml")
        #expect(S.values(first).contains { $0.hasPrefix("policy.max_attempts=") }, "\(name): \(S.values(first))")
        #expect(S.values(back) == S.values(first), "\(name): \(x) → \(again.text)")
        #expect(back.grpcCodes == first.grpcCodes, "\(name)")
    }
}
