import GSLSupport
import RetryPolicy

/// The calls a request makes once its own work is done: each an operation of its edge's policy
/// (`admit`, `attemptStarted`, `succeeded`, `decide`), whose attempts are requests at the called
/// service. Counted at the called service's recorder as the callers see them: calls started
/// (`operations`), first attempts and retries, and each attempt's outcome.
extension GraphServer {
    /// The request's own work is done: its first `calls[]` entry starts.
    mutating func startCalls(_ slot: UInt32, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        requests.at(slot).pointee.step = 0
        requests.at(slot).pointee.calling = true
        beginStep(slot, now, &agenda, &recorder)
    }

    /// Starts the calls of request `slot`'s current entry: all of them at once (fan-out, and every
    /// entry of a shared stage), or the first.
    mutating func beginStep(_ slot: UInt32, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        let r = requests.at(slot).pointee
        let first = Int(plans[Int(r.service)].firstEdge)
        let e = first + Int(r.step)
        let edge = edges[e]
        if edge.parallel {
            let entries = e..<(first + Int(edge.stageEnd))
            // One more than the calls: a call that ends as it starts (refused by its policy)
            // cannot end the stage before the last one has gone out.
            var total: UInt32 = 1
            for s in entries { total += edges[s].count }
            requests.at(slot).pointee.left = total
            for s in entries {
                for _ in 0..<edges[s].count { startCall(slot, r.generation, s, now, &agenda, &recorder) }
            }
            callEnded(slot, r.generation, failed: false, e, now, &agenda, &recorder)
        } else {
            requests.at(slot).pointee.left = edge.count - 1
            startCall(slot, r.generation, e, now, &agenda, &recorder)
        }
    }

    /// A new call of request `slot` on edge `e`, whose first attempt goes out now (if its policy lets it).
    mutating func startCall(
        _ slot: UInt32, _ generation: UInt32, _ e: Int, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder
    ) {
        let edge = edges[e]
        let deadline = edge.propagate ? requests.at(slot).pointee.deadline : .max
        let c = calls.allocate(
            GraphCall(
                record: OperationRecord(), createdAt: now, parentDeadline: deadline, request: slot, requestGeneration: generation,
                edge: UInt16(e)))
        calls.at(c).pointee.firstGeneration = calls.at(c).pointee.generation &+ 1
        recorders[Int(edge.to) - 1].count(.operations)
        if now >= warmupEnd { edgeCounts[e].calls &+= 1 }
        if checksLaws { edgeCalls[e].calls &+= 1 }
        if cancelling { linkCall(c, to: slot) }
        if edge.hedged { resetCopies(c) }
        tryCall(c, now, &agenda, &recorder)
    }

    /// A call's next send is due.
    mutating func sendCall(_ c: UInt32, _ generation: UInt32, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        guard calls.isCurrent(c, generation) else { return }
        if hedging && edges[Int(calls.at(c).pointee.edge)].hedged && hedges[Int(c)].live != 0 {
            // The latest copy's delay has passed with no answer: the next copy.
            sendCopy(c, afterFailure: false, now, &agenda, &recorder)
            return
        }
        guard !calls.at(c).pointee.awaiting else { return }
        tryCall(c, now, &agenda, &recorder)
    }

    /// Starts call `c`'s next send now: nothing at or after its request's deadline (the call
    /// ends there, as a client's operation ends at its own, ``Simulation/sendOther(_:_:_:_:)``);
    /// a status query if its policy reconciles; else an attempt, unless the policy makes it wait
    /// or refuses it. Out of line: inlined into its callers, it left the policy's `admit` out of
    /// line instead, which cost bench-chain more (`scripts/profile.sh`).
    @inline(never) mutating func tryCall(_ c: UInt32, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        let call = calls.at(c)
        let e = Int(call.pointee.edge)
        let to = Int(edges[e].to)
        if call.pointee.hasPassedDeadline(now) {
            endCall(c, reason: .elapsedExceeded, now, &agenda, &recorder)
            return
        }
        if call.pointee.reconciling {
            sendQuery(c, e, now, &agenda)
            return
        }
        var view = random.view
        switch policies[e].admit(record: &call.pointee.record, host: &guards[e], now: now, random: &view) {
        case .proceed:
            break
        case .wait(let until):
            recorders[to - 1].count(.heldBack)
            let at = call.pointee.cut(until)
            if at < horizon { events.push(agenda.make(time: at, kind: .send, slot: c, generation: call.pointee.generation)) }
            return
        case .waitForSlot:
            recorders[to - 1].count(.heldBack)
            park(c, e)
            return
        case .reject(let reason):
            rejectCall(c, e, reason, now, &agenda, &recorder)
            return
        }
        sendAttempt(c, e, now, &agenda)
    }

    /// Call `c`'s policy refused its next attempt on edge `e` before it was sent: counted as a
    /// client's refusal is (``Recorder/attemptRefused(_:retry:_:)``), and the call ends.
    @inline(never) mutating func rejectCall(
        _ c: UInt32, _ e: Int, _ reason: StopReason, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder
    ) {
        let to = Int(edges[e].to)
        let retry = calls.at(c).pointee.record.attemptCount > 0
        recorders[to - 1].attemptRefused(reason, retry: retry, recorders[to - 1].moment(now: now))
        if reason == .budgetExhausted && now >= warmupEnd { edgeCounts[e].budgetDenied &+= 1 }
        endCall(c, reason: reason, now, &agenda, &recorder)
    }

    /// Call `c`'s next attempt (or copy) goes out now to its edge `e`'s service, its policy
    /// having admitted it.
    mutating func sendAttempt(_ c: UInt32, _ e: Int, _ now: Int64, _ agenda: inout Agenda) {
        let call = calls.at(c)
        let to = Int(edges[e].to)
        let isRetry = call.pointee.record.attemptCount > 0
        policies[e].attemptStarted(record: &call.pointee.record, host: &guards[e], now: now)
        recorders[to - 1].count(isRetry ? .retries : .firstAttempts)
        if now >= warmupEnd {
            edgeCounts[e].attempts &+= 1
            if isRetry { edgeCounts[e].retries &+= 1 }
        }
        if checksLaws { callsOut[to].attempts &+= 1 }
        call.pointee.generation &+= 1
        call.pointee.awaiting = true
        let sent = transmit(c, e, query: false, now, &agenda)
        // Its answer, if the service gave one at the door, waits in `inner` until this is noted.
        if edges[e].hedged { copySent(c, e, sent, now, &agenda) }
    }

    /// Sends a status query for call `c` on edge `e` (its policy reconciles an ambiguous
    /// failure): the called service answers whether it applied one of the call's writes. Out of
    /// line, as the other rare paths here (a refusal, a status query's answer, a confirmation,
    /// an applied write): inlined, they grew the calls' hot handlers past what the optimiser
    /// inlines into them (the policy's `decide` and `admit`), which cost bench-chain 2% of its
    /// instructions (`scripts/profile.sh`).
    @inline(never) mutating func sendQuery(_ c: UInt32, _ e: Int, _ now: Int64, _ agenda: inout Agenda) {
        let call = calls.at(c)
        let to = Int(edges[e].to)
        recorders[to - 1].count(.queries)
        if checksLaws { callsOut[to].queries &+= 1 }
        call.pointee.generation &+= 1
        call.pointee.awaiting = true
        _ = transmit(c, e, query: true, now, &agenda)
    }

    /// Puts call `c`'s current send (its generation) on edge `e`'s wire: its timeout (cut to the
    /// request's deadline), then the called service. Returns the request sent.
    mutating func transmit(_ c: UInt32, _ e: Int, query: Bool, _ now: Int64, _ agenda: inout Agenda) -> Request {
        let call = calls.at(c)
        let to = Int(edges[e].to)
        let generation = call.pointee.generation
        let timeout = edges[e].timeout
        let attemptDeadline = call.pointee.cut(timeout == .max ? .max : Time.adding(now, timeout))
        if attemptDeadline < horizon {
            events.push(agenda.make(time: attemptDeadline, kind: .timeout, slot: c, generation: generation))
        }
        // The called service sees a deadline only when the edge propagates one.
        let seen = edges[e].propagate ? attemptDeadline : .max
        let r = requests.allocate(GraphRequest(parent: c, parentGeneration: generation, deadline: seen, service: UInt8(to), query: query))
        arrived(r, now)
        let sent = Request(slot: r, generation: requests.at(r).pointee.generation, deadline: seen, query: query)
        if cancelling { sentRequests[Int(c)] = UInt64(sent.slot) << 32 | UInt64(sent.generation) }
        deliver(sent, to: to, now, &agenda)
        return sent
    }

    /// Service `to` applied a write of call `c`'s attempt `generation` (answered or not): what
    /// its status query finds, and a duplicate if the call's policy sends no idempotency key.
    @inline(never) mutating func callApplied(_ c: UInt32, _ generation: UInt32, at to: Int) {
        let call = calls.at(c)
        // A write of an older call, whose slot this call reuses.
        guard generation &- call.pointee.firstGeneration < 0x8000_0000 else { return }
        if call.pointee.applied < .max { call.pointee.applied += 1 }
        if edges[Int(call.pointee.edge)].countsDuplicates && call.pointee.applied > 1 { recorders[to - 1].count(.duplicates) }
    }

    /// An answer from service `to` for call `c`'s send `generation`: handled if the call still
    /// waits for it, else the work was wasted.
    mutating func callAnswered(
        _ c: UInt32, _ generation: UInt32, _ code: ResponseCode, from to: Int, _ now: Int64,
        _ agenda: inout Agenda, _ recorder: inout Recorder
    ) {
        if hedging && edges[Int(calls.at(c).pointee.edge)].hedged {
            copyAnswered(c, generation, code, from: to, now, &agenda, &recorder)
            return
        }
        guard calls.isCurrent(c, generation), calls.at(c).pointee.awaiting else {
            if !code.unprocessed { recorders[to - 1].count(.wasted) }
            return
        }
        let call = calls.at(c)
        call.pointee.awaiting = false
        if call.pointee.reconciling {
            if checksLaws { callsOut[to].queries &-= 1 }
            reconciled(c, code == .ok ? (call.pointee.applied > 0 ? .applied : .notApplied) : .unknown, now, &agenda, &recorder)
            return
        }
        if checksLaws { callsOut[to].attempts &-= 1 }
        let e = Int(call.pointee.edge)
        var view = random.view
        if code == .ok {
            recorders[to - 1].count(.succeeded)
            policies[e].succeeded(record: &call.pointee.record, host: &guards[e], now: now, random: &view)
            callSucceeded(c, e, now, &agenda, &recorder)
            return
        }
        let error = failure(code, from: to, edge: e, now)
        let decision = policies[e].decide(after: error, record: &call.pointee.record, host: &guards[e], now: now, random: &view)
        follow(decision, c, now, &agenda, &recorder)
    }

    /// Call `c` on edge `e` succeeded (its policy told): it ends, and its request goes on.
    mutating func callSucceeded(_ c: UInt32, _ e: Int, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        let call = calls.at(c).pointee
        recorders[Int(edges[e].to) - 1].success(createdAt: call.createdAt, now: now)
        if checksLaws { edgeCalls[e].succeeded &+= 1 }
        releaseCall(c, e, now)
        wakeWaiting(e, now, &agenda)
        callEnded(call.request, call.requestGeneration, failed: false, e, now, &agenda, &recorder)
    }

    /// A failed answer `code` from service `to` on edge `e`, counted there (rejected or failed)
    /// and on the edge (failed), as the caller's policy reads it.
    mutating func failure(_ code: ResponseCode, from to: Int, edge e: Int, _ now: Int64) -> NormalizedError {
        recorders[to - 1].count(code == .shed || code == .rateLimited ? .rejected : .failed)
        if now >= warmupEnd { edgeCounts[e].failed &+= 1 }
        return .http(code.status, retryAfter: retryAfter(code, from: to), unprocessed: code.unprocessed)
    }

    /// Call `c`'s send `generation` timed out: the request goes on downstream, unwatched.
    mutating func callTimedOut(_ c: UInt32, _ generation: UInt32, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        if hedging && edges[Int(calls.at(c).pointee.edge)].hedged {
            copyTimedOut(c, generation, now, &agenda, &recorder)
            return
        }
        guard calls.isCurrent(c, generation), calls.at(c).pointee.awaiting else { return }
        let call = calls.at(c)
        call.pointee.awaiting = false
        let e = Int(call.pointee.edge)
        let to = Int(edges[e].to)
        if edges[e].cancels { cancelRequest(sentRequests[Int(c)], now, &agenda) }
        if call.pointee.reconciling {
            if checksLaws { callsOut[to].queries &-= 1 }
            reconciled(c, .unknown, now, &agenda, &recorder)
            return
        }
        if checksLaws { callsOut[to].attempts &-= 1 }
        recorders[to - 1].count(.timedOut)
        if now >= warmupEnd { edgeCounts[e].timedOut &+= 1 }
        var view = random.view
        let decision = policies[e].decide(
            after: .timedOut(.response), record: &call.pointee.record, host: &guards[e], now: now, random: &view)
        follow(decision, c, now, &agenda, &recorder)
    }

    /// The answer to call `c`'s status query: its policy settles the ambiguous failure.
    @inline(never) mutating func reconciled(_ c: UInt32, _ result: ReconcileResult, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder)
    {
        let call = calls.at(c)
        call.pointee.reconciling = false
        let e = Int(call.pointee.edge)
        var view = random.view
        let decision = policies[e].reconciled(result, record: &call.pointee.record, host: &guards[e], now: now, random: &view)
        follow(decision, c, now, &agenda, &recorder)
    }

    /// Does what call `c`'s policy decided after a failed attempt or a status query, as a client
    /// does (``Simulation/proceed(_:_:_:)``), the next send cut to the request's deadline
    /// (``RetryDecision/cut(to:)``), where it ends the call (``tryCall``).
    ///
    /// One capability differs on purpose: a called service checks no credentials of its callers
    /// (`clients.credential_lifetime` is the clients' own, checked at the first service's door),
    /// so a credential refresh on an edge renews nothing, and its retry goes as any retry.
    mutating func follow(_ decision: RetryDecision, _ c: UInt32, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        let call = calls.at(c)
        let e = Int(call.pointee.edge)
        let to = Int(edges[e].to)
        switch decision.cut(to: call.pointee.parentDeadline) {
        case .retry(let at), .refreshCredentials(let at):
            if at < horizon { events.push(agenda.make(time: at, kind: .send, slot: c, generation: call.pointee.generation)) }
        case .reconcile(let at):
            call.pointee.reconciling = true
            if at < horizon { events.push(agenda.make(time: at, kind: .send, slot: c, generation: call.pointee.generation)) }
        case .confirmed:
            callConfirmed(c, e, now, &agenda, &recorder)
        case .stop(let reason):
            if reason == .budgetExhausted { budgetRefusedRetry(to, e, now) }
            endCall(c, reason: reason, now, &agenda, &recorder)
        }
        wakeWaiting(e, now, &agenda)
    }

    /// A status query found call `c`'s write on edge `e` applied: the call ends, succeeded.
    @inline(never) mutating func callConfirmed(_ c: UInt32, _ e: Int, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        let ended = calls.at(c).pointee
        let to = Int(edges[e].to)
        recorders[to - 1].count(.confirmed)
        recorders[to - 1].success(createdAt: ended.createdAt, now: now)
        if checksLaws { edgeCalls[e].confirmed &+= 1 }
        releaseCall(c, e, now)
        callEnded(ended.request, ended.requestGeneration, failed: false, e, now, &agenda, &recorder)
    }

    /// Call `c` failed for good (`reason`): counted as given up or blocked at the called service.
    mutating func endCall(_ c: UInt32, reason: StopReason, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        let call = calls.at(c).pointee
        let e = Int(call.edge)
        recorders[Int(edges[e].to) - 1].count(reason.isGiveUp ? .gaveUp : .blocked)
        if checksLaws { if reason.isGiveUp { edgeCalls[e].gaveUp &+= 1 } else { edgeCalls[e].blocked &+= 1 } }
        if edges[e].hedged { abandonCopies(c, now, &agenda) }
        releaseCall(c, e, now)
        callEnded(call.request, call.requestGeneration, failed: true, e, now, &agenda, &recorder)
    }

    /// The retry budget refused the retry a failed call on edge `e` to service `to` asked for
    /// (out of line, as ``sendQuery(_:_:_:_:)``).
    @inline(never) mutating func budgetRefusedRetry(_ to: Int, _ e: Int, _ now: Int64) {
        recorders[to - 1].retryRefusedByBudget(recorders[to - 1].moment(now: now))
        if now >= warmupEnd { edgeCounts[e].budgetDenied &+= 1 }
    }

    /// Call `c` of edge `e` has ended now, however (counted by the caller): its latency is
    /// recorded if it started after the warmup, and its slot is free.
    @inline(__always) mutating func releaseCall(_ c: UInt32, _ e: Int, _ now: Int64) {
        let started = calls.at(c).pointee.createdAt
        if started >= warmupEnd { edgeLatencies[e].record(now &- started) }
        if cancelling { unlinkCall(c) }
        calls.release(c)
    }

    /// A call of request `slot` on edge `e` ended: the request goes on with its next call or
    /// entry, or answers once nothing is left or a sequential call failed.
    mutating func callEnded(
        _ slot: UInt32, _ generation: UInt32, failed: Bool, _ e: Int, _ now: Int64,
        _ agenda: inout Agenda, _ recorder: inout Recorder
    ) {
        guard requests.isCurrent(slot, generation) else { preconditionFailure("a call outlived its request") }
        let r = requests.at(slot)
        if failed && r.pointee.failure == 0 { r.pointee.failure = edges[e].failure.rawValue }
        if edges[e].parallel {
            r.pointee.left -= 1
            guard r.pointee.left == 0 else { return }
        } else if !failed && r.pointee.left > 0 {
            r.pointee.left -= 1
            startCall(slot, generation, e, now, &agenda, &recorder)
            return
        }
        let plan = plans[Int(r.pointee.service)]
        if r.pointee.failure != 0 {
            answer(slot, ResponseCode(packed: r.pointee.failure))
            return
        }
        r.pointee.step = edges[e].stageEnd
        if r.pointee.step < plan.edges {
            beginStep(slot, now, &agenda, &recorder)
        } else {
            answer(slot, .ok)
        }
    }

    /// Call `c` waits for a concurrency slot of edge `e` (its policy's limit, the calling service's).
    mutating func park(_ c: UInt32, _ e: Int) {
        calls.at(c).pointee.nextWaiting = .max
        if edges[e].waitTail == .max {
            edges[e].waitHead = c
        } else {
            calls.at(edges[e].waitTail).pointee.nextWaiting = c
        }
        edges[e].waitTail = c
    }

    /// An attempt on edge `e` ended: the longest-waiting call asks its policy again, now (it
    /// waits again if no slot is free).
    @inline(__always) mutating func wakeWaiting(_ e: Int, _ now: Int64, _ agenda: inout Agenda) {
        let c = edges[e].waitHead
        guard c != .max else { return }
        let call = calls.at(c)
        edges[e].waitHead = call.pointee.nextWaiting
        if edges[e].waitHead == .max { edges[e].waitTail = .max }
        events.push(agenda.make(time: now, kind: .send, slot: c, generation: call.pointee.generation))
    }

    /// Request `slot` answers `code` once its calls are over: queued for ``drain``, which frees
    /// its worker and sends the answer on (to the clients' sink or to a call).
    @inline(__always) mutating func answer(_ slot: UInt32, _ code: ResponseCode) {
        answers.append(Answer(slot: slot, generation: requests.at(slot).pointee.generation, code: code))
    }
}
