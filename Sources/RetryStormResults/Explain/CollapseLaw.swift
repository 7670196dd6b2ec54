import Foundation
import GSLSupport

/// The mean time to spontaneous collapse from a healthy start: the first passage of the backlog
/// from 0 to the critical backlog n*, as a birth–death chain (docs/models.md, "Collapse").
///
/// In state n (requests in the system) requests leave at the server's rate S(n) and arrive at
/// λ·A(n), where A(n) = 1 + p + … + p^(k−1) counts the retries of an attempt that finds n ahead
/// of it and times out with probability p = P(Erlang(n + 1, μ) > τ) (one worker, exponential
/// service). With one attempt (A = 1) and no congestion this is the M/M/1 queue's exact first
/// passage; retries are taken as arriving at once rather than a timeout later, and congestion as a
/// state-dependent rate, both approximations.
package enum CollapseLaw {
    /// Seconds from an empty system to n* = ⌈criticalBacklog⌉ requests: +∞ when it overflows a
    /// Double (more than about 10^308 s) or no arrivals come; nil when n* is over a million
    /// requests (not computed: a state costs a GSL call).
    ///
    /// With E_j the mean time from j to j + 1: E_0 = 1/b_0 and E_j = 1/b_j + (d_j/b_j)·E_(j−1),
    /// where b_j and d_j are the birth and death rates in state j; the passage is ΣE_j, j < N.
    package static func meanTime(server: ServerLaw, load: Double, timeout: Double, attempts: Int) -> Double? {
        let target = Int(server.criticalBacklog(timeout: timeout).rounded(.up))
        guard load > 0, target > 0 else { return load > 0 ? 0 : .infinity }
        guard target <= 1_000_000 else { return nil }
        let k = Double(Swift.max(1, attempts))
        var previous = 0.0
        var total = 0.0
        for j in 0..<target {
            // Late when fewer than j + 1 of the server's completions fall within the timeout.
            let late = Statistics.poissonCDF(j, mean: server.rate(Double(Swift.max(j, 1))) * timeout)
            // 1 + p + … + p^(k−1) in closed form: a policy may allow billions of attempts.
            let amplification = late >= 1 ? k : (1 - pow(late, k)) / (1 - late)
            let birth = load * amplification
            let death = server.rate(Double(j))
            previous = 1 / birth + death / birth * previous
            total += previous
            if !total.isFinite { return .infinity }
        }
        return total
    }
}
