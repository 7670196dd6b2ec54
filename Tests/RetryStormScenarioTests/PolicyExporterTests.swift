import RetryPolicy
import RetryStormScenario
import Testing

/// `retrystorm policy export --format`: every policy exports in both formats to a file that reads
/// back, and the notes name exactly the fields the format lost.
struct PolicyExporterTests {
    typealias S = PolicyFormatSupport

    static let cases: [(String, PolicyFormat)] = RetryPolicy.presets.flatMap { p in PolicyFormat.allCases.map { (p.name, $0) } }

    @Test("every preset exports to a file that imports, and every note names a field it lost", arguments: cases)
    func presets(_ name: String, _ format: PolicyFormat) throws {
        let policy = try #require(RetryPolicy.preset(named: name))
        let written = PolicyExporter.export(policy, attemptTimeout: nil, format: format)
        let back = try S.policy(try S.importing(written.text, PolicyImportRequest(format: format), file: "back"))
        #expect(!written.notes.contains { $0.contains("does not read back") }, "\(written.notes)")
        // No note when nothing is lost; a note for each part that differs.
        #expect(written.notes.isEmpty == (back == policy), "\(written.notes)")
        #expect(written.notes.contains { $0.hasPrefix("policy.breaker ") } == (policy.breaker != back.breaker))
        #expect(written.notes.contains { $0.hasPrefix("policy.max_attempts ") } == (policy.maxAttempts != back.maxAttempts))
    }

    @Test(
        "the grpc preset exports the smallest set of codes that covers what it retries: DEADLINE_EXCEEDED for its 504 adds the per-attempt timeout, and a note says so"
    )
    func grpcPreset() {
        let written = PolicyExporter.export(.grpc, attemptTimeout: nil, format: .grpcServiceConfig)
        // code.proto gives 504 to DEADLINE_EXCEEDED, which the simulator's table also gives the
        // per-attempt timeout: the preset retries the one, not the other.
        #expect(
            written.notes == ["policy.classify.retry_timeouts is false, which grpc-service-config does not carry: the file reads back as true"])
        #expect(written.text.contains("\"retryableStatusCodes\": [\"DEADLINE_EXCEEDED\", \"RESOURCE_EXHAUSTED\", \"UNAVAILABLE\"]"))
    }

    @Test("unlimited attempts read back as the most a format or a scenario allows, and say so")
    func unlimited() {
        let envoy = PolicyExporter.export(.finagle, attemptTimeout: nil, format: .envoy)
        #expect(envoy.text.contains("num_retries: 999999\n"))
        #expect(envoy.notes.contains("policy.max_attempts is 2147483647, which envoy does not carry: the file reads back as 1000000"))
        let grpc = PolicyExporter.export(.cenkalti, attemptTimeout: nil, format: .grpcServiceConfig)
        #expect(grpc.notes.contains("policy.max_attempts is 2147483647, which grpc-service-config does not carry: the file reads back as 5"))
    }
}
