import RetryPolicy

extension ScenarioSchema {
    static let jitterNames = ["none", "full", "equal", "decorrelated", "decorrelated-v2", "proportional", "additive"]

    static let policy: [Field] = [
        Field("policy.preset", .choice(PolicyPresets.names), "none",
              "Start from a library's defaults; every other policy key overrides one of them.") { d, v in
            d.policy.reset(to: v.string)
        },
        Field("policy.max_attempts", .integer(min: 1, max: 1_000_000), "6",
              "Attempts per operation, the first one included (per cycle when cool_off is set).") { d, v in
            d.policy.policy.maxAttempts = v.int
        },
        Field("policy.max_elapsed", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
              "Stop when the next attempt would start later than this after the first.") { d, v in
            d.policy.policy.maxElapsed = v.nanoseconds
        },
        Field("policy.cool_off", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
              "After max_attempts failures in a row, wait this long and start again, forever (RudderStack: 30m). none: give up.") { d, v in
            d.policy.policy.coolOff = v.nanoseconds
        },
        Field("policy.backoff.kind", .choice(BackoffKind.allCases.map(\.rawValue)), "exponential",
              "Delay shape before jitter: `none` (retry at once), `constant` (base), `linear` (base·n), `exponential` (base·multiplier^(n−1)).") { d, v in
            d.policy.policy.backoff.kind = BackoffKind(rawValue: v.string) ?? .exponential
        },
        Field("policy.backoff.base", .duration(min: 0, max: maxHorizon, allowsNone: false), "1s",
              "The first retry's delay before jitter; the floor of decorrelated jitter.") { d, v in
            d.policy.policy.backoff.base = v.nanoseconds ?? 0
        },
        Field("policy.backoff.max", .duration(min: 0, max: maxHorizon, allowsNone: false), "60s", "The cap on a delay.") { d, v in
            d.policy.policy.backoff.max = v.nanoseconds ?? 0
        },
        Field("policy.backoff.multiplier", .number(min: 1, max: 100), "2", "Growth factor of exponential backoff.") { d, v in
            d.policy.policy.backoff.multiplier = v.double
        },
        Field("policy.backoff.jitter", .choice(jitterNames), "full",
              "Randomisation: none, full U[0,d), equal d/2+U[0,d/2), decorrelated min(max,U[base,3·prev)), decorrelated-v2 (Polly), proportional d·U[1−f,1+f), additive d+U[0,f·d).") { d, v in
            d.policy.jitterName = v.string
        },
        Field("policy.backoff.jitter_fraction", .fraction, "0.2", "The f of proportional and additive jitter.") { d, v in
            d.policy.jitterFraction = v.double
        },
        Field("policy.backoff.exponent_offset", .integer(min: -10, max: 10), "0",
              "Added to the exponent: 1 makes the first retry's term base·2 (the AWS blog's simulator).") { d, v in
            d.policy.policy.backoff.exponentOffset = v.int
        },
        Field("policy.backoff.cap_after_jitter", .boolean, "false",
              "Apply max to the jittered delay instead of before jitter (resilience4j, Polly).") { d, v in
            d.policy.policy.backoff.capAfterJitter = v.bool
        },
        Field("policy.retry_after", .choice(["ignore", "at-least", "replace", "replace-and-reset"]), "at-least",
              "How a server's Retry-After combines with backoff: ignore it, wait at least it, wait exactly it, or wait it and restart the exponent.") { d, v in
            d.policy.policy.serverHints.mode = switch v.string {
            case "ignore": .ignore
            case "replace": .replace
            case "replace-and-reset": .replaceAndReset
            default: .atLeast
            }
        },
        Field("policy.retry_after_ceiling", .duration(min: 0, max: maxHorizon, allowsNone: false), "6h",
              "Longer server delays are cut to this.") { d, v in
            d.policy.policy.serverHints.ceiling = v.nanoseconds ?? 0
        },
        Field("policy.budget.kind", .choice(["unlimited", "per-run"]), "unlimited",
              "Client-side retry budget per client: `per-run` allows `retries` retries per client in the whole run.") { d, v in
            d.policy.budgetKind = v.string
        },
        Field("policy.budget.retries", .integer(min: 0, max: 1_000_000_000), "100", "Retries of a per-run budget.") { d, v in
            d.policy.budgetRetries = v.int
        },
    ]
}
