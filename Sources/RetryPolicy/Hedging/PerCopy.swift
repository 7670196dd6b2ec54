/// One value per copy of a hedged attempt (``Hedging/maxCopies``, 5): five stored fields, so that
/// it is a plain value with no heap storage on every platform the package supports (the
/// standard library's `InlineArray` needs macOS 26, the package promises macOS 15).
public struct PerCopy<Value: Sendable & Hashable>: Sendable, Hashable {
    @usableFromInline var v0, v1, v2, v3, v4: Value

    /// Every copy's value is `value`.
    @inlinable public init(repeating value: Value) {
        (v0, v1, v2, v3, v4) = (value, value, value, value, value)
    }

    /// Copy `k`'s value; `k` in `0..<Hedging.maxCopies` (traps otherwise).
    @inlinable public subscript(k: Int) -> Value {
        get {
            switch k {
            case 0: v0
            case 1: v1
            case 2: v2
            case 3: v3
            case 4: v4
            default: preconditionFailure("copy \(k) of at most \(Hedging.maxCopies)")
            }
        }
        set {
            switch k {
            case 0: v0 = newValue
            case 1: v1 = newValue
            case 2: v2 = newValue
            case 3: v3 = newValue
            case 4: v4 = newValue
            default: preconditionFailure("copy \(k) of at most \(Hedging.maxCopies)")
            }
        }
    }
}
