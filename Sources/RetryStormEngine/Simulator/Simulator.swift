import GSLSupport
import RetryPolicy

/// The engine's entry point: runs one replication of a scenario.
public enum Simulator {
    /// Simulates replication `replication` of `scenario`. Deterministic: the same scenario,
    /// replication index and options give the same result on every run, in any thread, in any order.
    /// - Parameter progress: where the replication posts its simulated time as it goes, for a
    ///   progress display on another thread (nil: nowhere).
    public static func run(_ scenario: Scenario, replication: Int, options: EngineOptions,
                           progress: SimulationProgress? = nil) -> ReplicationResult {
        if let custom = scenario.customPolicy {
            // The one dynamic step, once per replication: the entry made where the policy's type is known.
            return custom.simulate(scenario, replication, options, progress)
        }
        return run(scenario, policies: scenario.effectivePopulations.map(\.policy), replication: replication, options: options,
                   progress: progress)
    }

    /// ``run(_:replication:options:progress:)`` with `custom` running every client, whatever
    /// population it is in (``Scenario/customPolicy`` is not read). Generic, and serialised for other
    /// modules (cross-module optimisation): a caller that names its policy type gets an event loop
    /// specialised for it.
    public static func run<Policy: ClientPolicy>(_ scenario: Scenario, custom: Policy, replication: Int, options: EngineOptions,
                                          progress: SimulationProgress?) -> ReplicationResult {
        run(scenario, policies: Array(repeating: custom, count: scenario.effectivePopulations.count), replication: replication,
            options: options, progress: progress)
    }

    /// Simulates the replication with `policies[k]` running population k's clients.
    static func run<Policy: ClientPolicy>(_ scenario: Scenario, policies: [Policy], replication: Int, options: EngineOptions,
                                          progress: SimulationProgress?) -> ReplicationResult {
        let stream = RandomStream(scenario: scenario.seed, replication: replication, stream: .service)
        let checks = options.checkInvariants
        let queue = options.eventQueue
        switch scenario.server.model {
        case .queue(let q) where !q.lifo && q.congestion == 0 && !options.allEvents:
            let reportAll = Simulation<FIFOQueueServer, Policy>.tracksAppliedWrites(policies) || scenario.server.errors.any
                || scenario.network != nil
            let ahead = Simulation<FIFOQueueServer, Policy>.canSettleAhead(scenario, policies)
            var sim = Simulation(
                scenario: scenario, policies: policies, replication: replication,
                server: FIFOQueueServer(q, capacity: scenario.server.capacity, profile: scenario.server.profile,
                                        horizon: scenario.horizon, bucket: scenario.bucket, reportAll: reportAll, settleAhead: ahead, random: stream),
                checkInvariants: checks, eventQueue: queue, maxEvents: options.maxEvents, progress: progress)
            sim.run()
            return sim.result(scenario, replication: replication)
        case .queue(let q):
            var sim = Simulation(
                scenario: scenario, policies: policies, replication: replication,
                server: QueueServer(q, capacity: scenario.server.capacity, profile: scenario.server.profile, random: stream),
                checkInvariants: checks, eventQueue: queue, maxEvents: options.maxEvents, progress: progress)
            sim.run()
            return sim.result(scenario, replication: replication)
        case .contention(let c):
            var sim = Simulation(scenario: scenario, policies: policies, replication: replication, server: ContentionServer(c, random: stream),
                                 checkInvariants: checks, eventQueue: queue, maxEvents: options.maxEvents, progress: progress)
            sim.run()
            return sim.result(scenario, replication: replication)
        case .flaky(let f):
            var sim = Simulation(scenario: scenario, policies: policies, replication: replication, server: FlakyServer(f, random: stream),
                                 checkInvariants: checks, eventQueue: queue, maxEvents: options.maxEvents, progress: progress)
            sim.run()
            return sim.result(scenario, replication: replication)
        }
    }

    /// ``run(_:replication:options:)`` with the options given one by one.
    public static func run(_ scenario: Scenario, replication: Int, checkInvariants: Bool = false,
                           eventQueue: EventQueueKind = .wheel, allEvents: Bool = false) -> ReplicationResult {
        run(scenario, replication: replication,
            options: EngineOptions(checkInvariants: checkInvariants, eventQueue: eventQueue, allEvents: allEvents))
    }
}

extension Simulation where Server: ~Copyable {
    /// Whether the engine follows which writes the server applied: without idempotency keys (to
    /// count duplicates) or with reconciliation (to answer status queries), in any of `policies`.
    static func tracksAppliedWrites(_ policies: [Policy]) -> Bool {
        policies.contains { $0.ambiguity.idempotency == .none || $0.ambiguity.reconcile }
    }
}

extension Simulation where Server: ~Copyable {
    /// Assembles the replication's outputs once the event loop has stopped.
    mutating func result(_ scenario: Scenario, replication: Int) -> ReplicationResult {
        let width = Counter.allCases.count
        let nb = recorder.buckets
        var counts = [Int64](repeating: 0, count: nb * width)
        for i in 0..<(nb * width) { counts[i] = recorder.counts[i] }
        let queue = (0..<nb).map { recorder.queueAtEnd[$0] }
        let nominal = scenario.server.capacity
        let profile = scenario.server.profile
        let capacity = (0..<nb).map { b -> Double in
            let a = Int64(b) * recorder.bucket
            let e = min(a + recorder.bucket, horizon)
            return e > a ? nominal * profile.integral(from: a, to: e) / (Double(e - a) / 1e9) : nominal
        }
        var peak: Int64 = 0
        for i in 0..<recorder.offeredPerSecond.count { peak = max(peak, recorder.offeredPerSecond[i]) }

        // The incident's successes are picked out before the sort reorders them.
        let trigger = scenario.trigger
        let recovery = recoverySeconds(triggeredAt: trigger?.start)
        let incident = trigger.map { trigger in
            Incident(start: trigger.start, end: min(trigger.end, horizon), healthy: recovery.healthyBucket,
                     count: recorder.buckets, width: recorder.bucket)
        }
        var incidentTimes: [Double] = []
        if let incident {
            for i in 0..<recorder.timesToSuccess.count where incident.buckets.contains(Int(recorder.successStartBuckets[i])) {
                incidentTimes.append(recorder.timesToSuccess[i])
            }
            incidentTimes.withUnsafeMutableBufferPointer { Statistics.sort($0) }
        }
        // Per population, from the times to success in the order they were recorded.
        let byPopulation = populationResults(scenario, incident: incident)
        let tts = UnsafeMutableBufferPointer(start: recorder.timesToSuccess.base, count: recorder.timesToSuccess.count)
        Statistics.sort(tts)
        let sorted = UnsafeBufferPointer(tts)
        let quantiles = sorted.isEmpty ? [] : (0...1000).map { Statistics.quantile(sorted: sorted, Double($0) / 1000) }

        func total(_ c: Counter) -> Int64 { recorder.total(c) }
        let attempts = total(.firstAttempts) + total(.retries)
        let ops = total(.operations)
        let finished = total(.succeeded) + total(.confirmed) + total(.gaveUp) + total(.blocked)
        if checkInvariants {
            checkEvent()
            let capacityIntegral = nominal * profile.integral(from: 0, to: horizon)
            if case .queue(let q) = scenario.server.model, q.service == .deterministic,
               Double(total(.served)) > capacityIntegral + Double(q.workers) {
                fail("served \(total(.served)) > capacity integral \(capacityIntegral) + \(q.workers) workers")
            }
        }
        // The run ends when nothing is left to happen — at the last operation's end or the last
        // request served, whichever is later (a stale event popped later is not a happening; with
        // attempts settled ahead there is none) — or at the horizon. The queue is measured to then.
        let end = agenda.isEmpty && server.peekEvent() == nil && ops == finished ? max(lastEnd, server.busyUntil) : horizon
        let summary = Summary(
            clients: scenario.clients.count,
            operations: ops,
            attempts: attempts,
            firstAttempts: total(.firstAttempts),
            retries: total(.retries),
            amplification: ops > 0 ? Double(attempts) / Double(ops) : .nan,
            succeeded: total(.succeeded),
            gaveUp: total(.gaveUp),
            blocked: total(.blocked),
            unfinished: ops - finished,
            failed: total(.failed),
            timedOut: total(.timedOut),
            rejected: total(.rejected),
            offered: total(.offered),
            served: total(.served),
            wasted: total(.wasted),
            expired: total(.expired),
            offline: total(.offline),
            duplicates: total(.duplicates),
            queries: total(.queries),
            confirmed: total(.confirmed),
            abandoned: total(.abandoned),
            budgetDenied: total(.budgetDenied),
            heldBack: total(.heldBack),
            waitMeanSeconds: server.admitted > 0 ? server.waitingArea(until: end) / Double(server.admitted) : .nan,
            peakOfferedPerSecond: peak,
            peakLoadRatio: Double(peak) / nominal,
            ttsMean: Statistics.mean(UnsafeBufferPointer(tts)),
            ttsP50: Statistics.quantile(sorted: sorted, 0.5),
            ttsP90: Statistics.quantile(sorted: sorted, 0.9),
            ttsP99: Statistics.quantile(sorted: sorted, 0.99),
            ttsP999: Statistics.quantile(sorted: sorted, 0.999),
            ttsMax: sorted.last ?? .nan,
            recoverySeconds: recovery.seconds,
            wastedFraction: total(.served) > 0 ? Double(total(.wasted)) / Double(total(.served)) : 0,
            events: processed &+ settledAhead,
            simEndSeconds: Double(end) / 1e9,
            meanQueueLength: server.waitingArea(until: end) / (Double(horizon) / 1e9),
            gaveUpFraction: Double(total(.gaveUp)) / Double(ops),
            blockedFraction: Double(total(.blocked)) / Double(ops),
            incidentTTSP50: incidentTimes.withUnsafeBufferPointer { Statistics.quantile(sorted: $0, 0.5) },
            incidentTTSP99: incidentTimes.withUnsafeBufferPointer { Statistics.quantile(sorted: $0, 0.99) },
            incidentGaveUpFraction: incident.map { w in
                let started = w.buckets.reduce(Int64(0)) { $0 + recorder.counts[$1 &* width &+ Counter.operations.rawValue] }
                let gaveUp = w.buckets.reduce(Int64(0)) { $0 + recorder.counts[$1 &* width &+ Counter.gaveUpByStart.rawValue] }
                return Double(gaveUp) / Double(started)
            } ?? .nan,
            peakOverload: peakOverload(capacity),
            recovered: recovery.seconds.isFinite ? 1 : 0,
            recoveryAfterTriggerSeconds: trigger.map { trigger in
                guard recovery.seconds.isFinite else { return .infinity }
                let healthyAt = Double(trigger.start) / 1e9 + recovery.seconds
                return max(0, healthyAt - Double(min(trigger.end, horizon)) / 1e9)
            } ?? .nan)
        var result = ReplicationResult(
            replication: replication, bucket: recorder.bucket, counts: counts, queueAtEnd: queue,
            capacityPerSecond: capacity, summary: summary, ttsQuantiles: quantiles, invariantViolation: violation,
            eventLimitReached: eventLimitReached)
        result.populations = byPopulation
        return result
    }

    /// See ``Summary/recoverySeconds``; also the first healthy bucket (nil if the last bucket still
    /// had failures).
    func recoverySeconds(triggeredAt start: Int64?) -> (seconds: Double, healthyBucket: Int?) {
        let width = Counter.allCases.count
        var lastBad = -1
        for b in 0..<recorder.buckets {
            let base = b * width
            if recorder.counts[base + Counter.timedOut.rawValue] + recorder.counts[base + Counter.rejected.rawValue]
                + recorder.counts[base + Counter.expired.rawValue] > 0 {
                lastBad = b
            }
        }
        if lastBad < 0 { return (0, 0) }
        if lastBad == recorder.buckets - 1 { return (.infinity, nil) }
        let healthyFrom = Int64(lastBad + 1) * recorder.bucket
        return (max(0, Double(healthyFrom - (start ?? 0)) / 1e9), lastBad + 1)
    }

    /// See ``Summary/peakOverload``: offered attempts per second of each bucket over its mean capacity.
    func peakOverload(_ capacity: [Double]) -> Double {
        var peak = Double.nan
        for b in 0..<recorder.buckets {
            let a = Int64(b) * recorder.bucket
            let seconds = Double(min(a + recorder.bucket, horizon) - a) / 1e9
            guard capacity[b] > 0, seconds > 0 else { continue }
            let load = Double(recorder.counts[b &* Counter.allCases.count &+ Counter.offered.rawValue]) / seconds / capacity[b]
            if !(load <= peak) { peak = load }
        }
        return peak
    }
}
