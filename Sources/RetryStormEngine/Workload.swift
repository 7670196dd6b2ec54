#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GSLSupport
import RetryPolicy

/// Generates operation starts in time order, one event at a time, so the event queue holds one
/// pending arrival whatever the fleet size.
///
/// Poisson clients are merged into one Poisson stream of rate N·λ whose arrivals pick their client
/// uniformly at random — the superposition of independent Poisson processes is exactly that — and
/// uniform starts are generated as ascending order statistics (Bentley & Saxe, "Generating sorted
/// lists of random numbers", ACM TOMS 1980), so neither needs a per-client event.
struct Workload {
    let arrival: Scenario.Arrival
    let clients: Int
    /// Operations started so far.
    private(set) var started = 0
    /// The latest uniform order statistic, in [0, 1).
    private var position = 0.0

    init(_ arrival: Scenario.Arrival, clients: Int) {
        self.arrival = arrival
        self.clients = clients
    }

    /// The time of the first arrival, or nil if there is none before `horizon`.
    mutating func first(random: borrowing RandomStream, horizon: Int64) -> Int64? {
        next(after: 0, random: random, horizon: horizon)
    }

    /// Takes the arrival due now: returns the client whose operation starts.
    @inline(__always) mutating func take(random: borrowing RandomStream) -> Int {
        defer { started += 1 }
        switch arrival {
        case .burst, .uniform, .closed: return started
        case .poisson: return random.uniformInt(below: clients)
        }
    }

    /// The time of the arrival after the one at `now`, or nil if none comes before `horizon`.
    @inline(__always) mutating func next(after now: Int64, random: borrowing RandomStream, horizon: Int64) -> Int64? {
        let t: Int64
        switch arrival {
        case .burst(let at):
            guard started < clients else { return nil }
            t = at
        case .uniform(let start, let spread):
            guard started < clients else { return nil }
            let remaining = Double(clients - started)
            position += (1 - position) * (1 - pow(random.uniformPositive(), 1 / remaining))
            t = start &+ Int64(Double(spread) * position)
        case .poisson(let rate, let start, let until):
            let from = started == 0 ? start : now
            let gap = random.exponential(mean: 1 / (rate * Double(clients)))
            t = Time.adding(from, Time.nanoseconds(seconds: gap))
            guard t < until else { return nil }
        case .closed:
            // Closed-loop clients schedule their own operations (see Simulation).
            return nil
        }
        return t < horizon ? t : nil
    }
}
