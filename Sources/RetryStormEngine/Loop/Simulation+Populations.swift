import GSLSupport
import RetryPolicy

/// Populations: their arrivals besides population 0's, their counts, and their results. None of
/// this runs without populations (``ClientFleet/hasPopulations``).
extension Simulation where Server: ~Copyable {
    /// The first arrivals and closed-loop starts of populations 1, 2, … (population 0's are
    /// scheduled as without populations). A population without clients has none.
    mutating func scheduleOtherPopulations() {
        let populations = fleet.populations
        for k in 1..<populations.count where populations[k].clients > 0 {
            if let t = otherWorkloads[k - 1].first(random: arrivalRandom, horizon: horizon) {
                agenda.schedule(time: t, kind: .arrival, slot: UInt32(k), generation: 0)
            }
            if case .closed(_, let start, let spread, let until) = otherWorkloads[k - 1].arrival {
                for c in 0..<populations[k].clients {
                    let t = start &+ Int64(arrivalRandom.uniform() * Double(spread))
                    if t < horizon && t < until {
                        agenda.schedule(time: t, kind: .workload, slot: UInt32(populations[k].firstClient + c), generation: UInt32(k),
                                        aux: WorkloadEvent.next.rawValue)
                    }
                }
            }
        }
    }

    /// An arrival of population `k` ≥ 1: its next one goes on the agenda, this one's operation starts.
    mutating func arrive<C: PolicyCount>(population k: Int, _ now: Moment, _ policy: borrowing Policy, _ count: C.Type) {
        let client = otherWorkloads[k - 1].take(random: arrivalRandom)
        if let t = otherWorkloads[k - 1].next(after: now.time, random: arrivalRandom, horizon: horizon) {
            agenda.schedule(time: t, kind: .arrival, slot: UInt32(k), generation: 0)
        }
        startOperation(client: UInt32(truncatingIfNeeded: fleet.populations[k].firstClient + client), population: UInt8(k), now,
                       policy, count)
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

    mutating func populationGaveUp(_ slot: UInt32, _ now: Moment) {
        let b = ops.body(slot)
        countPopulation(.gaveUp, slot, now)
        populationRecorder.count(.gaveUpByStart, population: b.pointee.population, bucket: recorder.bucketIndex(b.pointee.createdAt))
    }

    /// Each population's results, from the counts and the times to success in the order they were
    /// recorded (before the fleet's are sorted). Empty without populations.
    /// - Parameter incident: the incident's buckets, when there is a trigger.
    func populationResults(_ scenario: Scenario, incident: Incident?) -> [PopulationResult] {
        guard fleet.hasPopulations else { return [] }
        let populations = fleet.populations
        var times = [[Double]](repeating: [], count: populations.count)
        var incidentTimes = [[Double]](repeating: [], count: populations.count)
        for i in 0..<recorder.timesToSuccess.count {
            let k = Int(populationRecorder.successPopulation[i])
            times[k].append(recorder.timesToSuccess[i])
            if let incident, incident.buckets.contains(Int(recorder.successStartBuckets[i])) {
                incidentTimes[k].append(recorder.timesToSuccess[i])
            }
        }
        var out: [PopulationResult] = []
        for k in scenario.populations.indices {
            var totals = [Int64](repeating: 0, count: PopulationRecorder.width)
            var offered = [Int64](repeating: 0, count: populationRecorder.buckets)
            var incidentStarted: Int64 = 0, incidentGaveUp: Int64 = 0
            for b in 0..<populationRecorder.buckets {
                for c in PopulationRecorder.Counter.allCases { totals[c.rawValue] += populationRecorder.count(c, population: k, bucket: b) }
                offered[b] = populationRecorder.count(.offered, population: k, bucket: b)
                if let incident, incident.buckets.contains(b) {
                    incidentStarted += populationRecorder.count(.operations, population: k, bucket: b)
                    incidentGaveUp += populationRecorder.count(.gaveUpByStart, population: k, bucket: b)
                }
            }
            Statistics.sort(&times[k])
            Statistics.sort(&incidentTimes[k])
            out.append(PopulationResult(
                name: scenario.populations[k].name, clients: populations[k].clients,
                operations: totals[PopulationRecorder.Counter.operations.rawValue],
                succeeded: totals[PopulationRecorder.Counter.succeeded.rawValue],
                gaveUp: totals[PopulationRecorder.Counter.gaveUp.rawValue],
                attempts: totals[PopulationRecorder.Counter.attempts.rawValue],
                ttsP50: Statistics.quantile(sorted: times[k], 0.5),
                ttsP99: Statistics.quantile(sorted: times[k], 0.99),
                incidentTTSP50: Statistics.quantile(sorted: incidentTimes[k], 0.5),
                incidentTTSP99: Statistics.quantile(sorted: incidentTimes[k], 0.99),
                incidentGaveUpFraction: incident != nil ? Double(incidentGaveUp) / Double(incidentStarted) : .nan,
                offered: offered))
        }
        return out
    }
}
