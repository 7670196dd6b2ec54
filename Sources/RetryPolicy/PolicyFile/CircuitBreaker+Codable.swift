/// A circuit breaker in a policy file (``RetryPolicyFile``): the window's kind with its one
/// parameter (`window_calls`, `window_time` or `consecutive`), the trip rule, the open duration as
/// a backoff over the trips, the probes, what an open breaker does, and the failure kinds it counts.
extension CircuitBreaker {
    static let commonFields = [
        "kind", "threshold", "comparison", "min_calls", "min_failures", "evaluate_on_success", "open_duration", "probes", "when_open",
        "records"
    ]

    /// Reads a breaker object strictly: `kind` (`count`, `time` or `consecutive`) with exactly its
    /// parameter field, `threshold` in (0, 1], the counts in range, `probes` in 1…65 535.
    ///
    /// ```json
    /// {"kind": "count", "window_calls": 20, "threshold": 0.5, "comparison": "above", "min_calls": 1,
    ///  "min_failures": 5, "evaluate_on_success": true, "open_duration": {…}, "probes": 1,
    ///  "when_open": "wait", "records": ["transient-network", "timeout", "server-error", "throttled", "overloaded"]}
    /// ```
    ///
    /// - Throws: `DecodingError` naming the field that is missing, unknown or out of range.
    public init(from decoder: any Decoder) throws {
        // The window's kind names the one parameter field the object has besides the common ones.
        let kind = try PolicyJSON.Reader(decoder, fields: Self.commonFields + ["window_calls", "window_time", "consecutive"])
            .name("kind", [("count", "window_calls"), ("time", "window_time"), ("consecutive", "consecutive")])
        let r = try PolicyJSON.Reader(decoder, fields: Self.commonFields + [kind])
        let window: Window =
            switch kind {
            case "window_calls": .count(try r.int("window_calls", in: 1...SlidingWindow.ringCapacity))
            case "window_time": .time(try r.duration("window_time", minimum: 1))
            default: .consecutive(try r.int("consecutive", in: 1...Int(Int32.max)))
            }
        let threshold = try r.number("threshold", in: 0...1, open: true)
        self.init(
            window: window, failureRateThreshold: threshold, comparison: try r.decode(Comparison.self, "comparison"),
            minimumCalls: try r.int("min_calls", in: 0...Int(Int32.max)), minimumFailures: try r.int("min_failures", in: 0...Int(Int32.max)),
            evaluateOnSuccess: try r.bool("evaluate_on_success"), openDuration: try r.decode(Backoff.self, "open_duration"),
            halfOpenProbes: try r.int("probes", in: 1...Int(UInt16.max)), whenOpen: try r.decode(WhenOpen.self, "when_open"),
            records: try r.decode(FailureKindSet.self, "records"))
    }

    /// Writes every field, the window as its `kind` and that kind's one parameter.
    public func encode(to encoder: any Encoder) throws {
        var w = PolicyJSON.Writer(encoder)
        switch window {
        case .count(let n):
            try w.encode("count", "kind")
            try w.encode(n, "window_calls")
        case .time(let d):
            try w.encode("time", "kind")
            try w.duration(d, "window_time")
        case .consecutive(let n):
            try w.encode("consecutive", "kind")
            try w.encode(n, "consecutive")
        }
        try w.encode(failureRateThreshold, "threshold")
        try w.encode(comparison, "comparison")
        try w.encode(minimumCalls, "min_calls")
        try w.encode(minimumFailures, "min_failures")
        try w.encode(evaluateOnSuccess, "evaluate_on_success")
        try w.encode(openDuration, "open_duration")
        try w.encode(halfOpenProbes, "probes")
        try w.encode(whenOpen, "when_open")
        try w.encode(records, "records")
    }
}

extension CircuitBreaker.Comparison {
    static let names: [(String, Self)] = [("at-least", .atLeast), ("above", .above)]

    /// Written by name: `at-least` (rate ≥ threshold) or `above` (rate > threshold).
    public init(from decoder: any Decoder) throws { self = try PolicyJSON.decodeName(decoder, Self.names) }
    /// Writes the name: `at-least` or `above`.
    public func encode(to encoder: any Encoder) throws { try PolicyJSON.encodeName(encoder, self, Self.names) }
}

extension CircuitBreaker.WhenOpen {
    static let names: [(String, Self)] = [("wait", .wait), ("fail-attempt", .failAttempt), ("reject", .reject)]

    /// Written by name: `wait`, `fail-attempt`, `reject`.
    public init(from decoder: any Decoder) throws { self = try PolicyJSON.decodeName(decoder, Self.names) }
    /// Writes the name: `wait`, `fail-attempt` or `reject`.
    public func encode(to encoder: any Encoder) throws { try PolicyJSON.encodeName(encoder, self, Self.names) }
}

extension FailureKindSet {
    /// The kinds by name, in ``FailureKind`` order.
    static let names: [(String, FailureKind)] = [
        ("transient-network", .transientNetwork), ("timeout", .timeout), ("server-error", .serverError), ("throttled", .throttled),
        ("auth-expired", .authExpired), ("permanent", .permanent), ("conflict", .conflict), ("local-resource", .localResource),
        ("overloaded", .overloaded), ("other-status", .otherStatus), ("circuit-open", .circuitOpen)
    ]

    /// Written as the list of its kinds' names, e.g. `["transient-network", "timeout", "server-error"]`.
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self.init()
        while !c.isAtEnd {
            let index = PolicyJSON.Index(c.currentIndex)
            let text = try c.decode(String.self)
            guard let kind = Self.names.first(where: { $0.0 == text })?.1 else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: c.codingPath + [index],
                        debugDescription: "expected failure kinds among \(Self.names.map(\.0).joined(separator: ", ")) (got \"\(text)\")"))
            }
            insert(FailureKindSet(kind))
        }
    }

    /// Writes the kinds' names as a list, in ``FailureKind`` order.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        for (name, kind) in Self.names where contains(kind) { try c.encode(name) }
    }
}
