import RetryPolicy

/// The policy part of a scenario being assembled: a ``RetryPolicy`` (from `policy.preset`, then
/// key by key) plus the parts of composite values (jitter kind and fraction, budget kind and
/// size) that only make sense together, put together by ``build(check:)``.
struct PolicyDraft: Sendable {
    var policy = PolicyPresets.policy(named: "none")
    /// Jitter parts; nil keeps the preset's.
    var jitterName: String?
    var jitterFraction: Double?
    var budgetKind: String?
    var budgetRetries: Int?

    /// Starts again from a preset, forgetting every part set so far.
    mutating func reset(to preset: String) {
        self = PolicyDraft()
        policy = PolicyPresets.policy(named: preset)
    }

    /// The finished policy. `check(ok, field, message, also)` reports a failed cross-field rule.
    func build(check: (Bool, String, String, [String]) throws(ScenarioError) -> Void) throws(ScenarioError) -> RetryPolicy {
        var policy = self.policy
        if let jitterName {
            policy.backoff.jitter = Self.jitter(named: jitterName, fraction: jitterFraction ?? Self.fraction(of: policy.backoff.jitter) ?? 0.2)
        } else if let jitterFraction {
            switch policy.backoff.jitter {
            case .proportional: policy.backoff.jitter = .proportional(jitterFraction)
            case .additive: policy.backoff.jitter = .additive(jitterFraction)
            default: break
            }
        }
        if let budgetKind {
            policy.budget = budgetKind == "per-run" ? .perRun(retries: budgetRetries ?? 100) : .unlimited
        } else if let budgetRetries, case .perRun = policy.budget {
            policy.budget = .perRun(retries: budgetRetries)
        }
        if policy.backoff.kind != .none {
            try check(policy.backoff.max >= policy.backoff.base, "policy.backoff.max",
                      "(\(Format.duration(policy.backoff.max))) must be at least policy.backoff.base (\(Format.duration(policy.backoff.base)))",
                      ["policy.backoff.base"])
        }
        return policy
    }

    static func jitter(named name: String, fraction: Double) -> Jitter {
        switch name {
        case "none": .none
        case "equal": .equal
        case "decorrelated": .decorrelated
        case "decorrelated-v2": .decorrelatedV2
        case "proportional": .proportional(fraction)
        case "additive": .additive(fraction)
        default: .full
        }
    }

    static func fraction(of j: Jitter) -> Double? {
        switch j {
        case .proportional(let f), .additive(let f): f
        default: nil
        }
    }
}
