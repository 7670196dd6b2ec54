import RetryStormScenario
import Testing

/// Durations and counts of gRPC service configs and Envoy files past what the simulator holds
/// (``InputBounds``: 30 days, 10^9) are refused at their field, naming the largest accepted,
/// where they once trapped: `"315576000000s"` (the longest protobuf Duration) overflowed
/// seconds × 10^9, `num_retries: 9223372036854775807` overflowed num_retries + 1.
struct PolicyFormatBoundsTests {
    typealias S = PolicyFormatSupport

    /// A retry policy with `field` replaced by `value`, all on line 1.
    static func grpc(_ field: String, _ value: String) -> String {
        let fields = [
            ("maxAttempts", "3"), ("initialBackoff", "\"0.1s\""), ("maxBackoff", "\"1s\""), ("backoffMultiplier", "2"),
            ("retryableStatusCodes", "[\"UNAVAILABLE\"]")
        ]
        let retry = fields.map { "\"\($0.0)\": \($0.0 == field ? value : $0.1)" }.joined(separator: ", ")
        return "{\"methodConfig\": [{\"timeout\": \(field == "timeout" ? value : "\"2s\""), \"retryPolicy\": {\(retry)}}]}"
    }

    static let longest = "must be at most 2592000s, the longest duration the simulator takes"

    @Test("2592000s (30 days) is the longest duration a file may give, taken exactly: 720h")
    func atBound() throws {
        #expect(try S.importing(Self.grpc("timeout", "\"2592000s\"")).value(of: "policy.max_elapsed") == "720h")
        let envoy = try S.importing("retry_policy: {retry_on: 5xx, per_try_timeout: 2592000s}\n", file: "envoy.yaml")
        #expect(envoy.value(of: "clients.timeout") == "720h")
    }

    @Test(
        "a gRPC duration past 30 days is refused at its field with the value and the bound",
        arguments: [
            ("timeout", "\"315576000000s\"", "svc.json:1:31: field 'methodConfig[0].timeout': \(longest) (got '315576000000s')"),
            ("timeout", "\"2592000.000000001s\"", "svc.json:1:31: field 'methodConfig[0].timeout': \(longest) (got '2592000.000000001s')"),
            (
                "initialBackoff", "\"9223372036854775808s\"",
                "svc.json:1:89: field 'methodConfig[0].retryPolicy.initialBackoff': \(longest) (got '9223372036854775808s')"
            ),
            (
                "maxBackoff", "\"99999999999999999999999999999s\"",
                "svc.json:1:111: field 'methodConfig[0].retryPolicy.maxBackoff': \(longest) (got '99999999999999999999999999999s')"
            ),
            ("timeout", "\"-315576000000s\"", "svc.json:1:31: field 'methodConfig[0].timeout': must not be negative (got '-315576000000s')")
        ])
    func grpcDurations(_ field: String, _ value: String, _ message: String) {
        #expect(S.refusal(Self.grpc(field, value)) == message)
    }

    @Test(
        "gRPC counts past their range, however large, are refused naming the range: maxAttempts is a uint32, maxTokens 1…1000",
        arguments: [
            (
                "{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": 9223372036854775807}}]}",
                "svc.json:1:51: field 'methodConfig[0].retryPolicy.maxAttempts': must be at most 4294967295, a uint32 (service_config.proto; got 9223372036854775807)"
            ),
            (
                "{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": -9223372036854775808}}]}",
                "svc.json:1:51: field 'methodConfig[0].retryPolicy.maxAttempts': must be more than 1 (gRFC A6; got -9223372036854775808)"
            ),
            (
                "{\"retryThrottling\": {\"maxTokens\": 18446744073709551616, \"tokenRatio\": 0.1}}",
                "svc.json:1:35: field 'retryThrottling.maxTokens': must be 1…1000 (gRFC A6; got 18446744073709551616)"
            ),
            (
                "{\"retryThrottling\": {\"maxTokens\": 10, \"tokenRatio\": 1e308}}",
                "svc.json:1:53: field 'retryThrottling.tokenRatio': must be at most 1000, the most policy.budget.token_ratio takes (got 1e+308)"
            ),
            (
                "{\"retryThrottling\": {\"maxTokens\": 1e30, \"tokenRatio\": 0.1}}",
                "svc.json:1:35: field 'retryThrottling.maxTokens': must be 1…1000 (gRFC A6; got 1e30)"
            )
        ])
    func grpcCounts(_ text: String, _ message: String) {
        #expect(S.refusal(text) == message)
    }

    @Test("maxAttempts 4294967295, the largest uint32, is a service config: taken as 5 (gRFC A6)")
    func largestAttempts() throws {
        #expect(try S.importing(Self.grpc("maxAttempts", "4294967295")).value(of: "policy.max_attempts") == "5")
    }

    @Test(
        "Envoy durations and counts past the bound are refused at their field naming the largest accepted",
        arguments: [
            (
                "retry_policy: {num_retries: 9223372036854775807}",
                "envoy.yaml:1:29: field 'retry_policy.num_retries': must be at most 999999: num_retries + 1 is policy.max_attempts, at most 1000000 (got 9223372036854775807)"
            ),
            (
                "retry_policy: {num_retries: 4294967295}",
                "envoy.yaml:1:29: field 'retry_policy.num_retries': must be at most 999999: num_retries + 1 is policy.max_attempts, at most 1000000 (got 4294967295)"
            ),
            (
                "retry_policy: {per_try_timeout: 315576000000s}",
                "envoy.yaml:1:33: field 'retry_policy.per_try_timeout': \(longest) (got '315576000000s')"
            ),
            (
                "timeout: 1e30s",
                "envoy.yaml:1:10: field 'timeout': expected a duration in seconds with an s, such as \"0.1s\" or \"2s\" (got '1e30s')"
            ),
            (
                "retry_policy: {retry_back_off: {base_interval: 0.1s, max_interval: 9223372036854775808s}}",
                "envoy.yaml:1:68: field 'retry_policy.retry_back_off.max_interval': \(longest) (got '9223372036854775808s')"
            ),
            (
                "retry_policy: {retry_back_off: {base_interval: 259200.001s}}",
                "envoy.yaml:1:48: field 'retry_policy.retry_back_off.base_interval': must be at most 259200s without a max_interval, whose default 10 × base_interval must be at most 2592000s, the longest duration the simulator takes (got '259200.001s')"
            ),
            (
                "retry_policy: {rate_limited_retry_back_off: {reset_headers: [{name: Retry-After}], max_interval: 315576000000s}}",
                "envoy.yaml:1:98: field 'retry_policy.rate_limited_retry_back_off.max_interval': \(longest) (got '315576000000s')"
            ),
            (
                "retry_policy: {retry_on: retriable-status-codes, retriable_status_codes: [9223372036854775808]}",
                "envoy.yaml:1:75: field 'retry_policy.retriable_status_codes[0]': is not an HTTP status 100…599 (got 9223372036854775808)"
            ),
            (
                "circuit_breakers: {thresholds: [{max_requests: 18446744073709551616}]}",
                "envoy.yaml:1:48: field 'circuit_breakers.thresholds[0].max_requests': must be at most 1000000000, the most policy.concurrency.max_in_flight takes (got 18446744073709551616)"
            ),
            (
                "circuit_breakers: {thresholds: [{max_retries: 9223372036854775807}]}",
                "envoy.yaml:1:47: field 'circuit_breakers.thresholds[0].max_retries': must be at most 1000000, the most policy.budget.min_concurrency takes (got 9223372036854775807)"
            ),
            (
                "circuit_breakers: {thresholds: [{retry_budget: {min_retry_concurrency: -9223372036854775808}}]}",
                "envoy.yaml:1:72: field 'circuit_breakers.thresholds[0].retry_budget.min_retry_concurrency': must not be negative (got -9223372036854775808)"
            )
        ])
    func envoy(_ text: String, _ message: String) {
        #expect(S.refusal(text + "\n", file: "envoy.yaml") == message)
    }

    @Test("base_interval 259200s (3 days) without max_interval is the most: its default max_interval is 30 days, 720h")
    func longestBase() throws {
        let imported = try S.importing("retry_policy: {retry_on: 5xx, retry_back_off: {base_interval: 259200s}}\n", file: "envoy.yaml")
        #expect(imported.value(of: "policy.backoff.max") == "720h")
    }

    @Test("num_retries 999999 is the most: policy.max_attempts 1000000")
    func mostRetries() throws {
        let imported = try S.importing("retry_policy: {retry_on: 5xx, num_retries: 999999}\n", file: "envoy.yaml")
        #expect(imported.value(of: "policy.max_attempts") == "1000000")
    }
}
