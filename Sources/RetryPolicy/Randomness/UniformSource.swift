/// A source of uniform random numbers in [0, 1): the only randomness policy code consumes.
///
/// Policies are generic over it (never an existential), so the simulator passes its seeded GSL
/// stream, an app passes ``SystemUniformSource``, and tests pass ``FixedUniformSource`` to pin `r`.
/// A conforming type may be noncopyable; calls take it `inout`.
///
/// ```swift
/// // A seeded source for reproducible app-side tests (SplitMix64).
/// struct SeededSource: UniformSource, Sendable {
///     var state: UInt64
///     mutating func nextUniform() -> Double {
///         state &+= 0x9E37_79B9_7F4A_7C15
///         var z = state
///         z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
///         z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
///         return Double((z ^ (z >> 31)) >> 11) * 0x1p-53  // 53 random bits: [0, 1)
///     }
/// }
/// var random = SeededSource(state: 42)
/// ```
public protocol UniformSource: ~Copyable {
    /// The next uniform value in [0, 1).
    mutating func nextUniform() -> Double
}
