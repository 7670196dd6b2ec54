import RetryPolicy
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// More of the formats (issue 41): gRPC's `perAttemptRecvTimeout`; every refusal of a file at
/// once, each with its line, column and path; `--ignore` hints that name the field as
/// `--ignore` takes it.
struct PolicyImportRefusalTests {
    typealias S = PolicyFormatSupport

    static func retry(_ extra: String) -> String {
        GRPCServiceConfigImportTests.config(
            retry: GRPCServiceConfigImportTests.validRetry + ", \"retryableStatusCodes\": [\"UNAVAILABLE\"]" + extra)
    }

    /// grpc-java's `ServiceConfigUtil` reads `perAttemptRecvTimeout` (a Duration, not negative);
    /// grpc-core's retry filter cancels an attempt when it passes and asks `ShouldRetry` with no
    /// status, so the attempt is retried whatever `retryableStatusCodes` list.
    @Test("perAttemptRecvTimeout is the attempt timeout, retried whatever the codes, with a note on where the meaning differs")
    func recvTimeout() throws {
        let imported = try S.importing(Self.retry(", \"perAttemptRecvTimeout\": \"0.3s\""))
        #expect(imported.value(of: "clients.timeout") == "300ms")
        #expect(imported.value(of: "policy.classify.retry_timeouts") == "true")
        #expect(imported.keys.first { $0.path == "policy.classify.retry_timeouts" }?.source == "methodConfig[0].retryPolicy.perAttemptRecvTimeout")
        #expect(
            imported.notes.contains {
                $0.hasPrefix("methodConfig[0].retryPolicy.perAttemptRecvTimeout: approximated: gRPC's timer stops when the response headers arrive")
            })
        let p = try S.policy(imported)
        #expect(S.retries(p, .timedOut(.response)))
        // With the timer the codes may be empty, as grpc-java takes them.
        let empty = GRPCServiceConfigImportTests.config(
            retry: GRPCServiceConfigImportTests.validRetry + ", \"retryableStatusCodes\": [], \"perAttemptRecvTimeout\": \"1s\"")
        #expect(try S.importing(empty).value(of: "policy.classify.retryable_statuses") == "none")
        #expect(
            S.refusal(Self.retry(", \"perAttemptRecvTimeout\": \"-1s\""))
                == "svc.json:1:204: field 'methodConfig[0].retryPolicy.perAttemptRecvTimeout': must not be negative (got '-1s')")
        // The export writes it back, and the file reads back the same.
        try S.checkRoundTrip(Self.retry(", \"perAttemptRecvTimeout\": \"0.3s\""), PolicyImportRequest(), file: "svc.json")
    }

    /// A refused value is left out of the next reading; a required field left out so refuses its
    /// parent, which is not listed again (the parent is then left out too).
    @Test("every refusal of a file is listed at once, each with its line, column and path")
    func everyRefusal() throws {
        let text = """
            {"methodConfig": [{"name": [{}], "waitForReady": true, "timout": "1s",
              "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["unavailable"]}}],
             "retryThrottling": {"maxTokens": 0, "tokenRatio": 0.1}}
            """
        do {
            _ = try S.importing(text)
            Issue.record("the file was accepted")
        } catch {
            let lines = ([error] + error.more).map(\.description)
            #expect(
                lines == [
                    "svc.json:1:56: field 'methodConfig[0].timout': is not a field this importer knows (known here: name, waitForReady, timeout, maxRequestMessageBytes, maxResponseMessageBytes, retryPolicy, hedgingPolicy); did you mean 'timeout'?",
                    "svc.json:1:50: field 'methodConfig[0].waitForReady': waitForReady is not modelled (a simulated client whose network is down fails its attempt at once) (to import the rest, list it to ignore: --ignore waitForReady)",
                    "svc.json:2:132: field 'methodConfig[0].retryPolicy.retryableStatusCodes[0]': 'unavailable' is not a gRPC status code: grpc-go takes a code's name in upper case as text (\"UNAVAILABLE\") or its number 0…16 unquoted (14); write \"UNAVAILABLE\"",
                    "svc.json:3:35: field 'retryThrottling.maxTokens': must be 1…1000 (gRFC A6; got 0)"
                ], "\(lines)")
        }
        // Envoy: a refused field and a bad value, both.
        do {
            _ = try S.importing("retry_policy: {retry_on: \"5xx,bogus\", num_retries: -1, retry_priority: {}}\n", file: "e.yaml")
            Issue.record("the file was accepted")
        } catch {
            #expect(error.more.count == 2, "\(error) \(error.more)")
        }
    }

    @Test("a file with more than 20 refusals lists 20 and says it stopped")
    func limit() {
        let fields = (0..<25).map { "\"bogus\($0)\": 1" }.joined(separator: ", ")
        do {
            _ = try S.importing("{\"methodConfig\": [{\(fields)}]}")
            Issue.record("the file was accepted")
        } catch {
            #expect(error.more.count == 20)
            #expect(error.more.last?.description == "svc.json: stopped after 20 refusals: fix these and import again")
        }
    }

    @Test("the --ignore hint names the field, which --ignore takes, not its path through the whole configuration")
    func ignoreHint() throws {
        let config = """
            static_resources:
              listeners:
              - filter_chains:
                - filters:
                  - typed_config:
                      route_config:
                        virtual_hosts:
                        - name: shop
                          routes:
                          - name: checkout
                            route: {cluster: cart, retry_policy: {retry_on: 5xx, retry_host_predicate: [{name: previous_hosts}]}}

            """
        let refusal = try #require(S.refusal(config, file: "envoy.yaml"))
        #expect(refusal.hasSuffix("(to import the rest, list it to ignore: --ignore retry_host_predicate)"), "\(refusal)")
        let imported = try S.importing(config, PolicyImportRequest(ignore: ["retry_host_predicate"]), file: "envoy.yaml")
        #expect(imported.notes.contains { $0.contains("retry_host_predicate: ignored as asked") })
    }
}
