import Foundation
import RetryPolicy
import Testing

/// The policy file format: what it looks like, that every preset comes back equal, and that bad
/// files are refused with the field named. (The presets' decisions through a file are checked
/// with every vector test's `Route.policyFile`.)
struct PolicyFileTests {
    static func encode(_ file: RetryPolicyFile) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(file), as: UTF8.self)
    }

    /// The message decoding `json` fails with, or nil if it decodes.
    static func refusal(_ json: String) -> String? {
        do {
            _ = try JSONDecoder().decode(RetryPolicyFile.self, from: Data(json.utf8))
            return nil
        } catch {
            return RetryPolicyFile.message(for: error)
        }
    }

    /// A valid file of `policy` as a JSON object, edited by `edit`, back to text.
    static func edited(_ policy: RetryPolicy = .offlineFirst, _ edit: (inout [String: Any]) -> Void) throws -> String {
        let data = try JSONEncoder().encode(RetryPolicyFile(policy: policy))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        edit(&object)
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// Sets `value` at `path` inside `object`, creating nothing: the path must exist but its last field.
    static func set(_ object: inout [String: Any], _ path: [String], _ value: Any?) {
        guard let first = path.first else { return }
        if path.count == 1 {
            object[first] = value
            return
        }
        var inner = object[first] as! [String: Any]
        set(&inner, Array(path.dropFirst()), value)
        object[first] = inner
    }

    /// The AWS SDKs' 2026 standard mode (botocore `retries/standard.py` with
    /// `AWS_NEW_RETRIES_2026=true`; aws-sdk-go-v2 `retry2026_test.go`): 3 attempts, full jitter
    /// over 50 ms × 2^(n−1) up to 20 s, 1 s for throttling, `x-amz-retry-after` clamped to
    /// [t, t + 5 s], quota 500 with costs 14 and 5. This text is the README's example.
    @Test("the file of aws-standard-2026, field by field")
    func awsStandard2026File() throws {
        let text = try Self.encode(RetryPolicyFile(policy: .awsStandard2026, source: "preset aws-standard-2026"))
        #expect(
            text == """
                {
                  "policy" : {
                    "ambiguity" : {
                      "idempotency" : "key",
                      "reconcile" : false,
                      "reconcile_delay" : "0s"
                    },
                    "auth" : {
                      "max_refreshes" : 1,
                      "refresh_delay" : "0s"
                    },
                    "backoff" : {
                      "base" : "50ms",
                      "cap_after_jitter" : false,
                      "exponent_offset" : 0,
                      "first_retry" : "scheduled",
                      "jitter" : "full",
                      "jitter_fraction" : null,
                      "kind" : "exponential",
                      "max" : "20s",
                      "multiplier" : 2,
                      "plateau_unjittered" : false,
                      "step_rounding" : "0s"
                    },
                    "breaker" : null,
                    "budget" : {
                      "capacity" : 500,
                      "kind" : "aws",
                      "retry_cost" : 14,
                      "success_refund" : 1,
                      "throttling_cost" : 5,
                      "timeout_cost" : 14
                    },
                    "classify" : {
                      "auth_statuses" : "none",
                      "hinted_statuses" : "none",
                      "only_unprocessed" : false,
                      "permanent_statuses" : "none",
                      "retry_conflict" : false,
                      "retry_everything" : false,
                      "retry_timeouts" : true,
                      "retry_transient_codes" : true,
                      "retry_transport" : true,
                      "retry_unlisted" : false,
                      "retryable_statuses" : "500,502-504",
                      "throttling_codes" : true,
                      "throttling_statuses" : "none"
                    },
                    "concurrency" : null,
                    "cool_off" : null,
                    "max_attempts" : 3,
                    "max_elapsed" : null,
                    "retry_after" : {
                      "ceiling" : "6h",
                      "clamp" : "5s",
                      "discard_above_ceiling" : false,
                      "mode" : "clamp",
                      "negative_stops" : false
                    },
                    "schedule_on_restart" : "reset",
                    "throttle" : null,
                    "throttling_base" : "1s"
                  },
                  "retrystorm_policy" : 1,
                  "source" : "preset aws-standard-2026"
                }
                """)
    }

    @Test("every preset comes back from its file equal, whatever parts it has", arguments: RetryPolicy.presets.map(\.name))
    func presetRoundTrip(_ name: String) throws {
        let p = try #require(RetryPolicy.preset(named: name))
        #expect(try Route.policyFile.apply(p) == p)
    }

    /// Finagle's breaker (failure accrual, a jittered open time), the offline-first chapter's
    /// breaker, concurrency lanes and reconciliation, resilience4j's `fail-attempt`: the parts only
    /// some presets have, written as the file shows them.
    @Test("breakers, limits and reconciliation as written: offline-first and finagle")
    func parts() throws {
        let offline = try Self.encode(RetryPolicyFile(policy: .offlineFirst))
        #expect(
            offline.contains(
                """
                    "breaker" : {
                      "comparison" : "above",
                      "evaluate_on_success" : true,
                      "kind" : "count",
                      "min_calls" : 1,
                      "min_failures" : 5,
                      "open_duration" : {
                        "base" : "30s",
                """))
        #expect(
            offline.contains(
                """
                      "records" : [
                        "transient-network",
                        "timeout",
                        "server-error",
                        "throttled",
                        "overloaded"
                      ],
                      "threshold" : 0.5,
                      "when_open" : "wait",
                      "window_calls" : 20
                    },
                """))
        #expect(
            offline.contains(
                """
                    "concurrency" : {
                      "background_max" : 2,
                      "max_in_flight" : 4,
                      "when_full" : "wait"
                    },
                """))
        #expect(offline.contains(#""max_elapsed" : "24h""#) && offline.contains(#""reconcile" : true"#))
        let finagle = try Self.encode(RetryPolicyFile(policy: .finagle))
        #expect(finagle.contains(#""consecutive" : 5"#) && finagle.contains(#""when_open" : "reject""#))
        #expect(finagle.contains(#""ttl" : "10s""#) && finagle.contains(#""per_request" : 0.2"#))
        #expect(finagle.contains(#""max_attempts" : 2147483647"#))
        let grpc = try Self.encode(RetryPolicyFile(policy: .grpc))
        #expect(grpc.contains(#""ceiling" : "never""#) && grpc.contains(#""jitter_fraction" : 0.2"#))
        #expect(grpc.contains(#""max_tokens" : 10"#) && grpc.contains(#""token_ratio" : 0.1"#))
    }

    @Test("durations: the largest exact unit, to the nanosecond; never for Int64.max; every failure kind has a name")
    func durationsAndNames() throws {
        var p = RetryPolicy(
            backoff: Backoff(kind: .exponential, base: 7, max: 90 * second, stepRounding: 1500 * 1000),
            maxAttempts: 2, coolOff: 2 * 3600 * second + 1, authRefreshDelay: 250 * ms)
        p.breaker = CircuitBreaker(
            window: .time(150 * second), openDuration: CircuitBreaker.fixed(.max),
            records: FailureKindSet(rawValue: (1 << FailureKind.allCases.count) - 1))
        let text = try Self.encode(RetryPolicyFile(policy: p))
        for field in [
            #""base" : "7ns""#, #""max" : "90s""#, #""step_rounding" : "1500us""#, #""cool_off" : "7200000000001ns""#,
            #""refresh_delay" : "250ms""#, #""window_time" : "150s""#, #""base" : "never""#
        ] {
            #expect(text.contains(field), "\(field)")
        }
        #expect(try Route.policyFile.apply(p) == p)
        #expect(try Route.policyFile.apply(p).breaker?.records.rawValue == (1 << FailureKind.allCases.count) - 1)
    }

    @Test("status lists: runs as ranges, none when empty; parsed back with spaces; out of range refused")
    func statusText() {
        #expect(StatusSet([500, 502, 503, 504]).text == "500,502-504")
        #expect(StatusSet(500...599).text == "500-599")
        #expect(StatusSet().text == "none")
        #expect(StatusSet([0, 639, 429]).text == "0,429,639")
        #expect(StatusSet(text: "500, 502-504") == StatusSet([500, 502, 503, 504]))
        #expect(StatusSet(text: "none") == StatusSet() && StatusSet(text: "") == StatusSet())
        for bad in ["640", "504-502", "5xx", "500,", "-1", "500-", "1-2-3"] { #expect(StatusSet(text: bad) == nil, "\(bad)") }
    }

    @Test("a file names where it came from, and may leave that out")
    func source() throws {
        let file = RetryPolicyFile(policy: .grpc, source: "experiments/x.yaml, variant full")
        let back = try JSONDecoder().decode(RetryPolicyFile.self, from: JSONEncoder().encode(file))
        #expect(back == file)
        let unsourced = try Self.edited(.grpc) { $0["source"] = nil }
        #expect(Self.refusal(unsourced) == nil)
    }

    /// A bad file: a valid one with the value at `path` replaced (or removed), and the one line
    /// it is refused with — the field, then what is wrong.
    struct BadFile: Sendable, CustomTestStringConvertible {
        enum Value: Sendable {
            case remove, null
            case int(Int)
            case number(Double)
            case string(String)
            case strings([String])

            var json: Any? {
                switch self {
                case .remove: nil
                case .null: NSNull()
                case .int(let v): v
                case .number(let v): v
                case .string(let v): v
                case .strings(let v): v
                }
            }
        }

        let name: String
        let path: [String]
        let value: Value
        let message: String
        init(_ name: String, _ path: [String], _ value: Value, _ message: String) {
            self.name = name
            self.path = path
            self.value = value
            self.message = message
        }
        var testDescription: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(
            "version 3", ["retrystorm_policy"], .int(3),
            "retrystorm_policy: version 3 is not supported: this RetryPolicy reads versions 1 to 2, a newer format than this library's: update RetryPolicy"
        ),
        BadFile(
            "version 0", ["retrystorm_policy"], .int(0),
            "retrystorm_policy: version 0 is not supported: this RetryPolicy reads versions 1 to 2"),
        BadFile("no version", ["retrystorm_policy"], .remove, #"not a RetryStorm policy file (no "retrystorm_policy" version field)"#),
        BadFile("version as text", ["retrystorm_policy"], .string("1"), "retrystorm_policy: expected a whole number"),
        BadFile("no policy", ["policy"], .remove, "policy: missing"),
        BadFile("unknown top-level field", ["policies"], .int(1), "policies: unknown field (this object has retrystorm_policy, source, policy)"),
        BadFile("missing field", ["policy", "backoff", "max"], .remove, "policy.backoff.max: missing"),
        BadFile(
            "unknown field", ["policy", "backoff", "bse"], .string("1s"),
            "policy.backoff.bse: unknown field (this object has kind, base, max, multiplier, jitter, jitter_fraction, "
                + "exponent_offset, cap_after_jitter, first_retry, plateau_unjittered, step_rounding)"),
        BadFile("negative duration", ["policy", "backoff", "base"], .string("-1s"), #"policy.backoff.base: must not be negative (got "-1s")"#),
        BadFile(
            "fractional duration", ["policy", "backoff", "max"], .string("1.5s"),
            #"policy.backoff.max: expected a duration: a whole number and a unit (ns, us, ms, s, m, h), e.g. "250ms", or "never" (got "1.5s")"#),
        BadFile("duration as a number", ["policy", "max_elapsed"], .int(5), "policy.max_elapsed: expected a string"),
        BadFile("null where a value must be", ["policy", "backoff", "base"], .null, "policy.backoff.base: expected a string, not null"),
        BadFile(
            "unknown jitter", ["policy", "backoff", "jitter"], .string("fulll"),
            #"policy.backoff.jitter: expected one of none, full, equal, decorrelated, decorrelated-v2, proportional, additive (got "fulll")"#),
        BadFile(
            "fraction for full jitter", ["policy", "backoff", "jitter_fraction"], .number(0.5),
            "policy.backoff.jitter_fraction: must be null for jitter full (only proportional and additive take one)"),
        BadFile("zero attempts", ["policy", "max_attempts"], .int(0), "policy.max_attempts: must be from 1 to 2147483647 (got 0)"),
        BadFile(
            "unknown budget kind", ["policy", "budget", "kind"], .string("quota"),
            #"policy.budget.kind: expected one of unlimited, per-run, token-bucket, grpc, aws, ratio, envoy (got "quota")"#),
        BadFile(
            "another kind's field", ["policy", "budget", "retry_cost"], .int(5),
            "policy.budget.retry_cost: unknown field (this object has kind, retries)"),
        BadFile(
            "threshold 0", ["policy", "breaker", "threshold"], .int(0),
            "policy.breaker.threshold: must be a number more than 0.0 and at most 1.0 (got 0.0)"),
        BadFile("window too large", ["policy", "breaker", "window_calls"], .int(257), "policy.breaker.window_calls: must be from 1 to 256 (got 257)"),
        BadFile(
            "unknown failure kind", ["policy", "breaker", "records"], .strings(["timeout", "5xx"]),
            "policy.breaker.records[1]: expected failure kinds among transient-network, timeout, server-error, throttled, auth-expired, "
                + #"permanent, conflict, local-resource, overloaded, other-status, circuit-open (got "5xx")"#),
        BadFile(
            "status out of range", ["policy", "classify", "retryable_statuses"], .string("500-700"),
            #"policy.classify.retryable_statuses: expected statuses such as "500,502-504" (each 0…639), or "none" (got "500-700")"#),
        BadFile(
            "clamp without the clamp mode", ["policy", "retry_after", "clamp"], .string("5s"),
            "policy.retry_after.clamp: must be null unless mode is clamp"),
        BadFile(
            "background above the limit", ["policy", "concurrency", "background_max"], .int(5),
            "policy.concurrency.background_max: must be from 1 to 4 (got 5)"),
        BadFile(
            "unknown idempotency", ["policy", "ambiguity", "idempotency"], .string("maybe"),
            #"policy.ambiguity.idempotency: expected one of key, none, no-retry (got "maybe")"#),
        BadFile("missing auth field", ["policy", "auth", "refresh_delay"], .remove, "policy.auth.refresh_delay: missing")
    ]

    @Test("bad files are refused with the field named", arguments: badFiles)
    func refusals(_ c: BadFile) throws {
        let json = try Self.edited { Self.set(&$0, c.path, c.value.json) }
        #expect(Self.refusal(json) == c.message)
    }

    /// The version rises only with a field older readers refuse (RetryStorm 0.2.0's reader takes
    /// version 1 and refuses `hedging` as an unknown field): a policy without hedging is written
    /// as version 1, one with hedging as 2, and a version 1 file that carries hedging is refused.
    @Test("a file is written with the oldest version that holds it; hedging needs version 2")
    func versions() throws {
        var hedged = RetryPolicy.grpc
        hedged.hedging = Hedging(delay: .fixed(100_000_000), maxAttempts: 2)
        #expect(RetryPolicyFile(policy: .grpc).writtenVersion == 1)
        #expect(RetryPolicyFile(policy: hedged).writtenVersion == 2)
        #expect(try Self.encode(RetryPolicyFile(policy: .grpc)).contains(#""retrystorm_policy" : 1,"#))
        let text = try Self.encode(RetryPolicyFile(policy: hedged))
        #expect(text.contains(#""retrystorm_policy" : 2,"#))
        #expect(try JSONDecoder().decode(RetryPolicyFile.self, from: Data(text.utf8)).policy == hedged)
        // Version 1 files of every preset still decode (the format's first readers wrote them).
        for (name, p) in RetryPolicy.presets {
            let v1 = try Self.edited(p) { Self.set(&$0, ["retrystorm_policy"], 1) }
            #expect(Self.refusal(v1) == nil, "\(name)")
        }
        let relabelled = text.replacingOccurrences(of: #""retrystorm_policy" : 2"#, with: #""retrystorm_policy" : 1"#)
        #expect(
            Self.refusal(relabelled)
                == #"policy.hedging: not in version 1 of the format: hedging came in version 2 (set "retrystorm_policy": 2)"#)
    }

    @Test("not JSON at all, and JSON that is not an object, are refused too")
    func notAPolicyFile() {
        #expect(Self.refusal("{") != nil)
        #expect(Self.refusal("[1, 2]") == "the file: expected an object")
    }
}
