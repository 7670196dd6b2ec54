import RetryPolicy
import RetryStormEngine

/// A parsed field value.
package enum FieldValue: Sendable {
    /// nil for `none`.
    case integer(Int?)
    case number(Double)
    /// nil for `none`.
    case duration(Nanoseconds?)
    case text(String)
    case boolean(Bool)
    case points([LoadProfile.Point])
    /// A quantile `q` (0 < q < 1) written `pNN`, e.g. `p95` → 0.95.
    case percentile(Double)

    var int: Int { if case .integer(let v?) = self { v } else { 0 } }
    var optionalInt: Int? { if case .integer(let v) = self { v } else { nil } }
    var double: Double { if case .number(let v) = self { v } else { 0 } }
    /// A rate or number that may be `none`.
    var optionalDouble: Double? { if case .number(let v) = self { v } else { nil } }
    var nanoseconds: Nanoseconds? { if case .duration(let v) = self { v } else { nil } }
    var string: String { if case .text(let v) = self { v } else { "" } }
    var bool: Bool { if case .boolean(let v) = self { v } else { false } }
    var points: [LoadProfile.Point] { if case .points(let v) = self { v } else { [] } }

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
