/// A policy in a policy file (``RetryPolicyFile``): one JSON object holding every field, parts
/// that are absent as `null`, durations as text with a unit. Field names follow the scenario's
/// `policy.*` keys where one exists. Decoding refuses a missing or unknown field and a value out
/// of range, naming the field.
///
/// The ``breaker`` is read and written through its public property, so the flag it is stored
/// with (see there) never appears in a file.
extension RetryPolicy {
    static let fields = [
        "max_attempts", "max_elapsed", "cool_off", "backoff", "throttling_base", "retry_after", "auth", "budget", "breaker",
        "throttle", "concurrency", "classify", "ambiguity", "schedule_on_restart", "hedging"
    ]
    static let authFields = ["max_refreshes", "refresh_delay"]

    /// Reads a policy object: `max_attempts` (1…2³¹−1), `max_elapsed`, `cool_off`, `backoff`,
    /// `throttling_base`, `retry_after` (``ServerHintPolicy``), `auth` (`max_refreshes`,
    /// `refresh_delay`), `budget`, `breaker`, `throttle`, `concurrency`, `classify`, `ambiguity` and
    /// `schedule_on_restart`, every one present (`null` for an absent optional part). Apps usually
    /// decode the enclosing ``RetryPolicyFile``, which also checks the format's version.
    ///
    /// - Throws: `DecodingError` naming the field that is missing, unknown or out of range.
    public init(from decoder: any Decoder) throws {
        let r = try PolicyJSON.Reader(decoder, fields: Self.fields)
        let auth = try PolicyJSON.Reader(try r.container.superDecoder(forKey: PolicyJSON.Key("auth")), fields: Self.authFields)
        self.init(
            classifier: try r.decode(Classifier.self, "classify"), backoff: try r.decode(Backoff.self, "backoff"),
            throttlingBase: try r.optionalDuration("throttling_base"), maxAttempts: try r.int("max_attempts", in: 1...Int(Int32.max)),
            maxElapsed: try r.optionalDuration("max_elapsed"), coolOff: try r.optionalDuration("cool_off"),
            serverHints: try r.decode(ServerHintPolicy.self, "retry_after"),
            maxAuthRefreshes: try auth.int("max_refreshes", in: 0...Int(Int32.max)), authRefreshDelay: try auth.duration("refresh_delay"),
            budget: try r.decode(RetryBudget.self, "budget"), breaker: try r.optional(CircuitBreaker.self, "breaker"),
            throttle: try r.optional(AdaptiveThrottle.self, "throttle"), concurrency: try r.optional(ConcurrencyLimit.self, "concurrency"),
            ambiguity: try r.decode(AmbiguityPolicy.self, "ambiguity"), onRestart: try r.decode(RestartSchedule.self, "schedule_on_restart"))
        // Optional, unlike the other fields: files written before hedging existed have none.
        if r.container.contains(PolicyJSON.Key("hedging")) { hedging = try r.optional(Hedging.self, "hedging") }
    }

    /// Writes every field above, absent parts as `null`, durations as text with a unit.
    public func encode(to encoder: any Encoder) throws {
        var w = PolicyJSON.Writer(encoder)
        try w.encode(maxAttempts, "max_attempts")
        try w.optionalDuration(maxElapsed, "max_elapsed")
        try w.optionalDuration(coolOff, "cool_off")
        try w.encode(backoff, "backoff")
        try w.optionalDuration(throttlingBase, "throttling_base")
        try w.encode(serverHints, "retry_after")
        var auth = PolicyJSON.Writer(w.container.superEncoder(forKey: PolicyJSON.Key("auth")))
        try auth.encode(maxAuthRefreshes, "max_refreshes")
        try auth.duration(authRefreshDelay, "refresh_delay")
        try w.encode(budget, "budget")
        try w.optional(breaker, "breaker")
        try w.optional(throttle, "throttle")
        try w.optional(concurrency, "concurrency")
        try w.encode(classifier, "classify")
        try w.encode(ambiguity, "ambiguity")
        try w.encode(onRestart, "schedule_on_restart")
        // Written only when set, so a policy without hedging is the file it was before.
        if let hedging { try w.encode(hedging, "hedging") }
    }
}

/// `{"mode": …, "clamp": …, "ceiling": …, "discard_above_ceiling": …, "negative_stops": …}`:
/// the mode by name (`ignore`, `at-least`, `replace`, `replace-and-reset`, `clamp`), and `clamp`
/// the extra of `clamp` (`null` for the other modes).
extension ServerHintPolicy {
    static let fields = ["mode", "clamp", "ceiling", "discard_above_ceiling", "negative_stops"]
    static let modes: [(String, Mode)] = [
        ("ignore", .ignore), ("at-least", .atLeast), ("replace", .replace), ("replace-and-reset", .replaceAndReset),
        ("clamp", .clampAboveBackoff(extra: 0))
    ]

    /// Reads the object above; `clamp` must be a duration for mode `clamp` and `null` otherwise.
    ///
    /// - Throws: `DecodingError` naming the field that is missing, unknown or out of range.
    public init(from decoder: any Decoder) throws {
        let r = try PolicyJSON.Reader(decoder, fields: Self.fields)
        var mode = try r.name("mode", Self.modes)
        let clamp = try r.optionalDuration("clamp")
        switch (mode, clamp) {
        case (.clampAboveBackoff, let extra?): mode = .clampAboveBackoff(extra: extra)
        case (.clampAboveBackoff, nil): throw r.fail("clamp", "must be a duration for mode clamp")
        case (_, nil): break
        case (_, _?): throw r.fail("clamp", "must be null unless mode is clamp")
        }
        self.init(
            mode: mode, ceiling: try r.duration("ceiling"), discardAboveCeiling: try r.bool("discard_above_ceiling"),
            negativeMeansStop: try r.bool("negative_stops"))
    }

    /// Writes the object above, `clamp` as `null` unless the mode is `clamp`.
    public func encode(to encoder: any Encoder) throws {
        var w = PolicyJSON.Writer(encoder)
        if case .clampAboveBackoff(let extra) = mode {
            try w.encode("clamp", "mode")
            try w.duration(extra, "clamp")
        } else {
            try w.name(mode, Self.modes, "mode")
            try w.optionalDuration(nil, "clamp")
        }
        try w.duration(ceiling, "ceiling")
        try w.encode(discardAboveCeiling, "discard_above_ceiling")
        try w.encode(negativeMeansStop, "negative_stops")
    }
}

/// `{"idempotency": "key" | "none" | "no-retry", "reconcile": …, "reconcile_delay": …}`.
extension AmbiguityPolicy {
    /// Reads the object above, every field present; `reconcile_delay` a duration ≥ 0.
    public init(from decoder: any Decoder) throws {
        let r = try PolicyJSON.Reader(decoder, fields: ["idempotency", "reconcile", "reconcile_delay"])
        self.init(
            idempotency: try r.decode(Idempotency.self, "idempotency"), reconcile: try r.bool("reconcile"),
            reconcileDelay: try r.duration("reconcile_delay"))
    }

    /// Writes the object above.
    public func encode(to encoder: any Encoder) throws {
        var w = PolicyJSON.Writer(encoder)
        try w.encode(idempotency, "idempotency")
        try w.encode(reconcile, "reconcile")
        try w.duration(reconcileDelay, "reconcile_delay")
    }
}

extension Idempotency {
    static let names: [(String, Self)] = [("key", .key), ("none", .none), ("no-retry", .notRetried)]

    /// Written by name: `key`, `none`, `no-retry` (the scenario's `policy.idempotency`).
    public init(from decoder: any Decoder) throws { self = try PolicyJSON.decodeName(decoder, Self.names) }
    /// Writes the name: `key`, `none` or `no-retry`.
    public func encode(to encoder: any Encoder) throws { try PolicyJSON.encodeName(encoder, self, Self.names) }
}

extension RestartSchedule {
    static let names: [(String, Self)] = [("keep", .keep), ("reset", .reset)]

    /// Written by name: `keep`, `reset` (the scenario's `policy.schedule_on_restart`).
    public init(from decoder: any Decoder) throws { self = try PolicyJSON.decodeName(decoder, Self.names) }
    /// Writes the name: `keep` or `reset`.
    public func encode(to encoder: any Encoder) throws { try PolicyJSON.encodeName(encoder, self, Self.names) }
}

/// `{"k": …, "window": …}`.
extension AdaptiveThrottle {
    /// Reads the object above: `k` > 0 (at most 10⁶), `window` a duration of at least 1 ns.
    public init(from decoder: any Decoder) throws {
        let r = try PolicyJSON.Reader(decoder, fields: ["k", "window"])
        self.init(k: try r.number("k", in: 0...1e6, open: true), window: try r.duration("window", minimum: 1))
    }

    /// Writes the object above.
    public func encode(to encoder: any Encoder) throws {
        var w = PolicyJSON.Writer(encoder)
        try w.encode(k, "k")
        try w.duration(window, "window")
    }
}

/// `{"max_in_flight": …, "background_max": …, "when_full": "wait" | "reject"}`.
extension ConcurrencyLimit {
    /// Reads the object above: `max_in_flight` ≥ 1, `background_max` in 1…`max_in_flight`.
    public init(from decoder: any Decoder) throws {
        let r = try PolicyJSON.Reader(decoder, fields: ["max_in_flight", "background_max", "when_full"])
        let maxInFlight = try r.int("max_in_flight", in: 1...Int(Int32.max))
        self.init(
            maxInFlight: maxInFlight, backgroundMaxInFlight: try r.int("background_max", in: 1...maxInFlight),
            whenFull: try r.decode(WhenFull.self, "when_full"))
    }

    /// Writes the object above, `background_max` always (equal to `max_in_flight` when no smaller
    /// share was set).
    public func encode(to encoder: any Encoder) throws {
        var w = PolicyJSON.Writer(encoder)
        try w.encode(maxInFlight, "max_in_flight")
        try w.encode(backgroundMaxInFlight, "background_max")
        try w.encode(whenFull, "when_full")
    }
}

extension ConcurrencyLimit.WhenFull {
    static let names: [(String, Self)] = [("wait", .wait), ("reject", .reject)]

    /// Written by name: `wait`, `reject` (the scenario's `policy.concurrency.when_full`).
    public init(from decoder: any Decoder) throws { self = try PolicyJSON.decodeName(decoder, Self.names) }
    /// Writes the name: `wait` or `reject`.
    public func encode(to encoder: any Encoder) throws { try PolicyJSON.encodeName(encoder, self, Self.names) }
}
