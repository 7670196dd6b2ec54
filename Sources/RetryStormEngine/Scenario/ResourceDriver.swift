#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The input that makes a figure of an estimate large (``ResourceEstimate``, the study's budget),
/// so that a refusal names the key to turn rather than a fixed one.
///
/// An estimate is a product of factors — operations are clients × rate × time × the load's mean
/// multiplier, events are operations × attempts, held results are replications × points ×
/// buckets — and the driver is the factor furthest above 1 in decades (``strongest(_:)``): a
/// load multiplier of 1e300 drives by 300 decades against a million clients' 6.
package enum ResourceDriver: Sendable, Hashable {
    /// `clients.count`.
    case clients
    /// `clients.rate`, operations per client per second.
    case arrivalRate
    /// `horizon` (the span clients start operations in; for closed clients, over their think time).
    case horizon
    /// The load's multiplier over time: `load.spike.multiplier`, `load.profile` or `load.csv`.
    case load
    /// `policy.max_attempts` (or the cool-off cycles that repeat them).
    case attempts
    /// `bucket`: the time-series buckets, horizon / bucket.
    case bucket
    /// `populations`: each population is estimated as a fleet of its own.
    case populations
    /// `--replications`.
    case replications
    /// The points of a study: its variants, `--vary` values or grid points.
    case points
    /// `services.CALLER.calls.CALLEE.count` (the payload is the edge's prefix,
    /// `services.CALLER.calls.CALLEE`): a call graph's requests multiply by it below the edge.
    case callCount(String)
    /// `services.CALLER.calls.CALLEE.policy.max_attempts`: the attempts of each call on the edge
    /// (its copies when it hedges, `policy.hedge.max_attempts`).
    case callAttempts(String)

    /// The driver among `factors` whose value is furthest above 1, in decades; ties go to the
    /// first, and a list where none is above 1 gives its first. NaN counts as 1.
    package static func strongest(_ factors: [(ResourceDriver, Double)]) -> ResourceDriver {
        var best = factors.first?.0 ?? .clients
        var most = 0.0
        for (driver, value) in factors {
            let decades = value > 1 ? log10(value) : 0
            if decades > most {
                best = driver
                most = decades
            }
        }
        return best
    }
}
