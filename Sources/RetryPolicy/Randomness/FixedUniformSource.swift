/// Always returns the same value: pins `r` in the formulas so tests can check published vectors.
///
/// ```swift
/// var random = FixedUniformSource(0.5)
/// var memory = 0.0
/// let d = RetryPolicy.awsStandard.backoff.delay(retry: 2, memory: &memory, random: &random)  // 0.5 × 2 s = 1 s
/// ```
public struct FixedUniformSource: UniformSource, Sendable {
    /// The value every draw returns, in [0, 1). The initializer clamps it; assigning it directly
    /// does not, so keep it below 1.
    public var value: Double
    /// - Parameter value: the value every draw returns; values ≥ 1 are clamped just below 1.
    public init(_ value: Double) { self.value = min(max(value, 0), 1.0.nextDown) }
    /// ``value``, every time.
    public mutating func nextUniform() -> Double { value }
}
