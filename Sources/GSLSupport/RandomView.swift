import CGSL
import CGSLXoshiro

/// A borrowed handle on a ``RandomStream``'s generator (see ``RandomStream/view``).
public struct RandomView {
    @usableFromInline let rng: UnsafeMutablePointer<gsl_rng>
    @inlinable init(rng: UnsafeMutablePointer<gsl_rng>) { self.rng = rng }

    /// A uniform double in [0, 1) (`gsl_rng_uniform`).
    @inlinable public func uniform() -> Double { gsl_rng_uniform(rng) }
}
