import GSLSupport
import RetryPolicy

/// Attempts and status queries on their way to the server.
extension Simulation where Server: ~Copyable {
    @inline(__always) mutating func send<C: LoopKind>(_ e: Event, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        let h = ops.header(e.slot)
        guard h.pointee.generation == e.generation else { return }
        if h.pointee.awaiting {
            // A hedged operation's next copy is due while its latest is out.
            if C.general && features.hedging && ops.body(e.slot).pointee.flags.contains(.hedged) { copyDue(e.slot, now, policy, loop) }
            return
        }
        let b = ops.body(e.slot)
        if b.pointee.flags.contains(.woken) {
            b.pointee.flags.remove(.woken)
            fleet.wokenLeft(fleet.guardIndex(h.pointee.client, b.pointee.host))
        }
        sendDue(e.slot, now, policy, loop)
    }

    /// `slot`'s client has no network: the attempt never reaches the server. It fails at the
    /// connect timeout, or at once without one. Out of line, as ``AttemptHost/refuse(_:_:_:)``: only scenarios
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
        setAwaiting(slot, false)
        sendEnded(slot, query: false)
        recorder.count(.offline, now)
        if fleet.hasPopulations { countPopulation(.offline, slot, now) }
        failed(slot, .transport(.offline), now, policy, loop)
    }

    /// Whether `client` has no network at `now` (`clients.offline`).
    @inline(__always) func isOffline(_ client: UInt32, _ now: Moment) -> Bool {
        guard let o = features.offline else { return false }
        return now.time >= o.at && now.time &- o.at < o.duration && fleet.goesOffline(client)
    }

    /// `deadline` cut to `slot`'s operation's deadline. Out of line: only runs with deadlines, and
    /// inlined it would grow the attempt path (see ``sendOther(_:_:_:_:)``).
    @inline(never) func cutToDeadline(_ slot: UInt32, _ deadline: Int64) -> Int64 {
        min(deadline, operationDeadline(slot))
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
            answerArrived(slot, generation, .ok, then, policy, loop)
        } else {
            timeoutFired(slot, generation, then, policy, loop)
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
