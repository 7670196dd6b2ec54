/// Derives the seed of every random stream from the scenario seed.
///
/// A replication's streams depend only on (scenario seed, replication index, stream), never on the
/// order or the thread in which replications run, so results do not depend on `--jobs`.
/// The mixing function is splitmix64's finaliser (Steele, Lea & Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014), applied to each input in turn.
public enum SeedDerivation {
    /// The seed of `stream` in `replication` of a run seeded with `seed`.
    public static func seed(scenario seed: UInt64, replication: Int, stream: UInt64) -> UInt64 {
        var h = mix(seed &+ 0x9E37_79B9_7F4A_7C15)
        h = mix(h ^ UInt64(truncatingIfNeeded: replication) &+ 0xD1B5_4A32_D192_ED03)
        h = mix(h ^ stream &+ 0x8CB9_2BA7_2F3D_8DD7)
        return h
    }

    /// splitmix64's output function: a bijection on UInt64 with full avalanche.
    @inlinable public static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
