import RetryPolicy

/// The `policy.` keys. Every value a key sets replaces the preset's; parts of composite values
/// (jitter, budget, breaker, throttle, concurrency, server hints, status lists) are collected in
/// ``PolicyDraft`` and put together in ``PolicyDraft/build(check:)``. A parameter of a budget or
/// breaker kind that is not in use has no effect; a kind set without its parameters takes the
/// defaults shown here (for budgets: that kind's library defaults).
extension ScenarioSchema {
    static let jitterNames = ["none", "full", "equal", "decorrelated", "decorrelated-v2", "proportional", "additive"]
    static let budgetKinds = ["unlimited", "per-run", "token-bucket", "grpc", "aws", "aws-2026", "finagle", "ratio", "envoy"]
    static let second: Nanoseconds = 1_000_000_000

    static let policy: [Field] =
        policyCore.prefix(1) + policyImport + policyCore.dropFirst() + policyBackoff + policyHints + policyBudget + policyBreaker + policyLimits
        + policyHedge + policyClassify

    static let policyCore: [Field] = [
        Field(
            "policy.preset", .choice(PolicyPresets.names), "none",
            "Start from a library's defaults (the presets table lists them); every other policy key overrides one of them."
        ) { d, v in
            d.policy.reset(to: v.string)
        },
        Field(
            "policy.max_attempts", .integer(min: 1, max: 1_000_000), "6",
            "Attempts per operation, the first one included (per cycle when cool_off is set).", \.policy.policy.maxAttempts, \.int),
        Field(
            "policy.max_elapsed", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
            "Stop when the next attempt would start later than this after the first.", \.policy.policy.maxElapsed, \.nanoseconds),
        Field(
            "policy.cool_off", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
            "After max_attempts failures in a row, wait this long and start again, forever (RudderStack: 30m). none: give up.",
            \.policy.policy.coolOff, \.nanoseconds),
        Field(
            "policy.idempotency", .choice(["key", "none", "no-retry"]), "key",
            "Ambiguous writes (timeout after sending): `key` sends an idempotency key (retries are safe), `none` retries without one (duplicates possible), `no-retry` stops them."
        ) { d, v in
            d.policy.policy.ambiguity.idempotency =
                switch v.string {
                case "none": .none
                case "no-retry": .notRetried
                default: .key
                }
        },
        Field(
            "policy.reconcile", .boolean, "false",
            "After an ambiguous failure, ask the server whether the write took effect before retrying it.", \.policy.policy.ambiguity.reconcile,
            \.bool),
        Field(
            "policy.reconcile_delay", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s",
            "How long after an ambiguous failure to ask."
        ) { d, v in
            d.policy.policy.ambiguity.reconcileDelay = v.nanoseconds ?? 0
        },
        Field(
            "policy.schedule_on_restart", .choice(["keep", "reset"]), "keep",
            "After an app restart: `keep` the persisted schedule and host state, or `reset` them (every operation starts over at once: the storm pitfall)."
        ) { d, v in
            d.policy.policy.onRestart = v.string == "reset" ? .reset : .keep
        },
        Field(
            "policy.auth.max_refreshes", .integer(min: 0, max: 100), "1",
            "Credential refreshes per operation on 401/403 before it needs the user.", \.policy.policy.maxAuthRefreshes, \.int),
        Field(
            "policy.auth.refresh_delay", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s",
            "Wait between a credential refresh and the retry."
        ) { d, v in
            d.policy.policy.authRefreshDelay = v.nanoseconds ?? 0
        }
    ]

    static let policyBackoff: [Field] = [
        Field(
            "policy.backoff.kind", .choice(BackoffKind.allCases.map(\.rawValue)), "exponential",
            "Delay shape before jitter: `none` (retry at once), `constant` (base), `linear` (base·n), `exponential` (base·multiplier^(n−1))."
        ) { d, v in
            d.policy.policy.backoff.kind = v.choice(\BackoffKind.rawValue)
        },
        Field(
            "policy.backoff.base", .duration(min: 0, max: maxHorizon, allowsNone: false), "1s",
            "The first retry's delay before jitter; the floor of decorrelated jitter."
        ) { d, v in
            d.policy.policy.backoff.base = v.nanoseconds ?? 0
        },
        Field("policy.backoff.max", .duration(min: 0, max: maxHorizon, allowsNone: false), "60s", "The cap on a delay.") { d, v in
            d.policy.policy.backoff.max = v.nanoseconds ?? 0
        },
        Field(
            "policy.backoff.multiplier", .number(min: 1, max: 100), "2", "Growth factor of exponential backoff.", \.policy.policy.backoff.multiplier,
            \.double),
        Field(
            "policy.backoff.jitter", .choice(jitterNames), "full",
            "Randomisation: none, full U[0,d), equal d/2+U[0,d/2), decorrelated min(max,U[base,3·prev)), decorrelated-v2 (Polly), proportional d·U[1−f,1+f), additive d+U[0,f·d).",
            \.policy.jitterName, \.string),
        Field("policy.backoff.jitter_fraction", .fraction, "0.2", "The f of proportional and additive jitter.", \.policy.jitterFraction, \.double),
        Field(
            "policy.backoff.exponent_offset", .integer(min: -10, max: 10), "0",
            "Added to the exponent: 1 makes the first retry's term base·2 (the AWS blog's simulator).", \.policy.policy.backoff.exponentOffset, \.int),
        Field(
            "policy.backoff.cap_after_jitter", .boolean, "false",
            "Apply max to the jittered delay instead of before jitter (resilience4j, Polly).", \.policy.policy.backoff.capAfterJitter, \.bool),
        Field(
            "policy.backoff.first_retry", .choice(Backoff.FirstRetry.allCases.map(\.name)), "scheduled",
            "The first retry: as the formula says, `immediate` (urllib3: never waits) or `unjittered` (exactly base: Finagle's equalJittered)."
        ) { d, v in
            d.policy.policy.backoff.firstRetry = v.choice(\Backoff.FirstRetry.name)
        },
        Field(
            "policy.backoff.plateau_unjittered", .boolean, "false",
            "Once the un-jittered term exceeds max, wait exactly max (aws-sdk-go-v2's legacy backoff: 20s flat from the 5th retry).",
            \.policy.policy.backoff.plateauUnjittered, \.bool),
        Field(
            "policy.backoff.step_rounding", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s",
            "Truncate exponential growth to a multiple of this at every step (resilience4j: 1ms gives 500, 750, 1125, 1687, 2530 ms). 0s: exact."
        ) { d, v in
            d.policy.policy.backoff.stepRounding = v.nanoseconds ?? 0
        },
        Field(
            "policy.backoff.throttling_base", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
            "The base for throttling failures (429, throttling codes) when it differs (AWS 2026: 1s against 50ms). none: base.",
            \.policy.policy.throttlingBase, \.nanoseconds)
    ]

    static let policyHints: [Field] = [
        Field(
            "policy.retry_after", .choice(["ignore", "at-least", "replace", "replace-and-reset", "clamp"]), "at-least",
            "How a server's Retry-After combines with backoff t: ignore it, max(t, it), exactly it, exactly it and restart the exponent (gRPC pushback), or clamp it to [t, t + retry_after_clamp] (AWS 2026).",
            \.policy.hintMode, \.string),
        Field(
            "policy.retry_after_ceiling", .duration(min: 0, max: maxHorizon, allowsNone: false), "6h",
            "Longer server delays are cut to this (urllib3: 6h)."
        ) { d, v in
            d.policy.policy.serverHints.ceiling = v.nanoseconds ?? 0
        },
        Field(
            "policy.retry_after_clamp", .duration(min: 0, max: maxHorizon, allowsNone: false), "5s",
            "With retry_after clamp: how far above the backoff the server's delay may push it (AWS 2026: 5s).", \.policy.hintClamp, \.nanoseconds),
        Field(
            "policy.retry_after_discard_above_ceiling", .boolean, "false",
            "Ignore server delays longer than the ceiling instead of cutting them (Envoy's rate-limited backoff).",
            \.policy.policy.serverHints.discardAboveCeiling, \.bool),
        Field(
            "policy.retry_after_negative_stops", .boolean, "false",
            "A negative server delay means do not retry (gRPC's grpc-retry-pushback-ms).", \.policy.policy.serverHints.negativeMeansStop, \.bool)
    ]

    static let policyBudget: [Field] = [
        Field(
            "policy.budget.kind", .choice(budgetKinds), "unlimited",
            "Retry budget per client and host: `per-run` (retries per run), `token-bucket` (refilled with time), `grpc` (A6 retry throttling), `aws` / `aws-2026` (retry quota), `finagle` / `ratio` (a share of requests: Finagle, the SRE book's 10%), `envoy` (concurrent retries). Each starts from its library's defaults.",
            \.policy.budget.kind, \.string),
        Field(
            "policy.budget.retries", .integer(min: 0, max: maxCount), "100", "per-run: retries per client in the whole run.",
            \.policy.budget.retries, \.int),
        Field(
            "policy.budget.capacity", .integer(min: 1, max: maxCount, allowsNone: true), "none",
            "token-bucket: tokens when full (10); grpc: maxTokens, at most 1000 (10); aws, aws-2026: quota tokens (500). none: the kind's default.",
            \.policy.budget.capacity, \.optionalInt),
        Field("policy.budget.refill", .rate(min: 0, max: 1e9), "1/s", "token-bucket: tokens added per second.", \.policy.budget.refill, \.double),
        Field(
            "policy.budget.token_ratio", .number(min: 0.001, max: 1000), "0.1", "grpc: tokens a success returns (A6 tokenRatio).",
            \.policy.budget.tokenRatio, \.double),
        Field(
            "policy.budget.retry_cost", .integer(min: 0, max: 1_000_000, allowsNone: true), "none",
            "aws, aws-2026: tokens a retry takes (5; 2026: 14). none: the kind's default.", \.policy.budget.retryCost, \.optionalInt),
        Field(
            "policy.budget.timeout_cost", .integer(min: 0, max: 1_000_000, allowsNone: true), "none",
            "aws, aws-2026: tokens a retry after a timeout takes (10; 2026: 14). none: the kind's default.", \.policy.budget.timeoutCost,
            \.optionalInt),
        Field(
            "policy.budget.throttling_cost", .integer(min: 0, max: 1_000_000, allowsNone: true), "none",
            "aws, aws-2026: tokens a retry after a throttling error takes (5). none: the kind's default.", \.policy.budget.throttlingCost,
            \.optionalInt),
        Field(
            "policy.budget.success_refund", .integer(min: 0, max: 1_000_000, allowsNone: true), "none",
            "aws, aws-2026: tokens a success without retries returns (1). none: the kind's default.", \.policy.budget.successRefund, \.optionalInt),
        Field(
            "policy.budget.ttl", .duration(min: second, max: maxHorizon, allowsNone: true), "none",
            "finagle, ratio: how long requests and retries count, in 10 slices (finagle 10s, at most 60s; ratio 2m). none: the kind's default.",
            \.policy.budget.ttl, \.nanoseconds),
        Field(
            "policy.budget.min_per_second", .rate(min: 0, max: 1e6), "10/s",
            "finagle, ratio: retries allowed per second whatever the traffic (finagle 10/s; ratio 0/s).", \.policy.budget.minPerSecond, \.double),
        Field(
            "policy.budget.percent", .number(min: 0, max: 1000), "0.2",
            "finagle, ratio: retries allowed as a fraction of requests (finagle 0.2; ratio 0.1); envoy: of active and pending requests (0.2).",
            \.policy.budget.percent, \.double),
        Field(
            "policy.budget.per_request", .fraction, "0.2",
            "finagle, ratio: one request's retries at most this fraction of the balance when it starts (finagle 0.2; ratio 0: no limit).",
            \.policy.budget.perRequest, \.double),
        Field(
            "policy.budget.min_concurrency", .integer(min: 0, max: 1_000_000), "3",
            "envoy: concurrent retries allowed whatever the traffic (min_retry_concurrency).", \.policy.budget.minConcurrency, \.int)
    ]

    static let policyBreaker: [Field] = [
        Field(
            "policy.breaker.kind", .choice(["none", "count", "time", "consecutive"]), "none",
            "Circuit breaker per client and host: trip on the failure rate of the last `window_calls` calls (`count`), of the last `window_time` (`time`), or after `consecutive` failures in a row.",
            \.policy.breaker.kind, \.string),
        Field(
            "policy.breaker.window_calls", .integer(min: 1, max: SlidingWindow.ringCapacity), "20",
            "count: outcomes in the window (at most 256).", \.policy.breaker.window.calls, \.int),
        Field(
            "policy.breaker.window_time", .duration(min: 10, max: maxHorizon, allowsNone: false), "2m",
            "time: the window, kept as 10 buckets of a tenth of it.", \.policy.breaker.window.duration, \.nanoseconds),
        Field(
            "policy.breaker.consecutive", .integer(min: 1, max: 1_000_000), "5", "consecutive: failures in a row that trip it.",
            \.policy.breaker.window.consecutive, \.int),
        Field(
            "policy.breaker.threshold", .fraction, "0.5", "count, time: the failure rate that trips it; half-open: the probes' rate that reopens it.",
            \.policy.breaker.threshold, \.double),
        Field(
            "policy.breaker.comparison", .choice(["at-least", "above"]), "above",
            "rate ≥ threshold (resilience4j, Polly) or rate > threshold (the offline-first chapter).", \.policy.breaker.comparison, \.string),
        Field(
            "policy.breaker.min_calls", .integer(min: 1, max: 1_000_000), "1",
            "Calls in the window before the rate counts (resilience4j minimumNumberOfCalls, Polly MinimumThroughput).", \.policy.breaker.minCalls,
            \.int),
        Field(
            "policy.breaker.min_failures", .integer(min: 0, max: 1_000_000), "5",
            "Failures in the window before the rate counts (the chapter's \"at least N failures\").", \.policy.breaker.minFailures, \.int),
        Field(
            "policy.breaker.evaluate_on_success", .boolean, "true",
            "Check the rate after successes too (resilience4j); false checks on failures only (Polly).", \.policy.breaker.evaluateOnSuccess, \.bool),
        Field(
            "policy.breaker.open", .duration(min: 1_000_000, max: maxHorizon, allowsNone: false), "30s",
            "How long it stays open after its first trip.", \.policy.breaker.openDuration.base, \.nanoseconds),
        Field(
            "policy.breaker.open_growth", .choice(["fixed", "exponential", "linear", "jittered"]), "exponential",
            "Open time after each reopening: fixed, open·multiplier^(n−1) (30s, 60s, 2m), open·n (Envoy ejection), or Finagle's equalJittered (open, then U[open, 2·open) …).",
            \.policy.breaker.openDuration.growth, \.string),
        Field(
            "policy.breaker.open_max", .duration(min: 0, max: maxHorizon, allowsNone: false), "2m", "The cap on the open time.",
            \.policy.breaker.openDuration.max, \.nanoseconds),
        Field(
            "policy.breaker.open_multiplier", .number(min: 1, max: 100), "2", "Growth factor of exponential open times.",
            \.policy.breaker.openDuration.multiplier, \.double),
        Field(
            "policy.breaker.probes", .integer(min: 1, max: 10_000), "1",
            "Attempts let through while half-open (resilience4j 10, Polly and Finagle 1).", \.policy.breaker.probes, \.int),
        Field(
            "policy.breaker.when_open", .choice(["wait", "fail-attempt", "reject"]), "wait",
            "An attempt meeting an open breaker: `wait`s until it half-opens (the chapter), `fail-attempt` counts as a failed attempt for the retry policy (resilience4j, Polly), or `reject` stops the operation (Finagle).",
            \.policy.breaker.whenOpen, \.string),
        Field(
            "policy.breaker.records", .choice(["host-failures", "all-failures"]), "host-failures",
            "Failures that count against the host: transport, timeouts, 5xx, 429, overload; or every failure, 4xx included (resilience4j, Polly).",
            \.policy.breaker.records, \.string)
    ]

    static let policyLimits: [Field] = [
        Field(
            "policy.throttle.kind", .choice(["none", "adaptive"]), "none",
            "Client-side adaptive throttling (SRE book): reject a request locally with probability max(0, (requests − k·accepts)/(requests + 1)).",
            \.policy.throttle.kind, \.string),
        Field("policy.throttle.k", .number(min: 1, max: 100), "2", "adaptive: the multiplier K (the book: 2).", \.policy.throttle.k, \.double),
        Field(
            "policy.throttle.window", .duration(min: 10, max: maxHorizon, allowsNone: false), "2m",
            "adaptive: the window requests and accepts are counted over, in 10 buckets.", \.policy.throttle.window, \.nanoseconds),
        Field(
            "policy.concurrency.max_in_flight", .integer(min: 1, max: maxCount, allowsNone: true), "none",
            "Attempts per client and host in flight at once. none: no limit."
        ) { d, v in
            d.policy.concurrency.maxInFlight = .some(v.optionalInt)
        },
        Field(
            "policy.concurrency.background_max", .integer(min: 1, max: maxCount, allowsNone: true), "none",
            "At most this many of them background work (the user-initiated lane goes first). none: max_in_flight."
        ) { d, v in
            d.policy.concurrency.backgroundMax = .some(v.optionalInt)
        },
        Field(
            "policy.concurrency.when_full", .choice(["wait", "reject"]), "wait",
            "At the limit: wait for a slot, or fail the operation (Envoy's overflow).", \.policy.concurrency.whenFull, \.string)
    ]

    /// Hedged requests (``Hedging``): gRPC's `hedgingPolicy`, Finagle's backup requests.
    static let policyHedge: [Field] = [
        Field(
            "policy.hedge.delay", .delayOrPercentile(max: maxHorizon), "none",
            "Hedged requests (gRPC's hedgingPolicy, Finagle's backup requests): while no copy of an attempt has answered, send another copy this long after the last one — a duration (0s: every copy at once, gRPC's default), or `pNN` (`p95`, `p99.9`): that percentile of the copies' latencies (the population's, or the edge's on a call graph's call) over the last `window` (successes, timeouts and copies a success outran, as Finagle records them) (until enough are seen, no copy but the first). The first success cancels the others; a failure the policy retries sends the next copy at once, any other ends the operation (or call). With hedging, max_attempts and the backoff do not apply. none: no hedging."
        ) { d, v in
            switch v {
            case .percentile(let q): d.policy.hedge.delay = .some(.percentile(q))
            default: d.policy.hedge.delay = .some(v.nanoseconds.map(PolicyDraft.HedgeParts.Delay.fixed))
            }
        },
        Field(
            "policy.hedge.max_attempts", .integer(min: 2, max: Hedging.maxCopies), "2",
            "Copies of an attempt at most, the first included (gRPC's cap: 5). Each copy after the first asks the budget, throttle, breaker and concurrency limit; a refused copy is not sent, the ones out go on.",
            \.policy.hedge.maxAttempts, \.int),
        Field(
            "policy.hedge.window", .duration(min: second, max: maxHorizon, allowsNone: false), "30s",
            "With a percentile delay: the latencies of the last this long count. No effect with a fixed delay.", \.policy.hedge.window,
            \.nanoseconds)
    ]

    static let policyClassify: [Field] = [
        Field(
            "policy.classify.retryable_statuses", .text, "500,502,503,504",
            "Statuses retried with backoff (comma-separated, ranges like 500-599, or none)."
        ) { d, v in
            d.policy.statusLists["policy.classify.retryable_statuses"] = v.string
        },
        Field("policy.classify.throttling_statuses", .text, "429", "Statuses that mean slow down: retried, with the throttling base.") { d, v in
            d.policy.statusLists["policy.classify.throttling_statuses"] = v.string
        },
        Field("policy.classify.auth_statuses", .text, "401,403", "Statuses that refresh credentials, then retry (auth.max_refreshes times).") {
            d, v in
            d.policy.statusLists["policy.classify.auth_statuses"] = v.string
        },
        Field("policy.classify.permanent_statuses", .text, "none", "Statuses never retried, whatever else says so (RudderStack: 400,401,404,413).") {
            d, v in
            d.policy.statusLists["policy.classify.permanent_statuses"] = v.string
        },
        Field("policy.classify.hinted_statuses", .text, "none", "Statuses retried only with a Retry-After (urllib3: 413,429,503).") { d, v in
            d.policy.statusLists["policy.classify.hinted_statuses"] = v.string
        },
        Field(
            "policy.classify.retry_conflict", .boolean, "false",
            "Retry 409 Conflict (APIs that use it for optimistic concurrency; Envoy retriable-4xx).", \.policy.policy.classifier.retryConflict, \.bool
        ),
        Field("policy.classify.retry_timeouts", .boolean, "true", "Retry timeouts.", \.policy.policy.classifier.retryTimeouts, \.bool),
        Field(
            "policy.classify.retry_transport", .boolean, "true", "Retry transport failures (DNS, refused, reset, TLS, offline).",
            \.policy.policy.classifier.retryTransport, \.bool),
        Field(
            "policy.classify.retry_unlisted", .boolean, "false", "Retry statuses no list names (RudderStack).",
            \.policy.policy.classifier.retryUnlistedStatuses, \.bool),
        Field(
            "policy.classify.retry_everything", .boolean, "false",
            "Retry every failure, even 404 (resilience4j, Polly, cenkalti, the naive baseline).", \.policy.policy.classifier.retryEverything, \.bool),
        Field(
            "policy.classify.only_unprocessed", .boolean, "false",
            "Retry only failures that surely did not take effect: never sent, or refused unprocessed by a full queue (Finagle's requeues).",
            \.policy.policy.classifier.onlyUnprocessed, \.bool)
    ]
}

extension Backoff.FirstRetry {
    /// The scenario spelling.
    var name: String { String(describing: self) }
}
