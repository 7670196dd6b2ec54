/// Always returns the same value: pins `r` in the formulas so tests can check published vectors.
///
/// ```swift
/// var random = FixedUniformSource(0.5)
/// var memory = 0.0
/// let d = RetryPolicy.awsStandard.backoff.delay(retry: 2, memory: &memory, random: &random)  // 0.5 × 2 s = 1 s
/// ```
public struct FixedUniformSource: UniformSource, Sendable {
    /// The value every draw returns, in [0, 1): set to anything, it is clamped there (below 0 to 0,
    /// 1 or more to just below 1), as a uniform draw must be.
    public var value: Double {
        didSet { value = Self.clamped(value) }
    }
    /// - Parameter value: the value every draw returns, clamped to [0, 1) as ``value`` is.
    public init(_ value: Double) { self.value = Self.clamped(value) }

    /// `x` in [0, 1): 1 and above just below 1, below 0 (and NaN) 0.
    static func clamped(_ x: Double) -> Double { x >= 0 ? min(x, 1.0.nextDown) : 0 }
    /// ``value``, every time.
    public mutating func nextUniform() -> Double { value }
}
