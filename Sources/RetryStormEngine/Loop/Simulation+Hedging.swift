import GSLSupport
import RetryPolicy

/// Hedged operations (a population whose policy has ``ClientPolicy/hedging``): copies of the
/// attempt go out while none has answered. Each operation's copies are a ``HedgedAttempt`` in
/// ``Simulation/hedges``, by slot; this host applies its actions, counts, and schedules. The
/// first copy is the operation's first attempt (``AttemptHost/startAttempt(_:_:_:_:)``); each later one is a retry, due
/// one delay after the latest (``ClientPolicy/nextCopyAt(record:delay:)``) or at once after a
/// failure the policy retries, and sent if ``ClientPolicy/admitCopy(record:host:now:random:afterFailure:)``
/// allows it. Copy k carries the slot's generation `base + k`; the timer is a `send` event with
/// the latest copy's generation, so a newer copy makes it stale (the delay restarts, as gRPC's
/// does). The first success ends the operation: the copies still out are abandoned (counted so,
/// for the attempts' conservation law) and cancelled at the server (``ServerModel/cancel(_:)``:
/// a queued copy leaves the queue, one in service finishes as wasted work). The cancellation
/// reaches the server at once, network or not.
///
/// Runs in the general loop only (``GeneralLoop``), never settled ahead, with the queue
/// model's event-driven server. An app restart abandons the copies out, and the operation's next
/// attempt is a first copy again; a copy sent while its client is offline fails as an attempt
/// does (at once, or at the connect timeout), and the policy decides as for any failed copy.
extension Simulation where Server: ~Copyable {
    /// `slot`'s first attempt has just started (its generation bumped, not yet sent): if its
    /// policy hedges, it is copy 0.
    @inline(never) mutating func firstCopy<C: LoopKind>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        let b = ops.body(slot)
        guard policies.lend(b.pointee.population, policy, loop, { $0.hedging != nil }) else { return }
        b.pointee.flags.insert(.hedged)
        let i = Int(slot)
        while hedges.count <= i { hedges.append(HedgedAttempt()) }
        hedges[i] = HedgedAttempt(base: ops.header(slot).pointee.generation)
        copySent(slot, now, policy, loop)
    }

    /// `slot`'s latest copy (its current generation) goes out now: the next copy's delay starts.
    mutating func copySent<C: LoopKind>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        switch hedges[Int(slot)].sent(generation: ops.header(slot).pointee.generation, at: now.time) {
        case .armTimer(let generation): scheduleNextCopy(slot, generation, now, policy, loop)
        }
    }

    /// Schedules `slot`'s next copy one delay from now with the timer's `generation`, if its
    /// policy allows one more and a delay is known (a percentile needs latencies first), before
    /// the horizon and the operation's deadline.
    mutating func scheduleNextCopy<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type
    ) {
        let b = ops.body(slot)
        let population = b.pointee.population
        guard let delay = hedgeDelay(population, now.time, policy, loop) else { return }
        guard let due = policies.lend(population, policy, loop, { $0.nextCopyAt(record: b.pointee.record, delay: delay) }) else { return }
        let at = max(due, Time.adding(now.time, delay))
        if at < horizon && at < copiesDeadline(slot) { agenda.schedule(time: at, kind: .send, slot: slot, generation: generation) }
    }

    /// `slot`'s operation deadline, nanoseconds (`Int64.max` without deadlines).
    func copiesDeadline(_ slot: UInt32) -> Int64 { features.deadline ? operationDeadline(slot) : Int64.max }

    /// Population `population`'s delay between copies now, nanoseconds: the fixed one, or the
    /// percentile of its copies' latencies over the window (``HedgedAttempt/Win/record(into:)``; nil until enough).
    mutating func hedgeDelay<C: LoopKind>(_ population: UInt8, _ now: Int64, _ policy: borrowing Policy, _ loop: C.Type) -> Int64? {
        policies.lend(population, policy, loop, { $0.hedging })?.currentDelay(latencies: &windows[Int(population)], now: now)
    }

    /// `slot`'s next copy is due (its timer, while copies are out).
    @inline(never) mutating func copyDue<C: LoopKind>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        guard ops.body(slot).pointee.flags.contains(.hedged) else { return }
        let want = hedges[Int(slot)].delayElapsed(generation: ops.header(slot).pointee.generation, at: now.time, deadline: copiesDeadline(slot))
        followWant(want, slot, afterFailure: false, now, policy, loop)
    }

    /// One more copy of `slot` goes out now if the copies' rules and its policy admit it, after a
    /// copy failed and the policy said ``HedgeDecision/sendNow``.
    mutating func sendCopy<C: LoopKind>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        let want = hedges[Int(slot)].wantCopy(at: now.time, deadline: copiesDeadline(slot))
        followWant(want, slot, afterFailure: true, now, policy, loop)
    }

    /// Applies what ``HedgedAttempt`` said of `slot`'s next copy: each wanted copy is counted
    /// once, and is exactly one of sent, refused or not needed (``Counter/hedgesWanted``).
    mutating func followWant<C: LoopKind>(
        _ want: HedgedAttempt.WantAction, _ slot: UInt32, afterFailure: Bool, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type
    ) {
        switch want {
        case .stale:
            return
        case .notWanted(let then):
            if case .end(let reason) = then { stopHedged(slot, reason, now) }
            return
        case .notNeeded(let then):
            copyWanted(slot, now, policy, loop)
            recorder.count(.hedgesNotNeeded, now)
            if case .end(let reason) = then { stopHedged(slot, reason, now) }
            return
        case .admit:
            copyWanted(slot, now, policy, loop)
        }
        let h = ops.header(slot)
        let b = ops.body(slot)
        let g = fleet.guardIndex(h.pointee.client, b.pointee.host)
        var random = policies.random.view
        if let reason = policies.lend(
            b.pointee.population, policy, loop,
            {
                $0.admitCopy(record: &b.pointee.record, host: &fleet.guards.base[g], now: now.time, random: &random, afterFailure: afterFailure)
            })
        {
            if case .end(let reason) = copyRefused(slot, reason, now) { stopHedged(slot, reason, now) }
            return
        }
        policies.lend(
            b.pointee.population, policy, loop, { $0.attemptStarted(record: &b.pointee.record, host: &fleet.guards.base[g], now: now.time) })
        recorder.count(.retries, now)
        recorder.count(.hedgesSent, now)
        if fleet.hasPopulations { countPopulationAttempt(slot, isRetry: true, now) }
        h.pointee.generation &+= 1
        h.pointee.awaiting = true
        inFlight.attempts &+= 1
        copySent(slot, now, policy, loop)
        if isOffline(h.pointee.client, now) {
            offline(slot, h.pointee.generation, now, policy, loop)
            return
        }
        transmit(slot, h.pointee.generation, query: false, now, policy, loop)
    }

    /// `slot`'s policy wants one more copy now: counted, and (under the checks) held to at most
    /// `hedge.max_attempts − 1` per operation.
    mutating func copyWanted<C: LoopKind>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type) {
        recorder.count(.hedgesWanted, now)
        guard checks.enabled else { return }
        let wanted = hedges[Int(slot)].wanted
        let most = min(policies.lend(ops.body(slot).pointee.population, policy, loop, { $0.hedging?.maxAttempts }) ?? 1, Hedging.maxCopies) - 1
        if wanted > most { fail("operation \(slot) wanted copy \(wanted) of at most \(most)") }
    }

    /// A guard refused `slot`'s wanted copy for `reason`: counted once, as the budget's
    /// (`budgetDenied`) or another guard's (`heldBack`), never both; hedging freezes
    /// (``HedgedAttempt/refused(_:)``). Returns whether the operation ends (no copy out).
    mutating func copyRefused(_ slot: UInt32, _ reason: StopReason, _ now: Moment) -> HedgedAttempt.Then {
        let then = hedges[Int(slot)].refused(reason)
        recorder.count(.hedgesRefused, now)
        let refusedRetry = recorder.attemptRefused(reason, retry: true, now)
        if fleet.hasPopulations {
            countPopulation(reason == .budgetExhausted ? .budgetDenied : .heldBack, slot, now)
            if refusedRetry { countPopulation(.retriesRefused, slot, now) }
        }
        return then
    }

    /// `slot`'s copy `generation` never reached the server: its client had no network (`error`:
    /// at once, or at the connect timeout).
    mutating func copyOffline<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, _ error: NormalizedError, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type
    ) {
        guard case .failed(_, let others, _) = hedges[Int(slot)].answered(generation: generation, ok: false, at: now.time) else { return }
        copyEnded(slot, .offline, .offline, now)
        copyFailed(slot, error, others, now, policy, loop)
    }

    /// One of `slot`'s copies ended without an answer (counted as `c`): it is no longer in flight.
    mutating func copyEnded(_ slot: UInt32, _ c: Counter, _ populationCounter: PopulationRecorder.Total, _ now: Moment) {
        inFlight.attempts &-= 1
        recorder.count(c, now)
        if fleet.hasPopulations { countPopulation(populationCounter, slot, now) }
    }

    /// An answer for `slot`'s copy `generation`: handled if that copy is out, else wasted work.
    @inline(never) mutating func copyAnswered<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, _ code: ResponseCode, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type
    ) {
        switch hedges[Int(slot)].answered(generation: generation, ok: code == .ok, at: now.time) {
        case .stale:
            // A copy outrun by another, timed out, or of an operation that ended.
            if !code.unprocessed { recorder.count(.wasted, now) }
        case .won(let win):
            inFlight.attempts &-= 1
            recorder.count(.succeeded, now)
            let h = ops.header(slot)
            let b = ops.body(slot)
            let g = fleet.guardIndex(h.pointee.client, b.pointee.host)
            let p = Int(b.pointee.population)
            if windows[p] != nil { win.record(into: &windows[p]!) }
            var random = policies.random.view
            let others = Int32(win.outrun.count)
            policies.lend(
                b.pointee.population, policy, loop,
                {
                    $0.copySucceeded(othersInFlight: others, record: &b.pointee.record, host: &fleet.guards.base[g], now: now.time, random: &random)
                })
            abandoned(slot, win.outrun, base: win.base, cancel: true, now)
            operationSucceeded(slot, guard: g, now, policy, loop)
        case .failed(_, let others, _):
            inFlight.attempts &-= 1
            copyFailed(slot, failure(code, slot, now), others, now, policy, loop)
        }
    }

    /// `slot`'s copy `generation` timed out: its client stops waiting for it; it goes on at the server.
    @inline(never) mutating func copyTimedOut<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type
    ) {
        guard case .failed(_, let others, let outFor) = hedges[Int(slot)].timedOut(generation: generation, at: now.time) else { return }
        copyEnded(slot, .timedOut, .timedOut, now)
        let population = Int(ops.body(slot).pointee.population)
        if windows[population] != nil { windows[population]!.record(outFor, now: now.time) }
        copyFailed(slot, .timedOut(.response), others, now, policy, loop)
    }

    /// One of `slot`'s copies failed with `error`, `others` still out: the policy decides.
    mutating func copyFailed<C: LoopKind>(
        _ slot: UInt32, _ error: NormalizedError, _ others: Int32, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type
    ) {
        let h = ops.header(slot)
        let b = ops.body(slot)
        if others == 0 { h.pointee.awaiting = false }
        let g = fleet.guardIndex(h.pointee.client, b.pointee.host)
        var random = policies.random.view
        let decision = policies.lend(
            b.pointee.population, policy, loop,
            {
                $0.copyFailed(
                    after: error, othersInFlight: others, record: &b.pointee.record, host: &fleet.guards.base[g], now: now.time,
                    random: &random)
            })
        switch decision {
        case .sendNow:
            sendCopy(slot, now, policy, loop)
        case .wait:
            break
        case .stop(let reason):
            if reason == .budgetExhausted && hedges[Int(slot)].frozen == nil,
                case .admit = hedges[Int(slot)].wantCopy(at: now.time, deadline: Int64.max)
            {
                // A caller's policy whose `decide` spends the budget: the copy it wanted was refused.
                copyWanted(slot, now, policy, loop)
                _ = copyRefused(slot, reason, now)
            }
            abandonCopies(slot, now)
            finish(slot, reason: reason, now)
        }
        wake(g, now, policy, loop)
    }

    /// `slot`'s operation ends for `reason` with no copy out (its record stopped here).
    mutating func stopHedged(_ slot: UInt32, _ reason: StopReason, _ now: Moment) {
        ops.header(slot).pointee.awaiting = false
        _ = ops.body(slot).pointee.record.stop(reason)
        finish(slot, reason: reason, now)
    }

    /// The client gives up on `slot`'s copies still out (the operation ended, or the app
    /// restarted): the attempt ends (``HedgedAttempt/abandonAll()``), and each copy out is
    /// abandoned and cancelled at the server (`cancel`; an app that restarts cancels nothing).
    mutating func abandonCopies(_ slot: UInt32, _ now: Moment, cancel: Bool = true) {
        ops.header(slot).pointee.awaiting = false
        guard case .cancel(let copies, let base) = hedges[Int(slot)].abandonAll() else { return }
        abandoned(slot, copies, base: base, cancel: cancel, now)
    }

    /// `copies` of `slot` (copy k carrying `base + k`) are abandoned: counted so, no longer in
    /// flight, and cancelled at the server if `cancel`. One cancellation covers them all: it
    /// cancels every earlier request of the slot too, including copies that timed out but still
    /// wait there.
    mutating func abandoned(_ slot: UInt32, _ copies: CopySet, base: UInt32, cancel: Bool, _ now: Moment) {
        ops.header(slot).pointee.awaiting = false
        guard let latest = copies.last else { return }
        if cancel { server.cancel(Request(slot: slot, generation: base &+ UInt32(latest), deadline: 0, query: false)) }
        let n = Int64(copies.count)
        inFlight.attempts &-= n
        for _ in 0..<n {
            recorder.count(.abandoned, now)
            if fleet.hasPopulations { countPopulation(.abandoned, slot, now) }
        }
    }

    /// The deadline of `slot`'s copy `generation` if it is out: when its client stops waiting for
    /// it (its send plus the timeout, cut to the operation's deadline); nil otherwise.
    func copyDeadline(_ slot: UInt32, _ generation: UInt32) -> Int64? {
        guard ops.body(slot).pointee.flags.contains(.hedged), Int(slot) < hedges.count,
            let sentAt = hedges[Int(slot)].sentAt(generation: generation)
        else { return nil }
        let end = Time.adding(sentAt, fleet.timeout(ops.body(slot).pointee.population))
        return features.deadline ? min(end, operationDeadline(slot)) : end
    }
}
