/// The longest duration and the largest count that any input may give the simulator: a scenario
/// key, an option, a row of a CSV curve, a field of an imported gRPC service config or Envoy
/// file. Every parser refuses a value past them (exit 2, naming the largest accepted), so no
/// arithmetic on a user's number can overflow.
///
/// Why these two values: the engine's times are Int64 nanoseconds (at most 2^63 − 1, about
/// 9.2 × 10^18, 292 years). A time it computes is a start within the horizon plus a few
/// durations (a timeout, a backoff, a deadline): with every term at most ``maxDuration`` (30
/// days, 2.6 × 10^15 ns), even a thousand of them add up to 2.6 × 10^18, under Int64's limit.
/// Counts (clients, attempts, queue places, tokens) are at most ``maxCount`` (10^9), so the
/// product of any two (attempts per operation × clients, places × workers) is at most 10^18,
/// under it too. A protobuf Duration may be as long as 315,576,000,000 s (10,000 years), an
/// Envoy `num_retries` as large as 2^32 − 1: those are refused, not wrapped or trapped.
package enum InputBounds {
    /// 30 days, nanoseconds: the longest horizon and the longest duration of any key.
    package static let maxDuration: Int64 = 30 * 86_400 * 1_000_000_000

    /// The longest duration in whole seconds (2,592,000), as the protobuf formats write it.
    package static let maxDurationSeconds: Int64 = maxDuration / 1_000_000_000

    /// The largest count of anything: one billion.
    package static let maxCount = 1_000_000_000
}
