@_spi(Simulation) import RetryPolicy
import RetryStormEngine

/// Grid points that are the same configuration in effect: a swept value that cannot change what
/// the simulation does at that point is replaced by `*`, and points with the same key are run once.
///
/// A swept value is inert when:
/// - `policy.backoff.max` is at or above every delay the schedule can reach before it is capped,
///   with these attempts, base, multiplier and jitter (the cap never binds);
/// - `policy.backoff.base` or `max` with `policy.backoff.kind: none`;
/// - `policy.backoff.multiplier` with a backoff that is not exponential;
/// - `policy.backoff.jitter_fraction` with a jitter other than proportional or additive;
/// - any `policy.breaker.*` key but `kind` with no breaker, and `policy.throttle.*` with no throttle.
package enum Equivalence {
    /// The key of `point`: its swept values, each inert one replaced by `*`.
    package static func key(_ point: Study.Point, paths: [String]) -> String {
        zip(paths, point.parameters).map { path, value in inert(path, in: point.scenario) ? "*" : value }
            .joined(separator: "\u{1F}")
    }

    /// Whether the value of `path` cannot change what `scenario` simulates.
    static func inert(_ path: String, in scenario: Scenario) -> Bool {
        let p = scenario.policy
        let b = p.backoff
        switch path {
        case "policy.backoff.base": return b.kind == .none
        case "policy.backoff.max": return b.kind == .none || !capBinds(p)
        case "policy.backoff.multiplier": return b.kind != .exponential
        case "policy.backoff.jitter_fraction":
            switch b.jitter {
            case .proportional, .additive: return false
            default: return true
            }
        default:
            if path.hasPrefix("policy.breaker.") && path != "policy.breaker.kind" { return p.breaker == nil }
            if path.hasPrefix("policy.throttle.") && path != "policy.throttle.kind" { return p.throttle == nil }
            return false
        }
    }

    /// Whether `policy.backoff.max` can cut a delay: some retry's largest delay before the cap
    /// exceeds it. Retries are numbered afresh in each cool-off cycle, so `max_attempts − 1` of them.
    static func capBinds(_ p: RetryPolicy) -> Bool {
        let b = p.backoff
        let cap = Double(b.max)
        let retries = min(p.maxAttempts - 1, 10_000)
        guard retries >= 1 else { return false }
        switch b.jitter {
        case .decorrelatedV2:
            return true
        case .decorrelated:
            // min(max, U[base, 3·prev)): prev can grow threefold a retry from base.
            var prev = Double(b.base)
            for _ in 0..<retries {
                prev *= 3
                if prev > cap { return true }
            }
            return false
        default:
            break
        }
        let bases = [Double(b.base), Double(p.throttlingBase ?? b.base)]
        for base in bases {
            var s = b
            s.base = Int64(base)
            for n in 1...retries {
                var d = s.rawEnvelope(retry: n)
                if s.capAfterJitter {
                    switch s.jitter {
                    case .proportional(let f), .additive(let f): d *= 1 + f
                    default: break
                    }
                }
                if d > cap { return true }
                // The envelope only grows: once it is flat it will not pass the cap later.
                if n > 1 && d == s.rawEnvelope(retry: n - 1) && s.kind != .linear { break }
            }
        }
        return false
    }
}
