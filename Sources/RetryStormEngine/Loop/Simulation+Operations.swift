import GSLSupport
import RetryPolicy

/// Operations: their arrivals and ends, and the fleet-wide happenings that move many at once.
extension Simulation where Server: ~Copyable {
    /// The first arrivals, closed-loop starts, the end of the offline window, the restart wave.
    mutating func scheduleWorkload() {
        if !fleet.hasPopulations || fleet.clients(inPopulation: 0) > 0,
            let t = arrivals.workload.first(random: arrivals.random, horizon: horizon)
        {
            agenda.schedule(time: t, kind: .arrival, slot: 0, generation: 0)
        }
        if case .closed(_, let start, let spread, let until) = arrivals.workload.arrival {
            for c in 0..<fleet.clients(inPopulation: 0) {
                let t = start &+ Int64(arrivals.random.uniform() * Double(spread))
                if t < horizon && t < until {
                    agenda.schedule(time: t, kind: .workload, slot: UInt32(c), generation: 0, aux: WorkloadEvent.next.rawValue)
                }
            }
        }
        if fleet.hasPopulations { scheduleOtherPopulations() }
        if let o = features.offline, o.nudge {
            agenda.schedule(time: Time.adding(o.at, o.duration), kind: .workload, slot: 0, generation: 0, aux: WorkloadEvent.reconnect.rawValue)
        }
        if let r = features.restart {
            agenda.schedule(time: r.at, kind: .workload, slot: 0, generation: 0, aux: WorkloadEvent.restart.rawValue)
        }
    }

    @inline(__always) mutating func arrive<C: LoopKind>(_ e: Event, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        if e.slot != 0 {
            arrive(population: Int(e.slot), now, policy, loop)
            return
        }
        let client = arrivals.workload.take(random: arrivals.random)
        if let t = arrivals.workload.next(after: now.time, random: arrivals.random, horizon: horizon) {
            agenda.schedule(time: t, kind: .arrival, slot: 0, generation: 0)
        }
        startOperation(client: UInt32(truncatingIfNeeded: client), now, policy, loop)
    }

    @inline(__always) mutating func startOperation<C: LoopKind>(
        client: UInt32, population: UInt8 = 0, _ now: Moment,
        _ policy: borrowing Policy, _ loop: C.Type
    ) {
        let host = fleet.hosts > 1 ? UInt16(arrivals.random.uniformInt(below: fleet.hosts)) : 0
        let background = fleet.backgroundFraction(population)
        let lane: Lane = background > 0 && arrivals.random.uniform() < background ? .background : .userInitiated
        let slot = ops.allocate(client: client, population: population, host: host, lane: lane, now: now.time)
        recorder.count(.operations, now)
        if fleet.hasPopulations { countPopulation(.operations, slot, now) }
        startAttempt(slot, now, policy, loop)
    }

    mutating func workloadEvent<C: LoopKind>(_ e: Event, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        switch WorkloadEvent(rawValue: e.aux) {
        case .next: startOperation(client: e.slot, population: UInt8(truncatingIfNeeded: e.generation), now, policy, loop)
        case .reconnect: reconnect(now)
        case .restart: restartWave(now, policy, loop)
        case nil:
            // Only scheduleWorkload and ended() make workload events, each with a WorkloadEvent.
            preconditionFailure("corrupt workload event (aux \(e.aux))")
        }
    }

    /// An operation ended: a closed-loop client thinks, then starts its next one.
    @inline(__always) mutating func ended(_ slot: UInt32, _ now: Moment) {
        progress.lastEnd = now.time
        let client = ops.header(slot).pointee.client
        let population = ops.body(slot).pointee.population
        ops.release(slot)
        if case .closed(let think, _, _, let until) = arrivals.arrival(population) {
            let t = Time.adding(now.time, Time.nanoseconds(seconds: arrivals.random.exponential(mean: Double(think) / 1e9)))
            if t < horizon && t < until {
                agenda.schedule(time: t, kind: .workload, slot: client, generation: UInt32(population), aux: WorkloadEvent.next.rawValue)
            }
        }
    }

    // MARK: - Fleet events

    /// The offline window ends: every waiting operation of the clients that were offline tries at once.
    mutating func reconnect(_ now: Moment) {
        for s in 0..<UInt32(ops.slotCount) {
            let b = ops.body(s)
            let h = ops.header(s)
            guard b.pointee.flags.contains(.live), !h.pointee.awaiting, fleet.goesOffline(h.pointee.client) else { continue }
            switch b.pointee.record.phase {
            case .willRetry, .coolingOff, .unknown:
                h.pointee.generation &+= 1
                b.pointee.record.nextAttemptAt = now.time
                agenda.schedule(time: now.time, kind: .send, slot: s, generation: h.pointee.generation)
            default:
                break
            }
        }
    }

    /// A share of the fleet restarts the app: attempts in flight are abandoned and each operation
    /// goes on from its persisted record (kept or reset by the policy).
    mutating func restartWave<C: LoopKind>(_ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        for s in 0..<UInt32(ops.slotCount) {
            let b = ops.body(s)
            let h = ops.header(s)
            guard b.pointee.flags.contains(.live), fleet.restarts(h.pointee.client) else { continue }
            if h.pointee.awaiting {
                h.pointee.awaiting = false
                if b.pointee.flags.contains(.reconciling) {
                    inFlight.queries &-= 1
                } else if C.general && features.hedging && b.pointee.flags.contains(.hedged) {
                    // Every copy out is abandoned; the operation goes on from its record, its next
                    // attempt a first copy again (``firstCopy``).
                    abandonCopies(s, now, cancel: false)
                } else {
                    inFlight.attempts &-= 1
                    recorder.count(.abandoned, now)
                    if fleet.hasPopulations { countPopulation(.abandoned, s, now) }
                }
            }
            if b.pointee.flags.contains(.woken) {
                fleet.wokenLeft(fleet.guardIndex(h.pointee.client, b.pointee.host))
            }
            b.pointee.flags.subtract([.waitingForSlot, .woken, .reconciling])
            h.pointee.generation &+= 1
            if let at = policies.lend(b.pointee.population, policy, loop, { $0.restart(record: &b.pointee.record, now: now.time) }),
                at < horizon
            {
                agenda.schedule(time: max(at, now.time), kind: .send, slot: s, generation: h.pointee.generation)
            }
        }
        guard fleet.perClientGuards else { return }
        for c in 0..<UInt32(fleet.clients) where fleet.restarts(c) {
            for host in 0..<fleet.hosts {
                let g = Int(c) &* fleet.hosts &+ host
                policies.lend(fleet.population(of: c), policy, loop, { $0.restart(host: &fleet.guards.base[g]) })
            }
        }
    }
}
