/// SplitMix64 (Steele, Lea and Flood, 2014): a seeded stream for tests that draw random tables,
/// so the tables are the same on every run and on every machine.
public struct SplitMix64: Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform on [0, 1), from the top 53 bits.
    public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform on 0..<n (the modulo's bias is below 2⁻⁶⁰ for the small n tests use).
    public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
