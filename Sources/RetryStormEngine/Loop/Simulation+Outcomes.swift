import GSLSupport
import RetryPolicy

/// What comes back from the server, and what the policy makes of it.
extension Simulation where Server: ~Copyable {
    /// Acts on what the server reported: applied writes, answers on their way back.
    @inline(__always) mutating func drainSink<C: LoopKind>(_ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        guard sink.notes.count > 0 else { return }
        var i = 0
        while i < sink.notes.count {
            let n = sink.notes[i]
            i += 1
            if features.trackApplied { ops.requestDone(n.slot) }
            if features.trackApplied && !n.query && n.code == .ok && n.kind != .dropped { applied(n.slot, n.generation, now) }
            guard n.kind == .response else { continue }
            if let at = network.arrival(sentAt: now.time) {
                agenda.schedule(time: at, kind: .deliverResponse, slot: n.slot, generation: n.generation, aux: n.code.rawValue)
            } else {
                answerArrived(n.slot, n.generation, n.code, now, policy, loop)
            }
        }
        sink.notes.removeAll()
    }

    /// The server applied a write of `slot`'s operation.
    @inline(__always) mutating func applied(_ slot: UInt32, _ generation: UInt32, _ now: Moment) {
        let b = ops.body(slot)
        // The slot cannot have been reused while this request was outstanding.
        guard generation &- b.pointee.firstGeneration < 0x8000_0000 else { return }
        if b.pointee.applied < .max { b.pointee.applied += 1 }
        if features.countDuplicates && b.pointee.applied > 1 {
            recorder.count(.duplicates, now)
            if fleet.hasPopulations { countPopulation(.duplicates, slot, now) }
        }
    }

    /// An answer reaches its client: handled if the client still waits, else the work was wasted.
    @inline(__always) mutating func answerArrived<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, _ code: ResponseCode, _ now: Moment,
        _ policy: borrowing Policy, _ loop: C.Type
    ) {
        let h = ops.header(slot)
        if C.general && features.hedging && ops.body(slot).pointee.flags.contains(.hedged) {
            // A copy outrun by another, timed out, or of an operation that ended: wasted work.
            if !copyAnswered(slot, generation, code, now, policy, loop) && !code.unprocessed { recorder.count(.wasted, now) }
            return
        }
        guard h.pointee.generation == generation, h.pointee.awaiting else {
            if !code.unprocessed { recorder.count(.wasted, now) }
            return
        }
        answered(slot, code, now, policy, loop)
    }

    /// `slot`'s operation succeeded (the policy told): its time to success, its host's waiters, its end.
    @inline(__always) mutating func operationSucceeded<C: LoopKind>(
        _ slot: UInt32, guard g: Int, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type
    ) {
        recorder.success(createdAt: ops.body(slot).pointee.createdAt, now: now.time)
        if fleet.hasPopulations { populationSucceeded(slot, now) }
        wake(g, now, policy, loop)
        ended(slot, now)
    }

    /// `slot`'s send `generation` timed out: handled if the client still waits for it.
    @inline(__always) mutating func timeoutFired<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, _ now: Moment, _ policy: borrowing Policy,
        _ loop: C.Type
    ) {
        let h = ops.header(slot)
        if C.general && features.hedging && ops.body(slot).pointee.flags.contains(.hedged) {
            copyTimedOut(slot, generation, now, policy, loop)
            return
        }
        guard h.pointee.generation == generation, h.pointee.awaiting else { return }
        timedOut(slot, now, policy, loop)
    }

    mutating func connectFailed<C: LoopKind>(_ e: Event, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        if C.general && features.hedging && ops.body(e.slot).pointee.flags.contains(.hedged) {
            copyOffline(e.slot, e.generation, .timedOut(.connect), now, policy, loop)
            return
        }
        let h = ops.header(e.slot)
        guard h.pointee.generation == e.generation, h.pointee.awaiting else { return }
        setAwaiting(e.slot, false)
        sendEnded(e.slot, query: false)
        recorder.count(.offline, now)
        if fleet.hasPopulations { countPopulation(.offline, e.slot, now) }
        failed(e.slot, .timedOut(.connect), now, policy, loop)
    }

    /// When `slot`'s operation must end: its start plus its population's deadline (`Int64.max`: never).
    @inline(__always) func operationDeadline(_ slot: UInt32) -> Int64 {
        let b = ops.body(slot)
        return Time.adding(b.pointee.createdAt, fleet.deadline(b.pointee.population))
    }

    @inline(__always) mutating func finish(_ slot: UInt32, reason: StopReason, _ now: Moment) {
        recorder.count(reason.isGiveUp ? .gaveUp : .blocked, now)
        recorder.count(reason.isGiveUp ? .gaveUpByStart : .blockedByStart, at: ops.body(slot).pointee.createdAt)
        if fleet.hasPopulations {
            if reason.isGiveUp { populationGaveUp(slot, now) } else { countPopulation(.blocked, slot, now) }
        }
        ended(slot, now)
    }

    /// An attempt of guard `g` ended: wake as many waiters as there are free slots, user-initiated first.
    @inline(__always) mutating func wake<C: LoopKind>(_ g: Int, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        guard var limit = fleet.limit else { return }
        if fleet.hasPopulations {
            guard let own = policies.lend(fleet.population(of: UInt32(g / fleet.hosts)), policy, loop, { $0.concurrency }) else { return }
            limit = own
        }
        fleet.wake(g, limit: limit, now: now.time, ops: ops, agenda: &agenda)
    }
}

extension StopReason {
    /// A guard's refusal (``Recorder/retriesRefused``): the retry budget or throttling tokens, a
    /// breaker failing fast, the adaptive throttle, a concurrency limit that fails when full.
    @inline(__always) var refusesRetry: Bool {
        switch self {
        case .budgetExhausted, .circuitOpen, .throttledLocally, .concurrencyLimited: true
        default: false
        }
    }
}

extension RetryDecision {
    /// This decision with a next send after `deadline` moved to `deadline` (where the send ends the
    /// operation); stops and sends before it unchanged.
    @inline(__always) func cut(to deadline: Int64) -> RetryDecision {
        switch self {
        case .retry(let at): .retry(at: min(at, deadline))
        case .refreshCredentials(let at): .refreshCredentials(retryAt: min(at, deadline))
        case .reconcile(let at): .reconcile(at: min(at, deadline))
        case .confirmed, .stop: self
        }
    }

    /// When it sends next (nil: it sends nothing).
    var sendsAt: Int64? {
        switch self {
        case .retry(let at), .refreshCredentials(let at), .reconcile(let at): at
        case .confirmed, .stop: nil
        }
    }
}
