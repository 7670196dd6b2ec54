/// A source of uniform random numbers in [0, 1): the only randomness policy code consumes.
///
/// Policies are generic over it (never an existential), so the simulator passes its seeded GSL
/// stream, an app passes ``SystemUniformSource``, and tests pass ``FixedUniformSource`` to pin `r`.
public protocol UniformSource: ~Copyable {
    /// The next uniform value in [0, 1).
    mutating func nextUniform() -> Double
}
