import Foundation
import RetryPolicy
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// A gRPC service config's `hedgingPolicy` (gRFC A6 "Hedging Policy"; `service_config.proto`'s
/// `HedgingPolicy`) as `policy.hedge.*` keys: on a call graph's call it builds the hedging; on the
/// clients' policy it is refused as the key is.
struct GRPCHedgingImportTests {
    typealias S = PolicyFormatSupport

    /// A6's example hedging policy, as the proposal writes it.
    static let a6Example = """
        {
          "methodConfig": [{
            "name": [{"service": "EchoService"}],
            "hedgingPolicy": {
              "maxAttempts": 4,
              "hedgingDelay": "0.5s",
              "nonFatalStatusCodes": ["UNAVAILABLE", "INTERNAL", "ABORTED"]
            }
          }]
        }
        """

    static func config(hedging: String, extra: String = "") -> String {
        "{\"methodConfig\": [{\"name\": [{}], \"hedgingPolicy\": {\(hedging)}\(extra)}]}"
    }

    @Test("A6's example: 4 copies 500 ms apart, UNAVAILABLE, INTERNAL and ABORTED non-fatal, no retries besides")
    func a6Example() throws {
        let imported = try S.importing(Self.a6Example)
        #expect(
            S.values(imported) == [
                "policy.preset=grpc", "policy.max_attempts=1", "policy.hedge.max_attempts=4", "policy.hedge.delay=500ms",
                "policy.classify.retryable_statuses=500,502-503", "policy.classify.throttling_statuses=none",
                "policy.classify.retry_conflict=true", "policy.classify.retry_timeouts=false", "policy.classify.retry_transport=true",
                "policy.max_elapsed=none", "policy.budget.kind=unlimited"
            ])
        #expect(imported.keys.first { $0.path == "policy.hedge.delay" }?.source == "methodConfig[0].hedgingPolicy.hedgingDelay")
        let p = try S.edgePolicy(imported)
        #expect(p.hedging == Hedging(delay: .fixed(500_000_000), maxAttempts: 4))
        #expect(p.maxAttempts == 1)
        // code.proto: UNAVAILABLE ↔ 503 (and 502, transport failures), INTERNAL ↔ 500, ABORTED ↔ 409.
        #expect(p.classifier.retryableStatuses == [500, 502, 503])
        #expect(p.classifier.retryConflict && p.classifier.retryTransport && !p.classifier.retryTimeouts)
        #expect(p.classifier.throttlingStatuses == [])
        var grpc = RetryPolicy.grpc
        grpc.maxAttempts = 1
        grpc.classifier = p.classifier
        grpc.maxElapsed = nil
        grpc.budget = .unlimited
        grpc.hedging = p.hedging
        #expect(p == grpc, "the rest is the grpc preset's")
    }

    @Test("defaults: hedgingDelay 0s (every copy at once), no non-fatal codes (any failure ends the call); maxAttempts above 5 is 5")
    func defaults() throws {
        let imported = try S.importing(Self.config(hedging: "\"maxAttempts\": 7"))
        #expect(imported.value(of: "policy.hedge.max_attempts") == "5")
        #expect(imported.notes.contains("methodConfig[0].hedgingPolicy.maxAttempts: 7 is taken as 5: gRFC A6 clients treat any value above 5 as 5"))
        let delay = try #require(imported.keys.first { $0.path == "policy.hedge.delay" })
        #expect(delay.value == "0s")
        #expect(delay.source == "hedgingDelay default 0s: every copy at once")
        #expect(delay.line == 1 && delay.column == 51, "where the hedgingPolicy is")
        let p = try S.edgePolicy(imported)
        #expect(p.hedging == Hedging(delay: .fixed(0), maxAttempts: 5))
        #expect(p.classifier.retryableStatuses == [] && p.classifier.throttlingStatuses == [])
        #expect(!p.classifier.retryConflict && !p.classifier.retryTimeouts && !p.classifier.retryTransport)
        let empty = try S.importing(Self.config(hedging: "\"maxAttempts\": 2, \"hedgingDelay\": \"0.01s\", \"nonFatalStatusCodes\": []"))
        #expect(try S.edgePolicy(empty).hedging == Hedging(delay: .fixed(10_000_000), maxAttempts: 2))
        #expect(empty.value(of: "policy.classify.retryable_statuses") == "none")
    }

    @Test("a retryPolicy without a hedgingPolicy decides that the call is not hedged")
    func notHedged() throws {
        let imported = try S.importing(GRPCServiceConfigImportTests.a6Example)
        let key = try #require(imported.keys.first { $0.path == "policy.hedge.delay" })
        #expect(key.value == "none" && key.source == "no hedgingPolicy: the call is not hedged")
        #expect(try S.importing("{\"retryThrottling\": {\"maxTokens\": 10, \"tokenRatio\": 0.1}}").value(of: "policy.hedge.delay") == "none")
    }

    @Test(
        "a hedgingPolicy's fields are checked as A6 says, and it may not come with a retryPolicy",
        arguments: [
            (
                config(hedging: "\"maxAttempts\": 1"),
                "svc.json:1:67: field 'methodConfig[0].hedgingPolicy.maxAttempts': must be more than 1 (gRFC A6; got 1)"
            ),
            (
                config(hedging: "\"hedgingDelay\": \"1s\""),
                "svc.json:1:51: field 'methodConfig[0].hedgingPolicy': needs maxAttempts (gRFC A6: required)"
            ),
            (
                config(hedging: "\"maxAttempts\": 3, \"hedgingDelay\": \"-1s\""),
                "svc.json:1:86: field 'methodConfig[0].hedgingPolicy.hedgingDelay': must not be negative (got '-1s')"
            ),
            (
                config(hedging: "\"maxAttempts\": 3, \"hedgingDelay\": \"500ms\""),
                "svc.json:1:86: field 'methodConfig[0].hedgingPolicy.hedgingDelay': expected a duration in seconds with an s, such as \"0.1s\" or \"2s\" (got '500ms')"
            ),
            (
                config(hedging: "\"maxAttempts\": 3, \"nonFatalStatusCodes\": [\"OK\"]"),
                "svc.json:1:94: field 'methodConfig[0].hedgingPolicy.nonFatalStatusCodes[0]': OK is not a failure: it cannot be retried"
            ),
            (
                config(hedging: "\"maxAttempts\": 3, \"hedgingDelai\": \"1s\""),
                "svc.json:1:70: field 'methodConfig[0].hedgingPolicy.hedgingDelai': is not a field this importer knows (known here: maxAttempts, hedgingDelay, nonFatalStatusCodes); did you mean 'hedgingDelay'?"
            ),
            (
                config(
                    hedging: "\"maxAttempts\": 3",
                    extra:
                        ", \"retryPolicy\": {\"maxAttempts\": 3, \"initialBackoff\": \"1s\", \"maxBackoff\": \"2s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [14]}"
                ),
                "svc.json:1:51: field 'methodConfig[0].hedgingPolicy': comes with a retryPolicy: a method is retried or hedged, not both (gRFC A6: the two are mutually exclusive)"
            )
        ])
    func refusals(_ text: String, _ message: String) {
        #expect(S.refusal(text) == message)
    }

    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hedge-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Self.a6Example.write(to: dir.appendingPathComponent("hedge.json"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test(
        "policy.import of a hedging policy: a call graph's call, the clients' policy and a population's hedge; with offline clients too"
    )
    func inScenarios() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.yaml").path
        let edge = "services:\n  - name: api\n    calls:\n      - {to: db, policy: {import: {file: hedge.json}}}\n  - name: db\n"
        let loaded = try ScenarioLoader.parse(text: edge, path: path)
        let call = try #require(loaded.base.services.first?.calls.first)
        #expect(call.policy == (try S.edgePolicy(try S.importing(Self.a6Example))))
        #expect(call.policy.hedging == Hedging(delay: .fixed(500_000_000), maxAttempts: 4))
        #expect(loaded.base.policy.hedging == nil)
        // The clients' policy and a population's hedge as the call's does.
        let clients = try ScenarioLoader.parse(text: "policy.import.file: hedge.json\n", path: path)
        #expect(clients.base.policy == call.policy)
        let population = try ScenarioLoader.parse(
            text: "populations:\n  - {name: a, share: 1, policy.import.file: hedge.json}\n", path: path)
        #expect(population.base.populations.first?.policy.hedging == Hedging(delay: .fixed(500_000_000), maxAttempts: 4))
        // With offline clients too.
        let offline = try ScenarioLoader.parse(
            text: "policy.import.file: hedge.json\nclients.offline: {duration: 5s, fraction: 0.1}\n", path: path)
        #expect(offline.base.policy.hedging == Hedging(delay: .fixed(500_000_000), maxAttempts: 4))
    }
}
