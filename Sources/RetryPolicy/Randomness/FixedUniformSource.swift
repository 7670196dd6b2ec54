/// Always returns the same value: pins `r` in the formulas so tests can check published vectors.
public struct FixedUniformSource: UniformSource, Sendable {
    public var value: Double
    /// - Parameter value: the value every draw returns; values ≥ 1 are clamped just below 1.
    public init(_ value: Double) { self.value = min(max(value, 0), 1.0.nextDown) }
    public mutating func nextUniform() -> Double { value }
}
