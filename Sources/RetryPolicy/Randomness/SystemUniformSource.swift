/// Uniform values from the system's cryptographically secure generator, for apps.
public struct SystemUniformSource: UniformSource, Sendable {
    private var generator = SystemRandomNumberGenerator()
    public init() {}
    public mutating func nextUniform() -> Double { Double.random(in: 0..<1, using: &generator) }
}
