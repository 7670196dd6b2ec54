/// gRPC's client retry throttling (gRFC A6 `retryThrottling`, grpc-go `clientconn.go`
/// `retryThrottler`): per server name, a token count in [0, maxTokens] starting full; each failed
/// attempt with a retryable code (or a "don't retry" pushback) takes 1, each successful RPC returns
/// `tokenRatio`; no retry is sent while the count is ≤ maxTokens / 2. grpc-go takes the token
/// before it tests, so the failure that reaches the threshold is itself not retried.
///
/// Counts are kept in thousandths of a token, the precision A6 gives `tokenRatio` (3 decimals), so
/// the arithmetic is exact.
public struct GRPCRetryThrottling: Sendable, Hashable {
    /// In (0, 1000].
    public var maxTokens: Int
    /// > 0, 3 decimals.
    public var tokenRatio: Double

    /// gRPC's `retryThrottling` config: `maxTokens` in (0, 1000], `tokenRatio` > 0 (read to 3
    /// decimals, as A6 says). Not checked here; the policy file refuses values out of range.
    public init(maxTokens: Int, tokenRatio: Double) {
        self.maxTokens = maxTokens
        self.tokenRatio = tokenRatio
    }

    /// The A6 proposal's example configuration: maxTokens 10, tokenRatio 0.1 (throttles once
    /// failures exceed roughly 10 % of successes).
    public static let a6Example = GRPCRetryThrottling(maxTokens: 10, tokenRatio: 0.1)

    /// `maxTokens` in thousandths of a token: the count when full, and at start.
    @inlinable public var maxMilliTokens: Int64 { Int64(maxTokens) * 1000 }
    /// `maxTokens / 2` in thousandths of a token: retries are sent only while the count is above it.
    @inlinable public var thresholdMilliTokens: Int64 { Int64(maxTokens) * 500 }
    /// `tokenRatio` in thousandths of a token (rounded to the nearest): what a success returns.
    @inlinable public var ratioMilliTokens: Int64 { Int64((tokenRatio * 1000).rounded()) }
}
