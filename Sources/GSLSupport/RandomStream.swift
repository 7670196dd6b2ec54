import CGSL
import CGSLXoshiro

/// Turns GSL's default error handler (which aborts the process) off, once per process.
/// Every GSL entry point in this module touches it first; callers then check return values.
let gslErrorHandlerOff: Void = {
    _ = gsl_set_error_handler_off()
}()

/// One seeded GSL random number generator (xoshiro256** exposed as a `gsl_rng_type`).
///
/// Every draw of a replication comes from generators of this type; the distributions are GSL's
/// (`gsl_ran_*`), so a stream and a seed fully determine every sample.
/// - Warning: Not thread-safe. It is deliberately neither copyable nor `Sendable`: create it inside
///   the task that uses it.
public struct RandomStream: ~Copyable {
    @usableFromInline let rng: UnsafeMutablePointer<gsl_rng>

    /// Creates a generator seeded with all 64 bits of `seed`.
    public init(seed: UInt64) {
        _ = gslErrorHandlerOff
        guard let rng = gsl_rng_alloc(retrystorm_rng_xoshiro256ss()) else {
            // gsl_rng_alloc fails only when malloc of 32 bytes fails.
            fatalError("out of memory allocating a GSL generator")
        }
        gsl_rng_set(rng, UInt(truncatingIfNeeded: seed))
        self.rng = rng
    }

    /// An independent generator in the same state as `other` (`gsl_rng_clone`): both then draw
    /// the same sequence. A snapshot of the engine's state copies its streams with this.
    public init(copying other: borrowing RandomStream) {
        _ = gslErrorHandlerOff
        guard let rng = gsl_rng_clone(other.rng) else { fatalError("out of memory copying a GSL generator") }
        self.rng = rng
    }

    deinit { gsl_rng_free(rng) }

    /// A copyable view of this generator for one call, so a draw can be passed `inout` without
    /// also claiming the struct that owns the stream.
    /// - Warning: Valid only while the stream lives; never store it.
    @inlinable public var view: RandomView { RandomView(rng: rng) }

    /// A uniform double in [0, 1) (`gsl_rng_uniform`).
    @inlinable public func uniform() -> Double { gsl_rng_uniform(rng) }

    /// A uniform double in (0, 1) (`gsl_rng_uniform_pos`).
    @inlinable public func uniformPositive() -> Double { gsl_rng_uniform_pos(rng) }

    /// A uniform integer in [0, n) (`gsl_rng_uniform_int`); `n` must be ≥ 1.
    @inlinable public func uniformInt(below n: Int) -> Int {
        Int(truncatingIfNeeded: gsl_rng_uniform_int(rng, UInt(n)))
    }

    /// An exponential variate with the given mean (`gsl_ran_exponential`).
    @inlinable public func exponential(mean: Double) -> Double { gsl_ran_exponential(rng, mean) }

    /// A normal variate N(0, sigma²) (`gsl_ran_gaussian_ziggurat`).
    @inlinable public func gaussian(sigma: Double) -> Double { gsl_ran_gaussian_ziggurat(rng, sigma) }

    /// A lognormal variate whose logarithm is N(zeta, sigma²) (`gsl_ran_lognormal`).
    @inlinable public func lognormal(zeta: Double, sigma: Double) -> Double { gsl_ran_lognormal(rng, zeta, sigma) }

    /// A Pareto variate with shape `a` and scale `b`, support [b, ∞) (`gsl_ran_pareto`).
    @inlinable public func pareto(shape a: Double, scale b: Double) -> Double { gsl_ran_pareto(rng, a, b) }

    /// True with probability `p` (`gsl_ran_bernoulli`).
    @inlinable public func bernoulli(_ p: Double) -> Bool { gsl_ran_bernoulli(rng, p) == 1 }
}
