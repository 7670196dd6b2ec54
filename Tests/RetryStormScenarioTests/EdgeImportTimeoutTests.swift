import Foundation
import RetryStormEngine
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// An imported policy on a call graph's edge keeps everything it carries (issue 40): Envoy's
/// `per_try_timeout`, which is `clients.timeout` at the clients, is the call's own `timeout` on
/// an edge. Before, the edge dropped it and timed its attempts out at the 2 s default.
struct EdgeImportTimeoutTests {
    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("edge-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "retry_policy: {retry_on: 5xx, num_retries: 2, per_try_timeout: 0.25s}\n"
            .write(to: dir.appendingPathComponent("envoy.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    static let graph = """
        horizon: 60s
        clients: {count: 100, timeout: 3s}
        services:
          - name: gateway
            calls:
              - to: checkout
                policy: {import: {file: envoy.yaml}}
          - name: checkout

        """

    static func load(_ text: String, in dir: URL, overrides: [String] = []) throws(ScenarioError) -> LoadedScenario {
        try ScenarioLoader.parse(text: text, path: dir.appendingPathComponent("g.yaml").path, overrides: overrides)
    }

    @Test("Envoy's per_try_timeout on an edge is the call's timeout; the clients' own timeout is untouched")
    func perTryTimeout() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try Self.load(Self.graph, in: dir).base
        let call = try #require(s.services.first?.calls.first)
        #expect(call.timeout == 250_000_000)
        // num_retries: 2 is three attempts.
        #expect(call.policy.maxAttempts == 3)
        #expect(s.clients.timeout == 3_000_000_000)
    }

    @Test("every field of an Envoy file reaches the edge as it reaches the clients: the same policy, and per_try_timeout as the call's timeout")
    func everyField() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        retry_policy:
          retry_on: gateway-error,retriable-4xx,retriable-status-codes
          retriable_status_codes: [429]
          num_retries: 3
          per_try_timeout: 0.4s
          retry_back_off: {base_interval: 0.05s, max_interval: 2s}
          rate_limited_retry_back_off: {reset_headers: [{name: Retry-After}], max_interval: 20s}
        timeout: 4s
        circuit_breakers:
          thresholds: [{retry_budget: {budget_percent: {value: 25}, min_retry_concurrency: 2}, max_requests: 40}]

        """.write(to: dir.appendingPathComponent("full.yaml"), atomically: true, encoding: .utf8)
        let graph = Self.graph.replacingOccurrences(of: "envoy.yaml", with: "full.yaml")
        let call = try #require(try Self.load(graph, in: dir).base.services.first?.calls.first)
        let clients = try Self.load("horizon: 60s\nclients.count: 100\npolicy.import.file: full.yaml\n", in: dir).base
        #expect(call.policy == clients.policy)
        #expect(call.timeout == clients.clients.timeout && call.timeout == 400_000_000)
    }

    @Test("a variant or --set changes the imported timeout; the file's own timeout key beside the import is refused")
    func overridden() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let set = try Self.load(Self.graph, in: dir, overrides: ["services.gateway.calls.checkout.timeout=1s"]).base
        #expect(set.services.first?.calls.first?.timeout == 1_000_000_000)
        let conflicting = Self.graph.replacingOccurrences(
            of: "policy: {import: {file: envoy.yaml}}", with: "timeout: 2s\n        policy: {import: {file: envoy.yaml}}")
        do {
            _ = try Self.load(conflicting, in: dir)
            Issue.record("a timeout the file also decides was accepted")
        } catch {
            #expect(
                error.description.contains(
                    "field 'services.gateway.calls.checkout.timeout': is also decided by policy.import ("),
                "\(error)")
            #expect(error.description.contains("retry_policy.per_try_timeout): the scenario runs the file as it ships"), "\(error)")
        }
    }
}
