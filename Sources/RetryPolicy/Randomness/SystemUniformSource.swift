/// Uniform values from the system's cryptographically secure generator, for apps.
public struct SystemUniformSource: UniformSource, Sendable {
    private var generator = SystemRandomNumberGenerator()
    /// A source over `SystemRandomNumberGenerator`; it needs no seed and cannot be replayed.
    public init() {}
    /// A uniform value in [0, 1) from the system generator.
    public mutating func nextUniform() -> Double { Double.random(in: 0..<1, using: &generator) }
}
