import RetryPolicy

/// The type of a scenario field: how its text is parsed and checked, and how it is documented.
package enum FieldKind: Sendable {
    /// `allowsNone` accepts `none` (no limit).
    case integer(min: Int, max: Int, allowsNone: Bool = false)
    case number(min: Double, max: Double)
    case fraction
    /// A duration with a unit; `allowsNone` accepts `none` (no limit).
    case duration(min: Nanoseconds, max: Nanoseconds, allowsNone: Bool)
    /// Events per unit of time, stored per second; `allowsNone` accepts `none` (no limit).
    case rate(min: Double, max: Double, allowsNone: Bool = false)
    case choice([String])
    case boolean
    case text

    /// A one-line description of accepted values, for messages and docs.
    var summary: String {
        switch self {
        case .integer(let lo, let hi, let none): "whole number \(lo)…\(hi)" + (none ? " or none" : "")
        case .number(let lo, let hi): "number \(Self.show(lo))…\(Self.show(hi))"
        case .fraction: "fraction 0…1 (or %)"
        case .duration(_, _, let none): none ? "duration (e.g. 2s) or none" : "duration (e.g. 250ms, 2s, 5m)"
        case .rate(_, _, let none): none ? "rate (e.g. 1000/s) or none" : "rate (e.g. 1000/s)"
        case .choice(let options): options.joined(separator: " | ")
        case .boolean: "true | false"
        case .text: "text"
        }
    }

    static func show(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

/// A parsed field value.
package enum FieldValue: Sendable {
    /// nil for `none`.
    case integer(Int?)
    case number(Double)
    /// nil for `none`.
    case duration(Nanoseconds?)
    case text(String)
    case boolean(Bool)

    var int: Int { if case .integer(let v?) = self { v } else { 0 } }
    var optionalInt: Int? { if case .integer(let v) = self { v } else { nil } }
    var double: Double { if case .number(let v) = self { v } else { 0 } }
    /// A rate or number that may be `none`.
    var optionalDouble: Double? { if case .number(let v) = self { v } else { nil } }
    var nanoseconds: Nanoseconds? { if case .duration(let v) = self { v } else { nil } }
    var string: String { if case .text(let v) = self { v } else { "" } }
    var bool: Bool { if case .boolean(let v) = self { v } else { false } }

    /// The case of `T` whose `name` a `.choice` field admitted. The field lists exactly those
    /// names and refuses any other text before a setter runs, so a miss is a bug in the schema (a
    /// choice list out of step with its type), stopped here rather than replaced by a default.
    func choice<T: CaseIterable>(_ name: KeyPath<T, String>) -> T {
        guard let match = T.allCases.first(where: { $0[keyPath: name] == string }) else {
            preconditionFailure("'\(string)' passed a choice field but names no \(T.self)")
        }
        return match
    }
}

/// One key of the scenario format: its dotted path, type, default and meaning, and how it sets
/// the draft. The schema is the single source of the parser, `--set`, the docs and the JSON Schema.
package struct Field: Sendable {
    package let path: String
    package let kind: FieldKind
    /// The default, written as a user would write it.
    let defaultText: String
    let doc: String
    let apply: @Sendable (inout ScenarioDraft, FieldValue) -> Void

    init(_ path: String, _ kind: FieldKind, _ defaultText: String, _ doc: String,
         _ apply: @escaping @Sendable (inout ScenarioDraft, FieldValue) -> Void) {
        self.path = path
        self.kind = kind
        self.defaultText = defaultText
        self.doc = doc
        self.apply = apply
    }

    /// Parses and range-checks `text`.
    package func parse(_ text: String) throws(Units.Invalid) -> FieldValue {
        switch kind {
        case .integer(let lo, let hi, let allowsNone):
            if allowsNone && ["none", "unlimited"].contains(text.trimmingWhitespace().lowercased()) { return .integer(nil) }
            let v = try Units.integer(text)
            guard v >= lo else { throw .init(message: "must be at least \(lo) (got \(text))") }
            guard v <= hi else { throw .init(message: "must be at most \(hi) (got \(text))") }
            return .integer(v)
        case .number(let lo, let hi):
            let v = try Units.number(text)
            guard v >= lo else { throw .init(message: "must be at least \(FieldKind.show(lo)) (got \(text))") }
            guard v <= hi else { throw .init(message: "must be at most \(FieldKind.show(hi)) (got \(text))") }
            return .number(v)
        case .fraction:
            return .number(try Units.fraction(text))
        case .duration(let lo, let hi, let allowsNone):
            let t = text.trimmingWhitespace().lowercased()
            if allowsNone && (t == "none" || t == "never" || t == "unlimited") { return .duration(nil) }
            let v = try Units.duration(text)
            guard v >= lo else { throw .init(message: "must be at least \(Format.duration(lo)) (got \(text))") }
            guard v <= hi else { throw .init(message: "must be at most \(Format.duration(hi)) (got \(text))") }
            return .duration(v)
        case .rate(let lo, let hi, let allowsNone):
            if allowsNone && ["none", "unlimited"].contains(text.trimmingWhitespace().lowercased()) { return .duration(nil) }
            let v = try Units.rate(text)
            guard v > lo || (lo == 0 && v == 0) else { throw .init(message: "must be more than \(FieldKind.show(lo))/s (got \(text))") }
            guard v <= hi else { throw .init(message: "must be at most \(FieldKind.show(hi))/s (got \(text))") }
            return .number(v)
        case .choice(let options):
            let t = text.trimmingWhitespace()
            guard options.contains(t) else {
                let hint = Suggest.nearest(t, in: options).map { " Did you mean '\($0)'?" } ?? ""
                throw .init(message: "must be one of \(options.joined(separator: ", ")) (got '\(text)').\(hint)")
            }
            return .text(t)
        case .boolean:
            return .boolean(try Units.boolean(text))
        case .text:
            // Names and descriptions reach terminals, file titles and reports: no control characters
            // (a line break or tab inside a description is fine).
            if let bad = text.unicodeScalars.first(where: { MessageText.needsEscape($0) && $0 != "\n" && $0 != "\t" }) {
                throw .init(message: "contains the control character \(MessageText.escaped(String(bad))): write plain text")
            }
            return .text(text)
        }
    }
}
