/// The fluid laws of one FIFO `queue` server that serves abandoned work: how fast it serves with
/// `n` requests in the system, and the backlog past which a new request's time in the system
/// exceeds its client's timeout (docs/models.md, "Explain: the laws").
///
/// Units: requests, seconds, requests per second. A request's service takes `workers / capacity`
/// seconds at nominal capacity, stretched by `1 / fraction` when capacity drops, plus `congestion`
/// seconds per request in the system (the engine's congestion collapse).
package struct ServerLaw: Sendable, Hashable {
    /// Requests per second at nominal capacity, all workers together.
    package var capacity: Double
    /// Workers serving at once.
    package var workers: Int
    /// Seconds added to each service per request in the system.
    package var congestion: Double
    /// The most requests the system holds (queue limit plus workers); `.infinity` without a limit.
    package var room: Double

    package init(capacity: Double, workers: Int, congestion: Double, room: Double) {
        self.capacity = capacity
        self.workers = workers
        self.congestion = congestion
        self.room = room
    }

    /// Requests served per second with `n` in the system at `fraction` of nominal capacity:
    /// min(n, W) / (W / (fraction · μ) + c · n).
    @inline(__always) package func rate(_ n: Double, fraction: Double = 1) -> Double {
        guard n > 0, fraction > 0 else { return 0 }
        let w = Double(workers)
        return Swift.min(n, w) / (w / (fraction * capacity) + congestion * n)
    }

    /// The critical backlog n* for a timeout of `timeout` seconds: the n at which the server takes
    /// `timeout` to serve the n requests in the system, n = τ · S(n). Without congestion it is
    /// capacity × timeout (the queue a new request must not find); with congestion c it solves
    /// c·n² + (W/μ)·n − W·τ = 0.
    package func criticalBacklog(timeout: Double) -> Double {
        let w = Double(workers)
        let b = w / capacity
        guard congestion > 0 else { return capacity * timeout }
        return (-b + (b * b + 4 * congestion * w * timeout).squareRoot()) / (2 * congestion)
    }

    /// The most the server serves per second: its rate with every worker busy and nothing
    /// waiting, W / (W/μ + c·W) (congestion makes any backlog slower). A first-attempt load at or
    /// above it is unstable without any trigger.
    package var peakRate: Double { rate(Double(workers)) }
}
