import GSLSupport
import RetryPolicy

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Generates operation starts in time order, one event at a time, so the event queue holds one
/// pending arrival whatever the fleet size.
///
/// Poisson clients are merged into one Poisson stream of rate N·λ whose arrivals pick their client
/// uniformly at random — the superposition of independent Poisson processes is exactly that — and
/// uniform starts are generated as ascending order statistics (Bentley & Saxe, "Generating sorted
/// lists of random numbers", ACM TOMS 1980), so neither needs a per-client event. Constant-rate
/// clients come round in the order of their phases, once a period.
///
/// Under a load profile, `poisson` and `constant` arrivals run on the profile's operational time
/// (see ``LoadProfile``); a flat profile takes the homogeneous path unchanged.
struct Workload {
    let arrival: Scenario.Arrival
    let clients: Int
    let load: LoadProfile
    let loadFlat: Bool
    /// Operations started so far.
    private(set) var started = 0
    /// The latest uniform order statistic, in [0, 1).
    private var position = 0.0
    /// Operational time of the latest arrival under a load profile, seconds.
    private var operational = 0.0
    /// Constant-rate clients by phase: each one's phase (seconds of operational time into the
    /// period, ascending) and index.
    private var phases: [Phase] = []

    struct Phase {
        var offset: Double
        var client: UInt32
    }

    init(_ arrival: Scenario.Arrival, clients: Int, load: LoadProfile = .flat) {
        self.arrival = arrival
        self.clients = clients
        self.load = load
        loadFlat = load.isFlat
    }

    /// The time of the first arrival, or nil if there is none before `horizon`.
    mutating func first(random: borrowing RandomStream, horizon: Int64) -> Int64? {
        switch arrival {
        case .poisson(_, let start, _):
            if !loadFlat { operational = load.integral(to: start) }
        case .constant(let rate, let start, _):
            // Each client's phase, drawn in client order, then the clients sorted by it.
            phases.reserveCapacity(clients)
            for c in 0..<clients { phases.append(Phase(offset: random.uniform() / rate, client: UInt32(truncatingIfNeeded: c))) }
            phases.sort { ($0.offset, $0.client) < ($1.offset, $1.client) }
            operational = loadFlat ? 0 : load.integral(to: start)
        default:
            break
        }
        return next(after: 0, random: random, horizon: horizon)
    }

    /// Takes the arrival due now: returns the client whose operation starts.
    @inline(__always) mutating func take(random: borrowing RandomStream) -> Int {
        defer { started += 1 }
        switch arrival {
        case .burst, .uniform, .closed: return started
        case .poisson: return random.uniformInt(below: clients)
        case .constant: return Int(phases[started % clients].client)
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
            let gap = random.exponential(mean: 1 / (rate * Double(clients)))
            if loadFlat {
                let from = started == 0 ? start : now
                t = Time.adding(from, Time.nanoseconds(seconds: gap))
            } else {
                operational += gap
                t = load.time(atIntegral: operational)
            }
            guard t < until else { return nil }
        case .constant(let rate, let start, let until):
            // Arrival number `started`: client phases[i] in period k, at phase + k / rate.
            let (k, i) = started.quotientAndRemainder(dividingBy: clients)
            let offset = phases[i].offset + Double(k) / rate
            t = loadFlat ? Time.adding(start, Time.nanoseconds(seconds: offset)) : load.time(atIntegral: operational + offset)
            guard t < until else { return nil }
        case .closed:
            // Closed-loop clients schedule their own operations (see Simulation).
            return nil
        }
        return t < horizon ? t : nil
    }
}
