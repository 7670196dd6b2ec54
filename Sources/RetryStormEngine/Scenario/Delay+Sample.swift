import GSLSupport
import RetryPolicy

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Scenario.Delay {
    /// One draw, nanoseconds, never negative: constant, `gsl_ran_exponential`, `gsl_ran_lognormal`
    /// (with the mean as given: ζ = ln(mean) − σ²/2) or `gsl_ran_gaussian_ziggurat` folded at 0
    /// (|N(mean, spread²)|, the AWS blog simulator's network hop).
    @inline(__always) func sample(_ random: borrowing RandomStream) -> Int64 {
        let m = Double(mean)
        let x: Double
        switch shape {
        case .constant: return mean
        case .exponential: x = random.exponential(mean: m)
        case .lognormal: x = random.lognormal(zeta: log(m) - spread * spread / 2, sigma: spread)
        case .normal: x = abs(m + random.gaussian(sigma: spread))
        }
        return x >= 9.2e18 ? .max : Int64(x.rounded())
    }
}
