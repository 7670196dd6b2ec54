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
                answered(n.slot, n.generation, n.code, now, policy, loop)
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
    @inline(__always) mutating func answered<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, _ code: ResponseCode, _ now: Moment,
        _ policy: borrowing Policy, _ loop: C.Type
    ) {
        let h = ops.header(slot)
        if C.general && features.hedging && ops.body(slot).pointee.flags.contains(.hedged) {
            copyAnswered(slot, generation, code, now, policy, loop)
            return
        }
        guard h.pointee.generation == generation, h.pointee.awaiting else {
            if !code.unprocessed { recorder.count(.wasted, now) }
            return
        }
        h.pointee.awaiting = false
        let op = ops.body(slot)
        if op.pointee.flags.contains(.reconciling) {
            inFlight.queries &-= 1
            reconciled(slot, code == .ok ? (op.pointee.applied > 0 ? .applied : .notApplied) : .unknown, now, policy, loop)
            return
        }
        inFlight.attempts &-= 1
        if code == .ok {
            recorder.count(.succeeded, now)
            let g = fleet.guardIndex(h.pointee.client, op.pointee.host)
            var random = policies.random.view
            policies.lend(
                op.pointee.population, policy, loop,
                {
                    $0.succeeded(record: &op.pointee.record, host: &fleet.guards.base[g], now: now.time, random: &random)
                })
            operationSucceeded(slot, guard: g, now, policy, loop)
            return
        }
        failed(slot, countFailure(code, slot, now), now, policy, loop)
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

    /// Counts an attempt of `slot` answered with the failure `code` (rejected or failed) and
    /// returns it as the policy sees it.
    @inline(__always) mutating func countFailure(_ code: ResponseCode, _ slot: UInt32, _ now: Moment) -> NormalizedError {
        let rejected = code == .shed || code == .rateLimited
        recorder.count(rejected ? .rejected : .failed, now)
        if fleet.hasPopulations { countPopulation(rejected ? .rejected : .failed, slot, now) }
        return .http(code.status, retryAfter: server.retryAfter(code), unprocessed: code.unprocessed)
    }

    @inline(__always) mutating func timedOut<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, _ now: Moment, _ policy: borrowing Policy,
        _ loop: C.Type
    ) {
        let h = ops.header(slot)
        if C.general && features.hedging && ops.body(slot).pointee.flags.contains(.hedged) {
            copyTimedOut(slot, generation, now, policy, loop)
            return
        }
        guard h.pointee.generation == generation, h.pointee.awaiting else { return }
        h.pointee.awaiting = false
        if ops.body(slot).pointee.flags.contains(.reconciling) {
            inFlight.queries &-= 1
            reconciled(slot, .unknown, now, policy, loop)
            return
        }
        inFlight.attempts &-= 1
        recorder.count(.timedOut, now)
        if fleet.hasPopulations { countPopulation(.timedOut, slot, now) }
        failed(slot, .timedOut(.response), now, policy, loop)
    }

    mutating func connectFailed<C: LoopKind>(_ e: Event, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        if C.general && features.hedging && ops.body(e.slot).pointee.flags.contains(.hedged) {
            copyOffline(e.slot, e.generation, .timedOut(.connect), now, policy, loop)
            return
        }
        let h = ops.header(e.slot)
        guard h.pointee.generation == e.generation, h.pointee.awaiting else { return }
        h.pointee.awaiting = false
        inFlight.attempts &-= 1
        recorder.count(.offline, now)
        if fleet.hasPopulations { countPopulation(.offline, e.slot, now) }
        failed(e.slot, .timedOut(.connect), now, policy, loop)
    }

    /// Asks the policy what follows a failed attempt and does it.
    @inline(__always) mutating func failed<C: LoopKind>(
        _ slot: UInt32, _ error: NormalizedError, _ now: Moment,
        _ policy: borrowing Policy, _ loop: C.Type
    ) {
        let h = ops.header(slot)
        let op = ops.body(slot)
        let g = fleet.guardIndex(h.pointee.client, op.pointee.host)
        var random = policies.random.view
        let decision = policies.lend(
            op.pointee.population, policy, loop,
            {
                $0.decide(after: error, record: &op.pointee.record, host: &fleet.guards.base[g], now: now.time, random: &random)
            })
        follow(decision, slot, now, loop)
        wake(g, now, policy, loop)
    }

    /// The answer to a status query: the policy settles the ambiguous failure.
    mutating func reconciled<C: LoopKind>(
        _ slot: UInt32, _ result: ReconcileResult, _ now: Moment, _ policy: borrowing Policy,
        _ loop: C.Type
    ) {
        let h = ops.header(slot)
        let op = ops.body(slot)
        op.pointee.flags.remove(.reconciling)
        let g = fleet.guardIndex(h.pointee.client, op.pointee.host)
        var random = policies.random.view
        let decision = policies.lend(
            op.pointee.population, policy, loop,
            {
                $0.reconciled(result, record: &op.pointee.record, host: &fleet.guards.base[g], now: now.time, random: &random)
            })
        follow(decision, slot, now, loop)
    }

    /// Does what the policy decided after a failure.
    @inline(__always) mutating func follow<C: LoopKind>(_ decision: RetryDecision, _ slot: UInt32, _ now: Moment, _ loop: C.Type) {
        // Deadlines run in the general loop only (``LoopKind``): the lean loop has no trace of them.
        if C.general && features.deadline {
            followByDeadline(decision, slot, now)
        } else {
            proceed(decision, slot, now)
        }
    }

    /// ``follow(_:_:_:_:)`` under a deadline: a send the policy plans at or after the operation's
    /// deadline comes at the deadline and ends the operation there (``sendOther``): a call fails
    /// when its deadline passes, not when a retry is planned. Out of line: only runs with deadlines.
    @inline(never) mutating func followByDeadline(_ decision: RetryDecision, _ slot: UInt32, _ now: Moment) {
        let end = operationDeadline(slot)
        let cut = decision.cut(to: end)
        if cut.sendsAt == end { ops.body(slot).pointee.flags.insert(.checkDeadline) }
        proceed(cut, slot, now)
    }

    /// Does what the policy decided after a failure (the send times as they are).
    @inline(__always) mutating func proceed(_ decision: RetryDecision, _ slot: UInt32, _ now: Moment) {
        let h = ops.header(slot)
        switch decision {
        case .retry(let at):
            if at < horizon { agenda.schedule(time: at, kind: .send, slot: slot, generation: h.pointee.generation) }
        case .refreshCredentials(let at):
            // The refresh completes before the retry.
            server.credentials.refreshed(client: h.pointee.client, at: at)
            if at < horizon { agenda.schedule(time: at, kind: .send, slot: slot, generation: h.pointee.generation) }
        case .reconcile(let at):
            ops.body(slot).pointee.flags.insert(.reconciling)
            if at < horizon { agenda.schedule(time: at, kind: .send, slot: slot, generation: h.pointee.generation) }
        case .confirmed:
            recorder.count(.confirmed, now)
            recorder.count(.confirmedByStart, at: ops.body(slot).pointee.createdAt)
            if fleet.hasPopulations { countPopulation(.confirmed, slot, now) }
            recorder.success(createdAt: ops.body(slot).pointee.createdAt, now: now.time)
            if fleet.hasPopulations { populationSucceeded(slot, now) }
            ended(slot, now)
        case .stop(let reason):
            if reason == .budgetExhausted { budgetRefusedRetry(slot, now) }
            finish(slot, reason: reason, now)
        }
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

    /// The retry budget refused the retry `slot`'s failed attempt asked for: counted for the fleet
    /// and the population. Out of line: a refusal ends the attempt path, and keeping it small
    /// keeps that path inlined.
    @inline(never) mutating func budgetRefusedRetry(_ slot: UInt32, _ now: Moment) {
        recorder.retryRefusedByBudget(now)
        if fleet.hasPopulations {
            countPopulation(.retriesRefused, slot, now)
            countPopulation(.budgetDenied, slot, now)
        }
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
