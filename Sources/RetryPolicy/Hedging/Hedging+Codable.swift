/// `{"delay": "50ms" | null, "percentile": 0.95 | null, "window": "30s" | null, "max_attempts": 3}`
/// in a policy file: a fixed `delay`, or a `percentile` over a `window`.
extension Hedging {
    static let fields = ["delay", "percentile", "window", "max_attempts"]

    /// Reads the object above: exactly one of `delay` and `percentile` (0 < p < 1, with a
    /// `window`); `max_attempts` 2…5.
    ///
    /// - Throws: `DecodingError` naming the field that is missing, unknown or out of range.
    public init(from decoder: any Decoder) throws {
        let r = try PolicyJSON.Reader(decoder, fields: Self.fields)
        let attempts = try r.int("max_attempts", in: 2...Self.maxCopies)
        switch (try r.optionalDuration("delay"), try r.isNull("percentile")) {
        case (let fixed?, true):
            guard try r.isNull("window") else { throw r.fail("window", "must be null with a fixed delay") }
            self.init(delay: .fixed(fixed), maxAttempts: attempts)
        case (nil, false):
            let q = try r.number("percentile", in: 0...1, open: true)
            guard q < 1 else { throw r.fail("percentile", "must be below 1 (got \(q))") }
            guard let window = try r.optionalDuration("window", minimum: 1) else { throw r.fail("window", "must be a duration with a percentile") }
            self.init(delay: .percentile(q, window: window), maxAttempts: attempts)
        default:
            throw r.fail("delay", "give either a delay or a percentile, not both or neither")
        }
    }

    /// Writes the object above.
    public func encode(to encoder: any Encoder) throws {
        var w = PolicyJSON.Writer(encoder)
        switch delay {
        case .fixed(let ns):
            try w.duration(ns, "delay")
            try w.optional(Double?.none, "percentile")
            try w.optionalDuration(nil, "window")
        case .percentile(let q, let window):
            try w.optionalDuration(nil, "delay")
            try w.encode(q, "percentile")
            try w.duration(window, "window")
        }
        try w.encode(maxAttempts, "max_attempts")
    }
}
