import GSLSupport
import RetryPolicy

/// Attempts and status queries on their way to the server.
extension Simulation where Server: ~Copyable {
    @inline(__always) mutating func send<C: LoopKind>(_ e: Event, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        let h = ops.header(e.slot)
        guard h.pointee.generation == e.generation else { return }
        if h.pointee.awaiting {
            // A hedged operation's next copy is due while its latest is out.
            if C.general && features.hedging { copyDue(e.slot, now, policy, loop) }
            return
        }
        let b = ops.body(e.slot)
        if b.pointee.flags.contains(.woken) {
            b.pointee.flags.remove(.woken)
            fleet.wokenLeft(fleet.guardIndex(h.pointee.client, b.pointee.host))
        }
        // One test for both rare cases keeps `send` small (see ``sendQuery``); the lean loop
        // has no deadlines (``LoopKind``), so it tests for a status query alone, as it did.
        if !b.pointee.flags.isDisjoint(with: C.general ? .unusualSend : .reconciling) {
            sendOther(e.slot, now, policy, loop)
        } else {
            tryAttempt(e.slot, now, policy, loop)
        }
    }

    /// The policy refused `slot`'s next attempt before it was sent: the operation ends. Out of
    /// line, so that the attempt path the storm runs through stays small enough to inline.
    @inline(never) mutating func rejectAttempt(_ slot: UInt32, _ reason: StopReason, _ now: Moment) {
        let retry = ops.body(slot).pointee.record.attemptCount > 0
        let refusedRetry = recorder.attemptRefused(reason, retry: retry, now)
        if fleet.hasPopulations {
            countPopulation(reason == .budgetExhausted ? .budgetDenied : .heldBack, slot, now)
            if refusedRetry { countPopulation(.retriesRefused, slot, now) }
        }
        finish(slot, reason: reason, now)
    }

    /// The policy holds `slot`'s next attempt back: until a time (`until`), or until a slot of
    /// the concurrency limit of guard `g` frees (`until` nil). Out of line, as ``rejectAttempt``.
    @inline(never) mutating func holdBack(_ slot: UInt32, until: Int64?, guard g: Int, _ now: Moment) {
        recorder.count(.heldBack, now)
        if fleet.hasPopulations { countPopulation(.heldBack, slot, now) }
        var until = until
        if features.deadline {
            // Held back past the deadline (or for a concurrency slot, at any time): the send checks it.
            ops.body(slot).pointee.flags.insert(.checkDeadline)
            until = until.map { min($0, operationDeadline(slot)) }
        }
        if let until {
            if until < horizon { agenda.schedule(time: until, kind: .send, slot: slot, generation: ops.header(slot).pointee.generation) }
        } else {
            fleet.park(slot, g, ops.body(slot).pointee.record.lane, ops: ops)
        }
    }

    /// `slot`'s client has no network: the attempt never reaches the server. It fails at the
    /// connect timeout, or at once without one. Out of line, as ``rejectAttempt``: only scenarios
    /// with an offline period come here.
    @inline(never) mutating func offline<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type
    ) {
        let connectTimeout = fleet.connectTimeout(ops.body(slot).pointee.population)
        if connectTimeout > 0 {
            agenda.schedule(time: Time.adding(now.time, connectTimeout), kind: .connectTimeout, slot: slot, generation: generation)
            return
        }
        if C.general && features.hedging && ops.body(slot).pointee.flags.contains(.hedged) {
            copyOffline(slot, generation, .transport(.offline), now, policy, loop)
            return
        }
        ops.header(slot).pointee.awaiting = false
        inFlight.attempts &-= 1
        recorder.count(.offline, now)
        if fleet.hasPopulations { countPopulation(.offline, slot, now) }
        failed(slot, .transport(.offline), now, policy, loop)
    }

    /// Whether `client` has no network at `now` (`clients.offline`).
    @inline(__always) func isOffline(_ client: UInt32, _ now: Moment) -> Bool {
        guard let o = features.offline else { return false }
        return now.time >= o.at && now.time &- o.at < o.duration && fleet.goesOffline(client)
    }

    /// Starts the next attempt of `slot` now, unless the policy makes it wait or refuses it.
    @inline(__always) mutating func tryAttempt<C: LoopKind>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        let h = ops.header(slot)
        let op = ops.body(slot)
        let g = fleet.guardIndex(h.pointee.client, op.pointee.host)
        var random = policies.random.view
        switch policies.lend(
            op.pointee.population, policy, loop,
            {
                $0.admit(record: &op.pointee.record, host: &fleet.guards.base[g], now: now.time, random: &random)
            })
        {
        case .proceed:
            break
        case .wait(let until):
            holdBack(slot, until: until, guard: g, now)
            return
        case .waitForSlot:
            holdBack(slot, until: nil, guard: g, now)
            return
        case .reject(let reason):
            rejectAttempt(slot, reason, now)
            return
        }
        let isRetry = op.pointee.record.attemptCount > 0
        policies.lend(
            op.pointee.population, policy, loop,
            {
                $0.attemptStarted(record: &op.pointee.record, host: &fleet.guards.base[g], now: now.time)
            })
        recorder.count(isRetry ? .retries : .firstAttempts, now)
        if fleet.hasPopulations { countPopulationAttempt(slot, isRetry: isRetry, now) }
        h.pointee.generation &+= 1
        h.pointee.awaiting = true
        inFlight.attempts &+= 1
        let generation = h.pointee.generation
        if C.general && features.hedging { firstCopy(slot, now, policy, loop) }
        if isOffline(h.pointee.client, now) {
            offline(slot, generation, now, policy, loop)
            return
        }
        transmit(slot, generation, query: false, now, policy, loop)
    }

    /// `deadline` cut to `slot`'s operation's deadline. Out of line: only runs with deadlines, and
    /// inlined it would grow `send` (see ``sendQuery``).
    @inline(never) func cutToDeadline(_ slot: UInt32, _ deadline: Int64) -> Int64 {
        min(deadline, operationDeadline(slot))
    }

    /// A send that is not a plain attempt: one that may come at or after the operation's deadline
    /// (no attempt starts there: the operation ends, given up), or a status query.
    @inline(never) mutating func sendOther<C: LoopKind>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        let b = ops.body(slot)
        if b.pointee.flags.contains(.checkDeadline) {
            if now.time >= operationDeadline(slot) {
                finish(slot, reason: .elapsedExceeded, now)
                return
            }
            b.pointee.flags.remove(.checkDeadline)
        }
        if b.pointee.flags.contains(.reconciling) {
            sendQuery(slot, now, policy, loop)
        } else {
            tryAttempt(slot, now, policy, loop)
        }
    }

    /// Sends a status query for `slot` (reconciling an ambiguous failure). Out of line: queries
    /// are rare, and inlined into `send` they made it too large for the compiler to honour
    /// `tryAttempt`'s `@inline(__always)` (it does so only into callers of under 64 blocks, or
    /// for callees of at most 64), which put the storm's attempt path behind a call.
    @inline(never) mutating func sendQuery<C: LoopKind>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        let h = ops.header(slot)
        recorder.count(.queries, now)
        if fleet.hasPopulations { countPopulation(.queries, slot, now) }
        h.pointee.generation &+= 1
        h.pointee.awaiting = true
        inFlight.queries &+= 1
        transmit(slot, h.pointee.generation, query: true, now, policy, loop)
    }

    /// Puts a request on the wire: its timeout, then the server (after the network hop, if any).
    @inline(__always) mutating func transmit<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, query: Bool, _ now: Moment,
        _ policy: borrowing Policy, _ loop: C.Type
    ) {
        var deadline = Time.adding(now.time, fleet.timeout(ops.body(slot).pointee.population))
        // An attempt's timeout is cut to the operation's deadline: the time left, as a gRPC call's.
        if C.general && features.deadline { deadline = cutToDeadline(slot, deadline) }
        ops.body(slot).pointee.deadline = deadline
        if features.settleAhead {
            // Status queries exist only where writes are tracked, which rules settling ahead out.
            assert(!query, "a status query with attempts settled ahead")
            settle(slot, generation, deadline: deadline, now, policy, loop)
            return
        }
        if deadline < horizon {
            if features.uniformTimeout {
                agenda.scheduleInOrder(time: deadline, kind: .timeout, slot: slot, generation: generation)
            } else {
                agenda.schedule(time: deadline, kind: .timeout, slot: slot, generation: generation)
            }
        }
        if features.trackApplied { ops.body(slot).pointee.outstanding &+= 1 }
        if let at = network.arrival(sentAt: now.time) {
            agenda.schedule(time: at, kind: .deliverRequest, slot: slot, generation: generation, aux: query ? 1 : 0)
        } else {
            _ = receive(
                Request(slot: slot, generation: generation, deadline: deadline, query: query, client: ops.header(slot).pointee.client),
                now)
        }
    }

    /// Sends an attempt whose outcome the server settles on arrival, and handles that outcome now
    /// as of the moment it happens: the answer at the time it arrives, or the timeout at the
    /// deadline. Nothing else can touch the operation in between (see ``RunFeatures/settleAhead``),
    /// so this runs the same handlers the queued events would, at that later moment, and saves two
    /// events (the answer or timeout, and the server's own) per attempt.
    @inline(__always) mutating func settle<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, deadline: Int64, _ now: Moment,
        _ policy: borrowing Policy, _ loop: C.Type
    ) {
        let notes = sink.notes.count
        let answerAt = receive(
            Request(
                slot: slot, generation: generation, deadline: deadline, query: false,
                client: ops.header(slot).pointee.client), now)
        // Refused at the door (a full queue, the rate limiter): the answer is already in the sink.
        if sink.notes.count > notes { return }
        let at = answerAt < deadline ? answerAt : deadline
        guard at < horizon else { return }
        progress.settledAhead &+= 1
        let then = recorder.moment(at: at)
        if answerAt < deadline {
            answered(slot, generation, .ok, then, policy, loop)
        } else {
            timedOut(slot, generation, then, policy, loop)
        }
    }

    /// A request reaches the server after its hop.
    @inline(__always) mutating func deliver<C: LoopKind>(_ e: Event, _ now: Moment, _ loop: C.Type) {
        // A request whose client already gave up on it carries a deadline in the past.
        let current = ops.header(e.slot).pointee.generation == e.generation
        var deadline = current ? ops.body(e.slot).pointee.deadline : now.time
        if C.general && features.hedging && !current { deadline = copyDeadline(e.slot, e.generation) ?? deadline }
        _ = receive(
            Request(
                slot: e.slot, generation: e.generation, deadline: deadline, query: e.aux & 1 != 0,
                client: ops.header(e.slot).pointee.client), now)
    }

    /// Hands `r` to the server (its front door first). Returns when the model's answer reaches the
    /// client if the model settled it ahead (see ``ServerModel/receive(_:now:agenda:recorder:sink:)``),
    /// else `Int64.max`.
    @inline(__always) mutating func receive(_ r: Request, _ now: Moment) -> Int64 {
        if fleet.hasPopulations { countPopulation(.offered, r.slot, now) }
        return server.receive(r, now: now.time, agenda: &agenda, recorder: &recorder, sink: &sink)
    }
}
