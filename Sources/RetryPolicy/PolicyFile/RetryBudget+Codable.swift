/// A retry budget in a policy file (``RetryPolicyFile``): its `kind` and that kind's parameters,
/// named as in the scenario files where they have a name there.
///
/// | kind | fields |
/// |---|---|
/// | `unlimited` | — |
/// | `per-run` | `retries` |
/// | `token-bucket` | `capacity` (tokens), `refill_per_second` |
/// | `grpc` | `max_tokens` (1…1000), `token_ratio` |
/// | `aws` | `capacity`, `retry_cost`, `timeout_cost`, `throttling_cost`, `success_refund` (tokens) |
/// | `ratio` | `ttl` (duration), `min_per_second`, `percent`, `per_request` |
/// | `envoy` | `percent`, `min_concurrency` |
extension RetryBudget {
    static let kinds: [(name: String, fields: [String])] = [
        ("unlimited", []), ("per-run", ["retries"]), ("token-bucket", ["capacity", "refill_per_second"]),
        ("grpc", ["max_tokens", "token_ratio"]),
        ("aws", ["capacity", "retry_cost", "timeout_cost", "throttling_cost", "success_refund"]),
        ("ratio", ["ttl", "min_per_second", "percent", "per_request"]), ("envoy", ["percent", "min_concurrency"])
    ]

    /// Reads `kind` and exactly that kind's fields (table above), e.g.
    /// `{"kind": "per-run", "retries": 100}`; whole counts in 0…2³¹−1 (`max_tokens` 1…1000), `ttl` at
    /// least 1 ns, every other number finite and ≥ 0 (`token_ratio` > 0, `per_request` ≤ 1).
    ///
    /// - Throws: `DecodingError` naming the field that is missing, unknown or out of range.
    public init(from decoder: any Decoder) throws {
        let anyKind = try PolicyJSON.Reader(decoder, fields: ["kind"] + Self.kinds.flatMap(\.fields))
        let kind = try anyKind.name("kind", Self.kinds.map { ($0.name, $0) })
        let r = try PolicyJSON.Reader(decoder, fields: ["kind"] + kind.fields)
        let count = 0...Int(Int32.max)
        switch kind.name {
        case "unlimited":
            self = .unlimited
        case "per-run":
            self = .perRun(retries: try r.int("retries", in: count))
        case "token-bucket":
            self = .tokenBucket(
                TokenBucket(
                    capacity: try r.number("capacity", in: 0...1e12),
                    refillPerSecond: try r.number("refill_per_second", in: 0...1e12)))
        case "grpc":
            self = .grpc(
                GRPCRetryThrottling(
                    maxTokens: try r.int("max_tokens", in: 1...1000),
                    tokenRatio: try r.number("token_ratio", in: 0...1000, open: true)))
        case "aws":
            self = .aws(
                AWSRetryQuota(
                    capacity: try r.int("capacity", in: count), retryCost: try r.int("retry_cost", in: count),
                    timeoutCost: try r.int("timeout_cost", in: count), throttlingCost: try r.int("throttling_cost", in: count),
                    noRetryIncrement: try r.int("success_refund", in: count)))
        case "ratio":
            self = .ratio(
                FinagleRetryBudget(
                    ttl: try r.duration("ttl", minimum: 1), minRetriesPerSecond: try r.number("min_per_second", in: 0...1e12),
                    percentCanRetry: try r.number("percent", in: 0...1000), maxRetriesPerRequest: try r.number("per_request", in: 0...1)))
        default:
            self = .envoy(
                EnvoyRetryBudget(
                    percent: try r.number("percent", in: 0...1e6),
                    minConcurrency: try r.int("min_concurrency", in: count)))
        }
    }

    /// Writes `kind` and that kind's fields: a library's defaults are written by structure (Finagle's
    /// `RetryBudget()` as `ratio` with its numbers), not by the library's name.
    public func encode(to encoder: any Encoder) throws {
        var w = PolicyJSON.Writer(encoder)
        switch self {
        case .unlimited:
            try w.encode("unlimited", "kind")
        case .perRun(let n):
            try w.encode("per-run", "kind")
            try w.encode(n, "retries")
        case .tokenBucket(let b):
            try w.encode("token-bucket", "kind")
            try w.encode(b.capacity, "capacity")
            try w.encode(b.refillPerSecond, "refill_per_second")
        case .grpc(let g):
            try w.encode("grpc", "kind")
            try w.encode(g.maxTokens, "max_tokens")
            try w.encode(g.tokenRatio, "token_ratio")
        case .aws(let q):
            try w.encode("aws", "kind")
            try w.encode(q.capacity, "capacity")
            try w.encode(q.retryCost, "retry_cost")
            try w.encode(q.timeoutCost, "timeout_cost")
            try w.encode(q.throttlingCost, "throttling_cost")
            try w.encode(q.noRetryIncrement, "success_refund")
        case .ratio(let f):
            try w.encode("ratio", "kind")
            try w.duration(f.ttl, "ttl")
            try w.encode(f.minRetriesPerSecond, "min_per_second")
            try w.encode(f.percentCanRetry, "percent")
            try w.encode(f.maxRetriesPerRequest, "per_request")
        case .envoy(let e):
            try w.encode("envoy", "kind")
            try w.encode(e.percent, "percent")
            try w.encode(e.minConcurrency, "min_concurrency")
        }
    }
}
