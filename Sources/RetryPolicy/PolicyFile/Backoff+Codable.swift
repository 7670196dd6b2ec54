/// A backoff in a policy file (``RetryPolicyFile``): every field of ``Backoff``, with the jitter
/// as its name and, for `proportional` and `additive`, its fraction.
///
/// ```json
/// {"kind": "exponential", "base": "1s", "max": "20s", "multiplier": 2, "jitter": "full",
///  "jitter_fraction": null, "exponent_offset": 0, "cap_after_jitter": false,
///  "first_retry": "scheduled", "plateau_unjittered": false, "step_rounding": "0s"}
/// ```
extension Backoff {
    static let fields = [
        "kind", "base", "max", "multiplier", "jitter", "jitter_fraction", "exponent_offset", "cap_after_jitter", "first_retry",
        "plateau_unjittered", "step_rounding"
    ]

    /// Reads a backoff object strictly: every field above present, durations as text with a unit,
    /// `jitter_fraction` a number in [0, 1] for `proportional` and `additive` and `null` otherwise.
    ///
    /// - Throws: `DecodingError` naming the field that is missing, unknown or out of range.
    public init(from decoder: any Decoder) throws {
        let r = try PolicyJSON.Reader(decoder, fields: Self.fields)
        let jitterName = try r.name("jitter", Jitter.names)
        let fraction = try r.isNull("jitter_fraction") ? nil : try r.number("jitter_fraction", in: 0...1)
        let jitter: Jitter
        switch (jitterName, fraction) {
        case (.proportional, let f?): jitter = .proportional(f)
        case (.additive, let f?): jitter = .additive(f)
        case (.proportional, nil), (.additive, nil):
            throw r.fail("jitter_fraction", "must be a number from 0 to 1 for jitter \(jitterName.name)")
        case (let j, nil): jitter = j
        case (let j, _?): throw r.fail("jitter_fraction", "must be null for jitter \(j.name) (only proportional and additive take one)")
        }
        let base = try r.duration("base")
        let max = try r.duration("max")
        self.init(
            kind: try r.decode(BackoffKind.self, "kind"), base: base, max: max,
            multiplier: try r.number("multiplier", in: 0...1e6, open: true), jitter: jitter,
            exponentOffset: try r.int("exponent_offset", in: -1000...1000), capAfterJitter: try r.bool("cap_after_jitter"),
            firstRetry: try r.decode(FirstRetry.self, "first_retry"), plateauUnjittered: try r.bool("plateau_unjittered"),
            stepRounding: try r.duration("step_rounding"))
    }

    /// Writes every field, `jitter_fraction` as `null` for the jitters that take none, and durations
    /// in the largest unit that holds them exactly (`"250ms"`).
    public func encode(to encoder: any Encoder) throws {
        var w = PolicyJSON.Writer(encoder)
        try w.encode(kind, "kind")
        try w.duration(base, "base")
        try w.duration(max, "max")
        try w.encode(multiplier, "multiplier")
        try w.encode(jitter.name, "jitter")
        switch jitter {
        case .proportional(let f), .additive(let f): try w.encode(f, "jitter_fraction")
        default: try w.optional(Double?.none, "jitter_fraction")
        }
        try w.encode(exponentOffset, "exponent_offset")
        try w.encode(capAfterJitter, "cap_after_jitter")
        try w.encode(firstRetry, "first_retry")
        try w.encode(plateauUnjittered, "plateau_unjittered")
        try w.duration(stepRounding, "step_rounding")
    }
}

extension Backoff.FirstRetry {
    static let names: [(String, Self)] = [("scheduled", .scheduled), ("immediate", .immediate), ("unjittered", .unjittered)]

    /// Written by name: `scheduled`, `immediate`, `unjittered`.
    public init(from decoder: any Decoder) throws { self = try PolicyJSON.decodeName(decoder, Self.names) }
    /// Writes the name: `scheduled`, `immediate` or `unjittered`.
    public func encode(to encoder: any Encoder) throws { try PolicyJSON.encodeName(encoder, self, Self.names) }
}

extension Jitter {
    /// The jitters by name; the fraction of `proportional` and `additive` is read separately.
    static let names: [(String, Jitter)] = [
        ("none", .none), ("full", .full), ("equal", .equal), ("decorrelated", .decorrelated), ("decorrelated-v2", .decorrelatedV2),
        ("proportional", .proportional(0)), ("additive", .additive(0))
    ]
}
