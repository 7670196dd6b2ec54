/// The building blocks of the policy file format (``RetryPolicyFile``): every object is read
/// strictly — each of its fields present (`null` where a part is absent), no field it does not
/// know, every value in range — so that a typo or a file from another version is refused with the
/// field named instead of silently meaning a default. Durations are strings with a unit
/// (`"250ms"`), so that they read like the scenario files and round-trip to the nanosecond.
enum PolicyJSON {
    /// Any key of a JSON object.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A position in a JSON list.
    struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(_ i: Int) { intValue = i }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    /// The units a duration may be written in, largest first, in nanoseconds.
    static let units: [(name: String, ns: Int64)] = [
        ("h", 3_600_000_000_000), ("m", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000), ("ns", 1)
    ]

    /// `ns` as the largest unit that holds it exactly (`"250ms"`, `"90s"`, `"7ns"`); `"never"` for
    /// `Int64.max`, the library's "no limit".
    static func durationText(_ ns: Nanoseconds) -> String {
        if ns == .max { return "never" }
        if ns == 0 { return "0s" }
        let unit = units.first { ns % $0.ns == 0 }!
        return "\(ns / unit.ns)\(unit.name)"
    }

    /// The nanoseconds of a duration text: an integer (optionally negative) and a unit, or `never`.
    static func duration(_ text: String) -> Nanoseconds? {
        if text == "never" { return .max }
        guard let split = text.firstIndex(where: { $0.isLetter }), let unit = units.first(where: { $0.name == text[split...] }),
            let count = Int64(text[..<split])
        else { return nil }
        let (ns, overflow) = count.multipliedReportingOverflow(by: unit.ns)
        return overflow ? nil : ns
    }

    /// Reads one object of a policy file.
    struct Reader {
        let container: KeyedDecodingContainer<Key>

        /// Opens the object and refuses any field not in `fields`.
        init(_ decoder: any Decoder, fields: [String]) throws {
            container = try decoder.container(keyedBy: Key.self)
            for key in container.allKeys where !fields.contains(key.stringValue) {
                throw fail(key.stringValue, "unknown field (this object has \(fields.joined(separator: ", ")))")
            }
        }

        /// A decoding error located at `field` of this object.
        func fail(_ field: String, _ message: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: container.codingPath + [Key(field)], debugDescription: message))
        }

        /// Whether `field` holds `null` (it must be there either way).
        func isNull(_ field: String) throws -> Bool {
            guard container.contains(Key(field)) else {
                throw DecodingError.keyNotFound(Key(field), .init(codingPath: container.codingPath, debugDescription: "missing"))
            }
            return try container.decodeNil(forKey: Key(field))
        }

        func decode<T: Decodable>(_ type: T.Type, _ field: String) throws -> T {
            try container.decode(type, forKey: Key(field))
        }

        /// A `null`able value: nil for `null`.
        func optional<T: Decodable>(_ type: T.Type, _ field: String) throws -> T? {
            try isNull(field) ? nil : decode(type, field)
        }

        func bool(_ field: String) throws -> Bool { try decode(Bool.self, field) }

        func int(_ field: String, in range: ClosedRange<Int>) throws -> Int {
            let v = try decode(Int.self, field)
            guard range.contains(v) else { throw fail(field, "must be \(describe(range)) (got \(v))") }
            return v
        }

        /// A finite number in `range`; `open` excludes the lower bound.
        func number(_ field: String, in range: ClosedRange<Double>, open: Bool = false) throws -> Double {
            let v = try decode(Double.self, field)
            guard v.isFinite, range.contains(v), !(open && v == range.lowerBound) else {
                let bound = open ? "more than \(range.lowerBound)" : "at least \(range.lowerBound)"
                throw fail(field, "must be a number \(bound) and at most \(range.upperBound) (got \(v))")
            }
            return v
        }

        /// A duration text, at least `minimum` nanoseconds.
        func duration(_ field: String, minimum: Nanoseconds = 0) throws -> Nanoseconds {
            let text = try decode(String.self, field)
            guard let ns = PolicyJSON.duration(text) else {
                throw fail(
                    field, "expected a duration: a whole number and a unit (ns, us, ms, s, m, h), e.g. \"250ms\", or \"never\" (got \"\(text)\")")
            }
            guard ns >= minimum else {
                throw fail(
                    field, minimum == 0 ? "must not be negative (got \"\(text)\")" : "must be at least \(durationText(minimum)) (got \"\(text)\")")
            }
            return ns
        }

        /// A `null`able duration.
        func optionalDuration(_ field: String, minimum: Nanoseconds = 0) throws -> Nanoseconds? {
            try isNull(field) ? nil : duration(field, minimum: minimum)
        }

        /// One of `names`.
        func name<T>(_ field: String, _ names: [(String, T)]) throws -> T {
            let text = try decode(String.self, field)
            guard let match = names.first(where: { $0.0 == text }) else {
                throw fail(field, "expected one of \(names.map(\.0).joined(separator: ", ")) (got \"\(text)\")")
            }
            return match.1
        }

        func describe(_ range: ClosedRange<Int>) -> String {
            range.upperBound == .max ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
        }
    }

    /// Writes one object of a policy file.
    struct Writer {
        var container: KeyedEncodingContainer<Key>

        init(_ encoder: any Encoder) { container = encoder.container(keyedBy: Key.self) }

        mutating func encode<T: Encodable>(_ value: T, _ field: String) throws {
            try container.encode(value, forKey: Key(field))
        }

        /// `value`, or `null` for nil: every field is written, so a file says what is absent.
        mutating func optional<T: Encodable>(_ value: T?, _ field: String) throws {
            if let value { try encode(value, field) } else { try container.encodeNil(forKey: Key(field)) }
        }

        mutating func duration(_ ns: Nanoseconds, _ field: String) throws { try encode(durationText(ns), field) }

        mutating func optionalDuration(_ ns: Nanoseconds?, _ field: String) throws { try optional(ns.map(durationText), field) }

        /// `value`'s entry in `names`.
        mutating func name<T: Equatable>(_ value: T, _ names: [(String, T)], _ field: String) throws {
            try encode(names.first { $0.1 == value }!.0, field)
        }
    }

    /// Decodes a single string value that must be one of `names`.
    static func decodeName<T>(_ decoder: any Decoder, _ names: [(String, T)]) throws -> T {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let match = names.first(where: { $0.0 == text }) else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "expected one of \(names.map(\.0).joined(separator: ", ")) (got \"\(text)\")")
        }
        return match.1
    }

    /// Encodes `value` as its entry in `names`.
    static func encodeName<T: Equatable>(_ encoder: any Encoder, _ value: T, _ names: [(String, T)]) throws {
        var c = encoder.singleValueContainer()
        try c.encode(names.first { $0.1 == value }!.0)
    }
}
