/// A source of uniform random numbers in [0, 1): the only randomness policy code consumes.
///
/// Policies are generic over it (never an existential), so the simulator passes its seeded GSL
/// stream, an app passes ``SystemUniformSource``, and tests pass ``FixedUniformSource`` to pin `r`.
public protocol UniformSource: ~Copyable {
    /// The next uniform value in [0, 1).
    mutating func nextUniform() -> Double
}

/// Uniform values from the system's cryptographically secure generator, for apps.
public struct SystemUniformSource: UniformSource, Sendable {
    private var generator = SystemRandomNumberGenerator()
    public init() {}
    public mutating func nextUniform() -> Double { Double.random(in: 0..<1, using: &generator) }
}

/// Always returns the same value: pins `r` in the formulas so tests can check published vectors.
public struct FixedUniformSource: UniformSource, Sendable {
    public var value: Double
    /// - Parameter value: the value every draw returns; values ≥ 1 are clamped just below 1.
    public init(_ value: Double) { self.value = min(max(value, 0), 1.0.nextDown) }
    public mutating func nextUniform() -> Double { value }
}

/// Replays a list of values in order, then repeats the last one. For tests of multi-draw sequences.
public struct SequenceUniformSource: UniformSource, Sendable {
    private let values: [Double]
    private var index = 0
    public init(_ values: [Double]) {
        precondition(!values.isEmpty, "SequenceUniformSource needs at least one value")
        self.values = values.map { min(max($0, 0), 1.0.nextDown) }
    }
    public mutating func nextUniform() -> Double {
        let v = values[min(index, values.count - 1)]
        index += 1
        return v
    }
}
