import Foundation
import RetryStormScenario
import Testing

/// What a gRPC service config's or Envoy's retry settings mean, as values to compare: counts,
/// durations in nanoseconds, status codes and conditions — every default filled in as the
/// format's documentation gives it, so that a file that writes a default and one that leaves it
/// out mean the same. The round-trip tests compare export(import(x)) with x through this, not
/// by keys, which cannot see a code list widened or a field dropped.
enum PolicyMeaning {
    /// `"0.25s"` → 250 000 000, exactly (seconds with up to nine fractional digits).
    static func nanoseconds(_ text: Any?) -> Int64? {
        guard let t = text as? String, t.hasSuffix("s") else { return nil }
        let parts = t.dropLast().split(separator: ".", omittingEmptySubsequences: false)
        guard let whole = Int64(parts[0]) else { return nil }
        let fraction = parts.count > 1 ? Int64(parts[1].padding(toLength: 9, withPad: "0", startingAt: 0)) ?? 0 : 0
        return whole * 1_000_000_000 + fraction
    }

    /// gRPC's status codes by number (`google/rpc/code.proto`), to read a code written as a number.
    static let codeNames = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
        "UNAUTHENTICATED"
    ]

    static func codes(_ list: Any?) -> [String] {
        ((list as? [Any]) ?? []).map { ($0 as? String) ?? codeNames[($0 as? Int) ?? 0] }
    }

    /// The methodConfig of a service config at `index` (its only one, by default), with the
    /// throttling, as `field: value` lines in a fixed order. gRFC A6: maxAttempts above 5 is 5;
    /// hedgingDelay defaults to 0s; no nonFatalStatusCodes is none.
    static func grpc(_ text: String, index: Int = 0) throws -> [String] {
        let top = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let configs = (top["methodConfig"] as? [[String: Any]]) ?? []
        var out: [String] = []
        if configs.indices.contains(index) {
            let m = configs[index]
            if let r = m["retryPolicy"] as? [String: Any] {
                out.append("retry.maxAttempts \(min(5, (r["maxAttempts"] as? Int) ?? 0))")
                out.append("retry.initialBackoff \(nanoseconds(r["initialBackoff"]) ?? -1)")
                out.append("retry.maxBackoff \(nanoseconds(r["maxBackoff"]) ?? -1)")
                out.append("retry.backoffMultiplier \((r["backoffMultiplier"] as? NSNumber)?.doubleValue ?? -1)")
                out.append("retry.codes \(codes(r["retryableStatusCodes"]))")
            }
            if let h = m["hedgingPolicy"] as? [String: Any] {
                out.append("hedging.maxAttempts \(min(5, (h["maxAttempts"] as? Int) ?? 0))")
                out.append("hedging.hedgingDelay \(nanoseconds(h["hedgingDelay"]) ?? 0)")
                out.append("hedging.codes \(codes(h["nonFatalStatusCodes"]))")
            }
            out.append("timeout \(nanoseconds(m["timeout"]) ?? 0)")
        }
        if let t = top["retryThrottling"] as? [String: Any] {
            out.append("throttling \((t["maxTokens"] as? Int) ?? 0) \((t["tokenRatio"] as? NSNumber)?.doubleValue ?? 0)")
        }
        return out
    }
}
