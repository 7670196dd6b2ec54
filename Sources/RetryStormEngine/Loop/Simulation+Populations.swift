import GSLSupport
import RetryPolicy

/// Populations: their arrivals besides population 0's and their counts (``ResultAssembler`` turns
/// those into their results). None of this runs without populations (``ClientFleet/hasPopulations``).
extension Simulation where Server: ~Copyable {
    /// The first arrivals and closed-loop starts of populations 1, 2, … (population 0's are
    /// scheduled as without populations). A population without clients has none.
    mutating func scheduleOtherPopulations() {
        let populations = fleet.populations
        for k in 1..<populations.count where populations[k].clients > 0 {
            if let t = arrivals.others[k - 1].first(random: arrivals.random, horizon: horizon) {
                agenda.schedule(time: t, kind: .arrival, slot: UInt32(k), generation: 0)
            }
            if case .closed(_, let start, let spread, let until) = arrivals.others[k - 1].arrival {
                for c in 0..<populations[k].clients {
                    let t = start &+ Int64(arrivals.random.uniform() * Double(spread))
                    if t < horizon && t < until {
                        agenda.schedule(
                            time: t, kind: .workload, slot: UInt32(populations[k].firstClient + c), generation: UInt32(k),
                            aux: WorkloadEvent.next.rawValue)
                    }
                }
            }
        }
    }

    /// An arrival of population `k` ≥ 1: its next one goes on the agenda, this one's operation starts.
    mutating func arrive<C: LoopKind>(population k: Int, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        let client = arrivals.others[k - 1].take(random: arrivals.random)
        if let t = arrivals.others[k - 1].next(after: now.time, random: arrivals.random, horizon: horizon) {
            agenda.schedule(time: t, kind: .arrival, slot: UInt32(k), generation: 0)
        }
        startOperation(
            client: UInt32(truncatingIfNeeded: fleet.populations[k].firstClient + client), population: UInt8(k), now,
            policy, loop)
    }

    @inline(__always) mutating func countPopulation(_ c: PopulationRecorder.Counter, _ slot: UInt32, _ now: Moment) {
        populationRecorder.count(c, population: ops.body(slot).pointee.population, bucket: recorder.bucketIndex(now.time))
    }

    /// `slot`'s operation succeeded (its time to success was just recorded by the fleet recorder).
    mutating func populationSucceeded(_ slot: UInt32, _ now: Moment) {
        let population = ops.body(slot).pointee.population
        countPopulation(.succeeded, slot, now)
        populationRecorder.successPopulation.append(population)
    }

    /// Counts a run total of `slot`'s population, unless it falls in the warmup: by when it
    /// happens, or — for how an operation ended (blocked, confirmed) — by when the operation
    /// started, as the fleet's counts are (``Recorder/warmupEnd``). Out of line: only scenarios
    /// with populations call it, and inlined at its dozen sites it grew the attempt path enough
    /// to stop it being inlined into `send` (bench-fleet 3% slower).
    @inline(never) mutating func countPopulation(_ c: PopulationRecorder.Total, _ slot: UInt32, _ now: Moment) {
        let b = ops.body(slot)
        let t = c == .blocked || c == .confirmed ? b.pointee.createdAt : now.time
        guard t >= recorder.warmupEnd else { return }
        populationRecorder.count(c, population: b.pointee.population)
    }

    /// Counts an attempt, and a retry, of `slot`'s population: one call on the attempt path.
    @inline(never) mutating func countPopulationAttempt(_ slot: UInt32, isRetry: Bool, _ now: Moment) {
        countPopulation(.attempts, slot, now)
        if isRetry { countPopulation(.retries, slot, now) }
    }

    mutating func populationGaveUp(_ slot: UInt32, _ now: Moment) {
        let b = ops.body(slot)
        countPopulation(.gaveUp, slot, now)
        populationRecorder.count(.gaveUpByStart, population: b.pointee.population, bucket: recorder.bucketIndex(b.pointee.createdAt))
    }
}

extension Simulation where Server: ~Copyable {
    /// Internal checks, in a run with populations: the operation of `e`, if it still holds its
    /// slot, belongs to a declared population. Its call is also what keeps the lean and the general
    /// event loops from being identical but for the functions they call: LLVM then
    /// merged them into one that calls every handler through a pointer (bench-fleet 1.6% more
    /// instructions per event).
    mutating func checkPopulation(_ e: Event) {
        guard e.kind != .arrival, e.kind != .workload, ops.header(e.slot).pointee.generation == e.generation else { return }
        let p = Int(ops.body(e.slot).pointee.population)
        if p > policies.otherCount { fail("population \(p) of slot \(e.slot) beyond the \(policies.otherCount + 1) declared") }
    }
}
