import RetryPolicy
import RetryStormEngine

/// The fluid limit of a retrying FIFO server that serves abandoned work: requests flow as a
/// continuum, stepped every `step` seconds (docs/models.md, "Explain: the laws").
///
/// Each step the server serves S(n) · step of the n requests in the system, first in first out;
/// the attempts sent `timeout` ago that it has not finished by now time out, and those with
/// attempts left are sent again at once (no backoff); new operations send λ(t) · step first
/// attempts; what does not fit in the system's room is refused, and a refused attempt retried at
/// once is refused again in the same instant, so its operation fails. Deterministic: the same
/// inputs give the same numbers, and nothing is drawn.
package struct FluidModel: Sendable {
    /// The server's rate and room.
    package var server: ServerLaw
    /// First attempts per second at load multiplier 1.
    package var load: Double
    /// Seconds an attempt waits for its answer.
    package var timeout: Double
    /// Attempts per operation, the first included.
    package var attempts: Int
    /// Capacity over time, as a fraction of nominal.
    package var capacity: CapacityProfile
    /// The load's multiplier over time.
    package var loadProfile: LoadProfile
    /// The seconds in which operations start (the arrival's `start` and `until`).
    package var window: (start: Double, until: Double) = (0, .infinity)
    /// The trigger stretched to another length: from `start` (seconds) the level at `start` lasts
    /// `length` instead of `original`, and what followed the original comes that much later.
    package var stretch: (start: Double, original: Double, length: Double)?

    /// What one fluid run saw.
    package struct Outcome: Sendable {
        /// The run ended in the retry-sustained state: at or above the critical backlog, with every
        /// attempt timing out and more attempts sent than the server serves for the last
        /// `attempts × timeout` seconds, the retries of every generation come back: it never drains.
        package var stuck: Bool
        /// The last time an attempt timed out, seconds (nil: none did).
        package var lastTimeout: Double?
        /// The time the run stopped, seconds: the backlog drained, stuck for good, or `until`.
        package var end: Double
    }

    package init(server: ServerLaw, load: Double, timeout: Double, attempts: Int, capacity: CapacityProfile, loadProfile: LoadProfile) {
        self.server = server
        self.load = load
        self.timeout = timeout
        self.attempts = attempts
        self.capacity = capacity
        self.loadProfile = loadProfile
    }

    /// The time in the original profiles that `t` (seconds) reads under the stretch.
    @inline(__always) func warped(_ t: Double) -> Double {
        guard let s = stretch, t >= s.start else { return t }
        if t < s.start + s.length { return s.start }
        return t - s.length + s.original
    }

    /// Runs from an empty system to `until` seconds, stopping early once the trigger (ending at
    /// `triggerEnd` seconds under the stretch) is over and the run has drained or is stuck for
    /// good. `sustained` says a retry-sustained overload can persist (``Explanation/Sustain/persists``).
    ///
    /// The step is τ/500, coarser when the run would take more than `budget` step-generations
    /// (steps × attempts): the fluid's cost stays bounded whatever the timeout, horizon and
    /// attempts (a 1 ms timeout over an hour, or 1,000 attempts).
    package func run(until: Double, triggerEnd: Double, sustained: Bool, budget: Double = 2e7) -> Outcome {
        let step = Swift.max(timeout / 500, until * Double(Swift.max(1, attempts)) / budget)
        let lag = Swift.max(1, Int((timeout / step).rounded()))
        let k = Swift.max(1, attempts)
        let ring = lag + 1
        var mass = [Double](repeating: 0, count: ring * k)
        var before = [Double](repeating: 0, count: ring)
        var retries = [Double](repeating: 0, count: k)
        var n = 0.0
        var admittedTotal = 0.0
        var departed = 0.0
        var lastTimeout: Double?
        var allTimingOut = 0
        let critical = server.criticalBacklog(timeout: timeout)
        let steps = Int((until / step).rounded(.up))
        let baseline = load * Double(server.workers) / server.capacity
        var i = 0
        while i < steps {
            let t = Double(i) * step
            let original = Nanoseconds((warped(t) * 1e9).rounded())
            let f = capacity.fraction(at: original)
            let served = Swift.min(n, server.rate(n, fraction: f) * step)
            n -= served
            departed += served
            // The cohort sent a timeout ago: whatever of it is not yet served times out now.
            let slot = i % ring
            for g in 0..<k { retries[g] = 0 }
            var cohort = 0.0
            for g in 0..<k { cohort += mass[slot * k + g] }
            var share = 0.0
            if i >= lag && cohort > 0 {
                let done = Swift.min(Swift.max(departed - before[slot], 0), cohort)
                share = (cohort - done) / cohort
                if share > 1e-9 {
                    lastTimeout = t
                    for g in 0..<(k - 1) { retries[g + 1] = mass[slot * k + g] * share }
                }
            }
            retries[0] = t >= window.start && t < window.until ? load * loadProfile.multiplier(at: original) * step : 0
            var offered = 0.0
            for g in 0..<k { offered += retries[g] }
            let fits = offered > 0 ? Swift.min(1, Swift.max(server.room - n, 0) / offered) : 0
            // Held: every attempt times out and more is sent than the server serves, so the
            // backlog cannot fall.
            allTimingOut = share > 0.999 && offered >= server.rate(n, fraction: f) * step ? allTimingOut + 1 : 0
            before[slot] = admittedTotal
            for g in 0..<k { mass[slot * k + g] = retries[g] * fits }
            admittedTotal += offered * fits
            n += offered * fits
            i += 1
            if t > triggerEnd + timeout {
                if sustained && n >= critical && allTimingOut >= k * lag {
                    return Outcome(stuck: true, lastTimeout: lastTimeout, end: t)
                }
                if let last = lastTimeout, t - last > 2 * timeout, n <= baseline + 1 {
                    return Outcome(stuck: false, lastTimeout: lastTimeout, end: t)
                }
                if lastTimeout == nil && n <= baseline + 1 {
                    return Outcome(stuck: false, lastTimeout: nil, end: t)
                }
            }
        }
        return Outcome(stuck: false, lastTimeout: lastTimeout, end: until)
    }
}
