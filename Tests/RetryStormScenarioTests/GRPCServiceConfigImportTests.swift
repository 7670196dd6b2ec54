import RetryPolicy
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// `retrystorm policy import` of gRPC service configs, checked against gRFC A6 ("gRPC Retry
/// Design") and the schema in grpc-proto's `grpc/service_config/service_config.proto`; status
/// codes against `google/rpc/code.proto`'s HTTP mapping.
struct GRPCServiceConfigImportTests {
    typealias S = PolicyFormatSupport

    /// A6's example retry policy and retry throttling, as the proposal writes them.
    static let a6Example = """
        {
          "methodConfig": [{
            "name": [{"service": "EchoService"}],
            "retryPolicy": {
              "maxAttempts": 4,
              "initialBackoff": "0.1s",
              "maxBackoff": "1s",
              "backoffMultiplier": 2,
              "retryableStatusCodes": ["UNAVAILABLE"]
            }
          }],
          "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}
        }
        """

    static func config(retry: String, extra: String = "") -> String {
        "{\"methodConfig\": [{\"name\": [{}], \"retryPolicy\": {\(retry)}\(extra)}]}"
    }

    static let validRetry = "\"maxAttempts\": 3, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 2"

    @Test("A6's example gives the grpc preset's backoff, attempts, pushback and throttling, and retries what UNAVAILABLE stands for")
    func a6Example() throws {
        let imported = try S.importing(Self.a6Example)
        let p = try S.policy(imported)
        // A6: 4 attempts; min(0.1 s × 2^(n−1), 1 s) × U[0.8, 1.2) — the preset's backoff exactly.
        #expect(p.maxAttempts == 4)
        #expect(p.backoff == RetryPolicy.grpc.backoff)
        #expect(p.serverHints == RetryPolicy.grpc.serverHints)
        // A6 retryThrottling example: maxTokens 10, tokenRatio 0.1.
        #expect(p.budget == .grpc(GRPCRetryThrottling(maxTokens: 10, tokenRatio: 0.1)))
        // code.proto: UNAVAILABLE ↔ 503 (and 502, http-grpc-status-mapping.md), transport failures.
        #expect(p.classifier.retryableStatuses == [502, 503])
        #expect(p.classifier.throttlingStatuses == [])
        #expect(p.classifier.retryTransport && !p.classifier.retryTimeouts && !p.classifier.retryConflict)
        #expect(S.retries(p, .http(503)) && S.retries(p, .transport(.offline)))
        #expect(!S.retries(p, .http(429)) && !S.retries(p, .http(500)) && !S.retries(p, .timedOut(.response)))
        #expect(imported.value(of: "policy.max_elapsed") == "none")
    }

    @Test("the backoff is A6's: min(initialBackoff × multiplier^(n−1), maxBackoff) × U[0.8, 1.2), the cap before the jitter")
    func backoffFormula() throws {
        let p = try S.policy(
            try S.importing(
                Self.config(
                    retry:
                        "\"maxAttempts\": 5, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"0.5s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [\"UNAVAILABLE\"]"
                )))
        let ms: Int64 = 1_000_000
        // Un-jittered terms 100, 200, 400, 500 (capped) ms; r = 0 draws the factor 0.8, r = 0.5 draws 1.0.
        #expect(S.delays(p, failure: .http(503), r: 0.5) == [100 * ms, 200 * ms, 400 * ms, 500 * ms])
        #expect(S.delays(p, failure: .http(503), r: 0) == [80 * ms, 160 * ms, 320 * ms, 400 * ms])
    }

    @Test("maxAttempts above 5 is taken as 5, with a note (A6: \"values greater than 5 are treated as 5\"); 1 or less is refused")
    func attemptCap() throws {
        let seven = try S.importing(
            Self.config(
                retry:
                    "\"maxAttempts\": 7, \"initialBackoff\": \"1s\", \"maxBackoff\": \"2s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [14]"
            ))
        #expect(seven.value(of: "policy.max_attempts") == "5")
        #expect(seven.notes.contains { $0.contains("7 is taken as 5") })
        #expect(
            S.refusal(
                Self.config(
                    retry:
                        "\"maxAttempts\": 1, \"initialBackoff\": \"1s\", \"maxBackoff\": \"2s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [14]"
                ))
                == "svc.json:1:65: field 'methodConfig[0].retryPolicy.maxAttempts': must be more than 1 (gRFC A6; got 1)")
    }

    /// Each retryPolicy and the refusal it gets.
    static let refusalCases: [(String, String)] = [
        ("\"maxAttempts\": 3, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 2", "needs retryableStatusCodes"),
        (validRetry + ", \"retryableStatusCodes\": []", "must not be empty (gRFC A6)"),
        (
            "\"maxAttempts\": 3, \"initialBackoff\": \"0s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [14]",
            "must be more than 0s"
        ),
        (
            "\"maxAttempts\": 3, \"initialBackoff\": \"-1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [14]",
            "must not be negative"
        ),
        (
            "\"maxAttempts\": 3, \"initialBackoff\": \"100ms\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [14]",
            "expected a duration in seconds"
        ),
        (
            "\"maxAttempts\": 3, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 0, \"retryableStatusCodes\": [14]",
            "must be more than 0 (gRFC A6"
        ),
        (
            "\"maxAttempts\": 3, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 0.5, \"retryableStatusCodes\": [14]",
            "below 1 makes delays shrink"
        ),
        (
            "\"maxAttempts\": 3, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 200, \"retryableStatusCodes\": [14]",
            "maps to policy.backoff.multiplier, which must be at most 100"
        ),
        (validRetry + ", \"retryableStatusCodes\": [\"UNAVAILABEL\"]", "did you mean UNAVAILABLE?"),
        (validRetry + ", \"retryableStatusCodes\": [\"OK\"]", "OK is not a failure"),
        (validRetry + ", \"retryableStatusCodes\": \"UNAVAILABLE\"", "expected a list (got the text 'UNAVAILABLE')"),
        ("\"maxAttempts\": true, \"initialBackoff\": \"0.1s\"", "expected a whole number (got true)"),
        ("\"maxAttempts\": 3, \"initialBackof\": \"0.1s\"", "did you mean 'initialBackoff'?"),
        ("\"maxAttempts\": 3, \"max_attempts\": 4", "is given twice")
    ]

    @Test("every retryPolicy field is required and checked as A6 says", arguments: refusalCases)
    func refusals(_ policy: String, _ message: String) throws {
        let refusal = try #require(S.refusal(Self.config(retry: policy)))
        #expect(refusal.hasPrefix("svc.json:1:"))
        #expect(refusal.contains("field 'methodConfig[0].retryPolicy"))
        #expect(refusal.contains(message), "\(refusal)")
        #expect(!refusal.contains("\n"))
    }

    @Test(
        "status codes stand for the simulated failures of code.proto's HTTP mapping",
        arguments: [
            // (codes, retried failures, not retried)
            ("\"RESOURCE_EXHAUSTED\"", [NormalizedError.http(429)], [NormalizedError.http(503), .http(500)]),
            ("\"DEADLINE_EXCEEDED\"", [.timedOut(.response), .http(504)], [.http(503), .transport(.offline)]),
            ("\"INTERNAL\"", [.http(500)], [.http(503), .http(400)]),
            ("\"ABORTED\"", [.http(409)], [.http(500)]),
            ("\"INVALID_ARGUMENT\"", [.http(400)], [.http(409)]),
            ("\"UNAUTHENTICATED\"", [.http(401)], [.http(403)]),
            ("14, \"UNAVAILABLE\"", [.http(503), .http(502), .transport(.connectionRefused)], [.http(504), .timedOut(.response)])
        ])
    func codes(_ codes: String, _ retried: [NormalizedError], _ notRetried: [NormalizedError]) throws {
        let p = try S.policy(try S.importing(Self.config(retry: Self.validRetry + ", \"retryableStatusCodes\": [\(codes)]")))
        for f in retried { #expect(S.retries(p, f), "\(f)") }
        for f in notRetried { #expect(!S.retries(p, f), "\(f)") }
    }

    @Test("a status several codes share is retried when one of them is listed, and a note says so")
    func sharedStatus() throws {
        let imported = try S.importing(Self.config(retry: Self.validRetry + ", \"retryableStatusCodes\": [\"UNKNOWN\"]"))
        #expect(imported.value(of: "policy.classify.retryable_statuses") == "500")
        #expect(imported.notes.contains { $0.contains("the simulated 500 stands for UNKNOWN, INTERNAL, DATA_LOSS alike") })
    }

    @Test("retryThrottling: maxTokens 1…1000, tokenRatio > 0 in thousandths (A6, service_config.proto)")
    func throttling() throws {
        func throttling(_ body: String) -> String { "{\"retryThrottling\": {\(body)}}" }
        let max = try S.importing(throttling("\"maxTokens\": 1000, \"tokenRatio\": 0.1234"))
        #expect(max.value(of: "policy.budget.capacity") == "1000")
        #expect(max.value(of: "policy.budget.token_ratio") == "0.123")
        #expect(max.notes.contains { $0.contains("more than 3 decimal places") })
        #expect(S.refusal(throttling("\"maxTokens\": 1001, \"tokenRatio\": 0.1"))?.contains("must be 1…1000 (gRFC A6; got 1001)") == true)
        #expect(S.refusal(throttling("\"maxTokens\": 0, \"tokenRatio\": 0.1"))?.contains("must be 1…1000") == true)
        #expect(S.refusal(throttling("\"maxTokens\": 10, \"tokenRatio\": 0"))?.contains("must be more than 0") == true)
        #expect(S.refusal(throttling("\"maxTokens\": 10"))?.contains("needs maxTokens and tokenRatio") == true)
        // A6: every failure takes a token first, and no retry is sent while the count is ≤ maxTokens / 2.
        // maxTokens 4: the first failure leaves 3 (> 2: retried), the second 2 (≤ 2: not), of 5 attempts.
        let p = try S.policy(
            try S.importing(
                "{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": 5, \"initialBackoff\": \"1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 1, \"retryableStatusCodes\": [\"UNAVAILABLE\"]}}], \"retryThrottling\": {\"maxTokens\": 4, \"tokenRatio\": 0.1}}"
            ))
        #expect(S.delays(p, failure: .http(503), r: 0.5).count == 1)
    }

    @Test("the methodConfig that applies is the most specific match, as service_config.proto's Name says")
    func selection() throws {
        let config = """
            {"methodConfig": [
              {"name": [{}], "timeout": "1s"},
              {"name": [{"service": "MyService"}], "timeout": "2s"},
              {"name": [{"service": "MyService", "method": "Foo"}], "timeout": "3s"}
            ]}
            """
        func timeout(_ service: String, _ method: String?) throws -> String? {
            try S.importing(config, PolicyImportRequest(service: service, method: method)).value(of: "policy.max_elapsed")
        }
        #expect(try timeout("MyService", "Foo") == "3s")
        #expect(try timeout("MyService", "Bar") == "2s")
        #expect(try timeout("AnotherService", "Baz") == "1s")
        #expect(S.refusal(config)?.contains("has 3 methodConfig entries: name the method with --service and --method") == true)
        // No retryPolicy: gRPC does not retry the call.
        #expect(try S.importing(config, PolicyImportRequest(service: "MyService")).value(of: "policy.max_attempts") == "1")
    }

    @Test("what the simulator does not model is refused with its path, or said on stderr when listed to ignore")
    func notModelled() throws {
        let config = "{\"loadBalancingConfig\": [{\"round_robin\": {}}], \"methodConfig\": [{\"name\": [{}], \"waitForReady\": true}]}"
        #expect(S.refusal(config)?.hasPrefix("svc.json:1:25: field 'loadBalancingConfig': load balancing and health checks are not modelled") == true)
        let ignored = try S.importing(config, PolicyImportRequest(ignore: ["loadBalancingConfig", "methodConfig.waitForReady"]))
        #expect(ignored.notes.filter { $0.contains("ignored as asked") }.count == 2)
    }

    @Test("bad files are one line naming the file and where: malformed JSON, YAML that is not JSON, not a mapping, empty, alias bombs, too large")
    func badFiles() {
        #expect(S.refusal("{\"methodConfig\": [,]}")?.hasPrefix("svc.json:1:") == true)
        #expect(S.refusal("methodConfig: []\n")?.hasPrefix("svc.json: is not JSON, and a gRPC service config is JSON") == true)
        #expect(S.refusal("[1, 2]") == "svc.json:1:1: expected a mapping at the top level (got a list)")
        #expect(S.refusal("") == "svc.json:1: is empty: expected a policy file")
        var bomb = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        for n in 1...6 { bomb += "a\(n): &a\(n) [" + Array(repeating: "*a\(n == 1 ? "" : String(n - 1))", count: 10).joined(separator: ", ") + "]\n" }
        #expect(
            S.refusal(bomb, PolicyImportRequest(format: .envoy))
                == "svc.json: has more than 100,000 values once its YAML aliases are expanded; a policy file holds at most that many")
        let huge = "{\"methodConfig\": []}" + String(repeating: " ", count: PolicyImporter.maxBytes)
        #expect(S.refusal(huge) == "svc.json: holds more than 4,194,304 bytes; a policy file is at most that")
    }

    /// The files of the round trip: A6's example, a method with every kind of code, and no retryPolicy.
    static let roundTripCases: [String] = [
        a6Example,
        """
        {"methodConfig": [{"name": [{"service": "shop.Cart", "method": "Checkout"}], "timeout": "2.5s",
          "retryPolicy": {"maxAttempts": 5, "initialBackoff": "0.025s", "maxBackoff": "3s", "backoffMultiplier": 1.6,
            "retryableStatusCodes": ["UNAVAILABLE", "RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED", "ABORTED", "ALREADY_EXISTS"]}}]}
        """,
        "{\"methodConfig\": [{\"name\": [{\"service\": \"shop.Cart\", \"method\": \"Checkout\"}], \"timeout\": \"1s\"}]}"
    ]

    @Test("import, export, import gives the same keys and the same policy, and the export loses nothing", arguments: roundTripCases)
    func roundTrip(_ text: String) throws {
        let request = text.contains("shop.Cart") ? PolicyImportRequest(service: "shop.Cart", method: "Checkout") : PolicyImportRequest()
        try S.checkRoundTrip(text, request, file: "svc.json")
    }
}
