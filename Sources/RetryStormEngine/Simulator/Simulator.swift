import GSLSupport
import RetryPolicy

/// The engine's entry point: runs one replication of a scenario.
package enum Simulator {
    /// Simulates replication `replication` of `scenario`. Deterministic: the same scenario,
    /// replication index and options give the same result on every run, in any thread, in any order.
    /// - Parameter progress: where the replication posts its simulated time as it goes, for a
    ///   progress display on another thread (nil: nowhere).
    package static func run(
        _ scenario: Scenario, replication: Int, options: EngineOptions,
        progress: SimulationProgress? = nil
    ) -> ReplicationResult {
        if let custom = scenario.customPolicy {
            // The one dynamic step, once per replication: the entry made where the policy's type is known.
            return custom.simulate(scenario, replication, options, progress)
        }
        return run(
            scenario, policies: scenario.effectivePopulations.map(\.policy), replication: replication, options: options,
            progress: progress)
    }

    /// ``run(_:replication:options:progress:)`` with `custom` running every client, whatever
    /// population it is in (``Scenario/customPolicy`` is not read): the library's ``RetryPolicy``
    /// directly, any other type through ``CallerPolicy``, so the event loop is one this module
    /// specialised in either case.
    package static func run<Policy: ClientPolicy>(
        _ scenario: Scenario, custom: Policy, replication: Int, options: EngineOptions,
        progress: SimulationProgress?
    ) -> ReplicationResult {
        let count = scenario.effectivePopulations.count
        if let library = custom as? RetryPolicy {
            return run(scenario, policies: Array(repeating: library, count: count), replication: replication, options: options, progress: progress)
        }
        return run(
            scenario, policies: Array(repeating: CallerPolicy(base: custom), count: count), replication: replication,
            options: options, progress: progress)
    }

    /// Simulates the replication with `policies[k]` running population k's clients.
    static func run<Policy: ClientPolicy>(
        _ scenario: Scenario, policies: [Policy], replication: Int, options: EngineOptions,
        progress: SimulationProgress?
    ) -> ReplicationResult {
        let stream = RandomStream(scenario: scenario.seed, replication: replication, stream: .service)
        let checks = options.checkInvariants
        let queue = options.eventQueue
        if scenario.isCallGraph {
            var sim = Simulation(
                scenario: scenario, policies: policies, replication: replication,
                server: GraphServer(scenario, replication: replication, memoryLimit: options.graphMemory, keepTotals: checks),
                checkInvariants: checks, eventQueue: queue, maxEvents: options.maxEvents, progress: progress)
            sim.run()
            return sim.result(scenario, replication: replication)
        }
        // The FIFO model schedules each request when it arrives; rejections that cost work take
        // a worker's time between requests already scheduled, and a hedged operation's cancelled
        // copies leave the queue, so both run the event-driven model.
        let hedges = policies.contains { $0.hedging != nil }
        switch scenario.server.model {
        case .queue(let q) where !q.lifo && q.congestion == 0 && q.rejectCost == 0 && !options.allEvents && !hedges:
            let reportAll =
                Simulation<FIFOQueueServer, Policy>.tracksAppliedWrites(policies) || scenario.server.errors.any
                || scenario.network != nil
            let ahead = Simulation<FIFOQueueServer, Policy>.canSettleAhead(scenario, policies)
            var sim = Simulation(
                scenario: scenario, policies: policies, replication: replication,
                server: FIFOQueueServer(
                    q, capacity: scenario.server.capacity, profile: scenario.server.profile,
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
            var sim = Simulation(
                scenario: scenario, policies: policies, replication: replication, server: ContentionServer(c, random: stream),
                checkInvariants: checks, eventQueue: queue, maxEvents: options.maxEvents, progress: progress)
            sim.run()
            return sim.result(scenario, replication: replication)
        case .flaky(let f):
            var sim = Simulation(
                scenario: scenario, policies: policies, replication: replication, server: FlakyServer(f, random: stream),
                checkInvariants: checks, eventQueue: queue, maxEvents: options.maxEvents, progress: progress)
            sim.run()
            return sim.result(scenario, replication: replication)
        }
    }

    /// ``run(_:replication:options:)`` with the options given one by one.
    package static func run(
        _ scenario: Scenario, replication: Int, checkInvariants: Bool = false,
        eventQueue: EventQueueKind = .wheel, allEvents: Bool = false
    ) -> ReplicationResult {
        run(
            scenario, replication: replication,
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
