import Foundation
import RetryPolicy
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// `policy.import` in scenarios: the file a service ships decides the base's policy; a key of
/// the same scope that the file also decides is refused; variants, options and populations work
/// as for any key.
struct PolicyImportScenarioTests {
    typealias S = PolicyFormatSupport

    /// A scratch directory with the A6 example as `svc.json` and Envoy's defaults as `envoy.yaml`.
    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("policy-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try GRPCServiceConfigImportTests.a6Example.write(to: dir.appendingPathComponent("svc.json"), atomically: true, encoding: .utf8)
        try "retry_policy: {retry_on: 5xx}\n".write(to: dir.appendingPathComponent("envoy.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    static func load(_ text: String, in dir: URL, overrides: [String] = []) throws(ScenarioError) -> LoadedScenario {
        try ScenarioLoader.parse(
            text: "horizon: 60s\nclients: {count: 100}\n" + text, path: dir.appendingPathComponent("s.yaml").path, overrides: overrides)
    }

    @Test("the scenario runs the imported policy, the file read relative to the scenario; the notes are kept for the command to print")
    func base() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let loaded = try Self.load("policy:\n  import: {file: svc.json}\n", in: dir)
        #expect(loaded.base.policy == (try S.policy(try S.importing(GRPCServiceConfigImportTests.a6Example))))
        #expect(loaded.base.policy.budget == .grpc(.a6Example))
        #expect(
            loaded.inputs.importNotes.contains {
                $0.hasSuffix(
                    "svc.json: retryThrottling: throttles per client and host in the simulator; gRPC keeps one token count per server name in each client"
                )
            })
        // Results keep a copy of the file, named by its key and contents.
        #expect(loaded.inputs.records.map(\.key) == ["policy.import.file"])
        #expect(loaded.resultsText.contains("file: input-policy-import-file-") && loaded.resultsText.contains(".txt}"))
    }

    @Test("a key of the same scope that the file decides is refused, naming both; a key the file does not decide is added")
    func conflicts() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            _ = try Self.load("policy:\n  import: {file: svc.json}\n  max_attempts: 3\n", in: dir)
            Issue.record("a conflicting key was accepted")
        } catch {
            #expect(
                error.description.hasSuffix(
                    "s.yaml:5:17: field 'policy.max_attempts': is also decided by policy.import (\(dir.path)/svc.json:5:22, methodConfig[0].retryPolicy.maxAttempts): the scenario runs the file as it ships; change the value in a variant or with --set, or drop the key"
                ), "\(error)")
        }
        #expect(throws: ScenarioError.self) { try Self.load("policy:\n  preset: aws-standard\n  import: {file: envoy.yaml}\n", in: dir) }
        let breaker = try Self.load("policy:\n  import: {file: envoy.yaml}\n  breaker.kind: consecutive\n", in: dir)
        #expect(breaker.base.policy.breaker != nil)
        #expect(breaker.base.policy.maxAttempts == 2)
    }

    @Test("variants and --set change imported values; a variant may import another file or none")
    func overrides() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let loaded = try Self.load(
            """
            policy.import.file: svc.json
            variants:
              - {name: more, policy.max_attempts: 5}
              - {name: envoy, policy.import.file: envoy.yaml}
              - {name: own, policy.import.file: none, policy.max_attempts: 3}

            """, in: dir, overrides: ["policy.backoff.base=50ms"])
        #expect(loaded.base.policy.backoff.base == 50_000_000)
        #expect(loaded.base.policy.maxAttempts == 4)
        let v = Dictionary(uniqueKeysWithValues: loaded.variants.map { ($0.name, $0.scenario.policy) })
        #expect(v["more"]?.maxAttempts == 5)
        #expect(v["envoy"]?.budget == .envoy(.maxRetries))
        #expect(v["envoy"]?.backoff.base == 50_000_000)  // --set applies after every variant
        #expect(v["own"]?.budget == .unlimited && v["own"]?.maxAttempts == 3)
    }

    @Test("a variant that imports a file runs it as it ships: a base key its file decides is refused, naming the variant")
    func variantConflicts() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "retry_policy: {retry_on: 5xx, per_try_timeout: 1.5s}\n".write(
            to: dir.appendingPathComponent("sidecar.yaml"), atomically: true, encoding: .utf8)
        // Before, the base's clients.timeout (1s) silently replaced the file's per_try_timeout (1.5s).
        do {
            _ = try Self.load("clients.timeout: 1s\nvariants:\n  - {name: sidecar, policy.import.file: sidecar.yaml}\n", in: dir)
            Issue.record("a base key the variant's file decides was accepted")
        } catch {
            #expect(
                error.description.hasSuffix(
                    "s.yaml:3:18: field 'clients.timeout': is also decided by the policy.import of variant 'sidecar' (\(dir.path)/sidecar.yaml:1:48, retry_policy.per_try_timeout): the variant runs the file it imports as it ships, as the base does; change the value with --set, or set the key in the variants that do not import that file"
                ), "\(error)")
        }
        // The variant's own key beside its import, as at the base.
        #expect(throws: ScenarioError.self) {
            try Self.load("variants:\n  - {name: v, policy.import.file: envoy.yaml, policy.max_attempts: 4}\n", in: dir)
        }
        // Without the conflict the variant runs the file: 1.5 s per attempt.
        let loaded = try Self.load("variants:\n  - {name: sidecar, policy.import.file: sidecar.yaml}\n", in: dir)
        #expect(loaded.variants.first?.scenario.clients.timeout == 1_500_000_000)
        // --set is a what-if, after every variant.
        let set = try Self.load(
            "variants:\n  - {name: sidecar, policy.import.file: sidecar.yaml}\n", in: dir, overrides: ["clients.timeout=2s"])
        #expect(set.variants.first?.scenario.clients.timeout == 2_000_000_000)
    }

    @Test("none clears an import option a variant inherits, as an empty value does")
    func noneClears() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "routes: [{name: checkout, route: {retry_policy: {retry_on: reset}}}, {name: browse, route: {}}]\n".write(
            to: dir.appendingPathComponent("routes.yaml"), atomically: true, encoding: .utf8)
        let base = "policy.import: {file: routes.yaml, route: checkout}\nvariants:\n"
        for cleared in ["none", "\"\""] {
            let loaded = try Self.load(base + "  - {name: grpc, policy.import.file: svc.json, policy.import.route: \(cleared)}\n", in: dir)
            #expect(loaded.variants.first?.scenario.policy == (try S.policy(try S.importing(GRPCServiceConfigImportTests.a6Example))))
        }
    }

    @Test("a population imports its own file, starting afresh as with its own preset; the others inherit the scenario's")
    func populations() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let loaded = try Self.load(
            """
            policy: {import: {file: svc.json}}
            populations:
              - {name: grpc, share: 50%}
              - {name: sidecar, share: 50%, policy.import.file: envoy.yaml}

            """, in: dir)
        let p = Dictionary(uniqueKeysWithValues: loaded.base.populations.map { ($0.name, $0.policy) })
        #expect(p["grpc"] == loaded.base.policy)
        #expect(p["sidecar"] == RetryPolicy.envoy)
        #expect(throws: ScenarioError.self) {
            try Self.load("populations:\n  - {name: a, share: 1, policy.import.file: envoy.yaml, policy.max_attempts: 3}\n", in: dir)
        }
    }

    @Test("a missing or unreadable file, a refused field, a bad format name: one error naming where")
    func refusals() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: ScenarioError.self) { try Self.load("policy.import.file: missing.json\n", in: dir) }
        try "{\"methodConfig\": [{\"hedgingPolicy\": {}}]}".write(to: dir.appendingPathComponent("hedge.json"), atomically: true, encoding: .utf8)
        do {
            _ = try Self.load("policy.import.file: hedge.json\n", in: dir)
            Issue.record("a hedgingPolicy without maxAttempts was accepted")
        } catch {
            #expect(error.description == "\(dir.path)/hedge.json:1:37: field 'methodConfig[0].hedgingPolicy': needs maxAttempts (gRFC A6: required)")
        }
        do {
            _ = try Self.load("policy.import: {file: svc.json, format: grpc}\n", in: dir)
            Issue.record("format grpc was accepted")
        } catch {
            #expect(
                error.description.hasSuffix(
                    "s.yaml:3:41: field 'policy.import.format': must be one of auto, grpc-service-config, envoy, aws-config (got 'grpc')."))
        }
        #expect(throws: ScenarioError.self) { try Self.load("policy.import.file: \"\"\n", in: dir) }
    }
}
