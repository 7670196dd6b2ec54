import GSLSupport
import RetryPolicy

/// Hedged operations (a population whose policy has ``ClientPolicy/hedging``): copies of the
/// attempt go out while none has answered. The first copy is the operation's first attempt
/// (``tryAttempt``); each later one is a retry, due one delay after the latest
/// (``ClientPolicy/nextCopyAt(record:delay:)``) or at once after a failure the policy retries, and
/// sent if ``ClientPolicy/admitCopy(record:host:now:random:afterFailure:)`` allows it. Copy k carries
/// the slot's generation `base + k`; a copy's timer is a `send` event with the latest copy's
/// generation, so a newer copy makes it stale (the delay restarts, as gRPC's does). The first
/// success ends the operation: the copies still out are abandoned (counted so, for the attempts'
/// conservation law) and cancelled at the server (``ServerModel/cancel(_:)``: a queued copy leaves
/// the queue, one in service finishes as wasted work). The cancellation reaches the server at
/// once, network or not.
///
/// Runs in the general loop only (``SeveralPolicies``), never settled ahead, with the queue
/// model's event-driven server. An app restart abandons the copies out, and the operation's next
/// attempt is a first copy again; a copy sent while its client is offline fails as an attempt
/// does (at once, or at the connect timeout), and the policy decides as for any failed copy.
extension Simulation where Server: ~Copyable {
    /// `slot`'s first attempt has just started (its generation bumped, not yet sent): if its
    /// policy hedges, it is copy 0.
    @inline(never) mutating func firstCopy<C: PolicyCount>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ count: C.Type) {
        let b = ops.body(slot)
        guard policies.lend(b.pointee.population, policy, count, { $0.hedging != nil }) else { return }
        b.pointee.flags.insert(.hedged)
        let i = Int(slot)
        while hedges.count <= i { hedges.append(HedgeCopies()) }
        hedges[i] = HedgeCopies(base: ops.header(slot).pointee.generation)
        copySent(slot, now, policy, count)
    }

    /// `slot`'s latest copy (its current generation) goes out now: kept among the copies out, and
    /// the next copy's delay started.
    mutating func copySent<C: PolicyCount>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ count: C.Type) {
        let i = Int(slot)
        let k = Int(ops.header(slot).pointee.generation &- hedges[i].base)
        precondition(k < Hedging.maxCopies, "copy \(k) of a hedged operation (at most \(Hedging.maxCopies))")
        hedges[i].live |= 1 << UInt8(k)
        hedges[i].sentAt[k] = now.time
        scheduleNextCopy(slot, now, policy, count)
    }

    /// Schedules `slot`'s next copy one delay from now, if its policy allows one more and a delay
    /// is known (a percentile needs latencies first), before the horizon and the operation's
    /// deadline.
    mutating func scheduleNextCopy<C: PolicyCount>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ count: C.Type) {
        let b = ops.body(slot)
        let population = b.pointee.population
        guard let delay = hedgeDelay(population, now.time, policy, count) else { return }
        guard let due = policies.lend(population, policy, count, { $0.nextCopyAt(record: b.pointee.record, delay: delay) }) else { return }
        let at = max(due, Time.adding(now.time, delay))
        let end = features.deadline ? operationDeadline(slot) : Int64.max
        if at < horizon && at < end { agenda.schedule(time: at, kind: .send, slot: slot, generation: ops.header(slot).pointee.generation) }
    }

    /// Population `population`'s delay between copies now, nanoseconds: the fixed one, or the
    /// percentile of its copies' latencies over the window (``HedgeCopies/recordWin(_:into:now:)``; nil until enough).
    mutating func hedgeDelay<C: PolicyCount>(_ population: UInt8, _ now: Int64, _ policy: borrowing Policy, _ count: C.Type) -> Int64? {
        policies.lend(population, policy, count, { $0.hedging })?.currentDelay(latencies: &windows[Int(population)], now: now)
    }

    /// `slot`'s next copy is due (its timer, while copies are out).
    @inline(never) mutating func copyDue<C: PolicyCount>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ count: C.Type) {
        guard ops.body(slot).pointee.flags.contains(.hedged) else { return }
        sendCopy(slot, afterFailure: false, now, policy, count)
    }

    /// One more copy of `slot` goes out now if its policy admits it: after a copy failed
    /// (`afterFailure`), or when the latest copy's delay passed. Each copy asked for here is one
    /// wanted copy, and exactly one of sent, refused or not needed (``Counter/hedgesWanted``);
    /// after a refusal or the deadline none is asked for again (``HedgeCopies/frozen``).
    mutating func sendCopy<C: PolicyCount>(
        _ slot: UInt32, afterFailure: Bool, _ now: Moment, _ policy: borrowing Policy, _ count: C.Type
    ) {
        let h = ops.header(slot)
        let b = ops.body(slot)
        let i = Int(slot)
        let out = hedges[i].count
        if let reason = hedges[i].frozen {
            if out == 0 { stopHedged(slot, reason, now) }
            return
        }
        if h.pointee.generation &- hedges[i].base &+ 1 >= UInt32(Hedging.maxCopies) {
            // A policy of the caller's that asks for more copies than any hedging sends (5): not wanted.
            if out == 0 { stopHedged(slot, .attemptsExhausted, now) }
            return
        }
        copyWanted(slot, now, policy, count)
        if features.deadline && now.time >= operationDeadline(slot) {
            // No copy starts that cannot finish in time; the ones out time out at the deadline.
            recorder.count(.hedgesNotNeeded, now)
            hedges[i].frozen = .elapsedExceeded
            if out == 0 { stopHedged(slot, .elapsedExceeded, now) }
            return
        }
        let g = fleet.guardIndex(h.pointee.client, b.pointee.host)
        var random = policies.random.view
        if let reason = policies.lend(
            b.pointee.population, policy, count,
            {
                $0.admitCopy(record: &b.pointee.record, host: &fleet.guards.base[g], now: now.time, random: &random, afterFailure: afterFailure)
            })
        {
            copyRefused(slot, reason, now)
            if out == 0 { stopHedged(slot, reason, now) }
            return
        }
        policies.lend(
            b.pointee.population, policy, count, { $0.attemptStarted(record: &b.pointee.record, host: &fleet.guards.base[g], now: now.time) })
        recorder.count(.retries, now)
        recorder.count(.hedgesSent, now)
        if fleet.hasPopulations { countPopulationAttempt(slot, isRetry: true, now) }
        h.pointee.generation &+= 1
        h.pointee.awaiting = true
        inFlight.attempts &+= 1
        copySent(slot, now, policy, count)
        if isOffline(h.pointee.client, now) {
            offline(slot, h.pointee.generation, now, policy, count)
            return
        }
        transmit(slot, h.pointee.generation, query: false, now, policy, count)
    }

    /// `slot`'s policy wants one more copy now: counted, and (under the checks) held to at most
    /// `hedge.max_attempts − 1` per operation.
    mutating func copyWanted<C: PolicyCount>(_ slot: UInt32, _ now: Moment, _ policy: borrowing Policy, _ count: C.Type) {
        let i = Int(slot)
        hedges[i].wanted &+= 1
        recorder.count(.hedgesWanted, now)
        guard checks.enabled else { return }
        let most = min(policies.lend(ops.body(slot).pointee.population, policy, count, { $0.hedging?.maxAttempts }) ?? 1, Hedging.maxCopies) - 1
        if Int(hedges[i].wanted) > most { fail("operation \(slot) wanted copy \(hedges[i].wanted) of at most \(most)") }
    }

    /// A guard refused `slot`'s wanted copy for `reason`: counted once, as the budget's
    /// (`budgetDenied`) or another guard's (`heldBack`), never both; no copy is asked for again
    /// (as gRPC's `RetriableStream` freezes hedging once throttled).
    mutating func copyRefused(_ slot: UInt32, _ reason: StopReason, _ now: Moment) {
        recorder.count(.hedgesRefused, now)
        hedges[Int(slot)].frozen = reason
        let refusedRetry = recorder.attemptRefused(reason, retry: true, now)
        if fleet.hasPopulations {
            countPopulation(reason == .budgetExhausted ? .budgetDenied : .heldBack, slot, now)
            if refusedRetry { countPopulation(.retriesRefused, slot, now) }
        }
    }

    /// `slot`'s copy `generation` never reached the server: its client had no network (`error`:
    /// at once, or at the connect timeout).
    mutating func copyOffline<C: PolicyCount>(
        _ slot: UInt32, _ generation: UInt32, _ error: NormalizedError, _ now: Moment, _ policy: borrowing Policy, _ count: C.Type
    ) {
        guard copyEnded(slot, generation, .offline, .offline, now) != nil else { return }
        copyFailed(slot, error, hedges[Int(slot)].count, now, policy, count)
    }

    /// `slot`'s copy `generation`, if out, ended without an answer (counted as `c`): it is no
    /// longer out. Returns its index (nil: it was not out).
    mutating func copyEnded(
        _ slot: UInt32, _ generation: UInt32, _ c: Counter, _ populationCounter: PopulationRecorder.Total, _ now: Moment
    ) -> Int? {
        let i = Int(slot)
        guard let k = hedges[i].index(of: generation) else { return nil }
        hedges[i].live &= ~(1 << UInt8(k))
        inFlight.attempts &-= 1
        recorder.count(c, now)
        if fleet.hasPopulations { countPopulation(populationCounter, slot, now) }
        return k
    }

    /// An answer for `slot`'s copy `generation`: handled if that copy is out, else wasted work.
    @inline(never) mutating func copyAnswered<C: PolicyCount>(
        _ slot: UInt32, _ generation: UInt32, _ code: ResponseCode, _ now: Moment, _ policy: borrowing Policy, _ count: C.Type
    ) {
        guard let k = hedges[Int(slot)].index(of: generation) else {
            // A copy outrun by another, timed out, or of an operation that ended.
            if !code.unprocessed { recorder.count(.wasted, now) }
            return
        }
        let i = Int(slot)
        hedges[i].live &= ~(1 << UInt8(k))
        inFlight.attempts &-= 1
        let h = ops.header(slot)
        let b = ops.body(slot)
        let g = fleet.guardIndex(h.pointee.client, b.pointee.host)
        let others = hedges[i].count
        if code == .ok {
            recorder.count(.succeeded, now)
            let p = Int(b.pointee.population)
            if windows[p] != nil { hedges[i].recordWin(k, into: &windows[p]!, now: now.time) }
            var random = policies.random.view
            policies.lend(
                b.pointee.population, policy, count,
                {
                    $0.copySucceeded(othersInFlight: others, record: &b.pointee.record, host: &fleet.guards.base[g], now: now.time, random: &random)
                })
            abandonCopies(slot, now)
            operationSucceeded(slot, guard: g, now, policy, count)
            return
        }
        copyFailed(slot, countFailure(code, slot, now), others, now, policy, count)
    }

    /// `slot`'s copy `generation` timed out: its client stops waiting for it; it goes on at the server.
    @inline(never) mutating func copyTimedOut<C: PolicyCount>(
        _ slot: UInt32, _ generation: UInt32, _ now: Moment, _ policy: borrowing Policy, _ count: C.Type
    ) {
        let i = Int(slot)
        guard let k = copyEnded(slot, generation, .timedOut, .timedOut, now) else { return }
        let population = Int(ops.body(slot).pointee.population)
        if windows[population] != nil { windows[population]!.record(now.time &- hedges[i].sentAt[k], now: now.time) }
        copyFailed(slot, .timedOut(.response), hedges[i].count, now, policy, count)
    }

    /// One of `slot`'s copies failed with `error`, `others` still out: the policy decides.
    mutating func copyFailed<C: PolicyCount>(
        _ slot: UInt32, _ error: NormalizedError, _ others: Int32, _ now: Moment, _ policy: borrowing Policy, _ count: C.Type
    ) {
        let h = ops.header(slot)
        let b = ops.body(slot)
        if others == 0 { h.pointee.awaiting = false }
        let g = fleet.guardIndex(h.pointee.client, b.pointee.host)
        var random = policies.random.view
        let decision = policies.lend(
            b.pointee.population, policy, count,
            {
                $0.copyFailed(
                    after: error, othersInFlight: others, record: &b.pointee.record, host: &fleet.guards.base[g], now: now.time,
                    random: &random)
            })
        switch decision {
        case .sendNow:
            sendCopy(slot, afterFailure: true, now, policy, count)
        case .wait:
            break
        case .stop(let reason):
            if reason == .budgetExhausted && hedges[Int(slot)].frozen == nil {
                // A caller's policy whose `decide` spends the budget: the copy it wanted was refused.
                copyWanted(slot, now, policy, count)
                copyRefused(slot, reason, now)
            }
            abandonCopies(slot, now)
            finish(slot, reason: reason, now)
        }
        wake(g, now, policy, count)
    }

    /// `slot`'s operation ends for `reason` with no copy out (its record stopped here).
    mutating func stopHedged(_ slot: UInt32, _ reason: StopReason, _ now: Moment) {
        ops.header(slot).pointee.awaiting = false
        _ = ops.body(slot).pointee.record.stop(reason)
        finish(slot, reason: reason, now)
    }

    /// The client gives up on `slot`'s copies still out (the operation ended, or the app
    /// restarted): each is abandoned, and cancelled at the server (`cancel`; an app that restarts
    /// cancels nothing). One cancellation covers them all: it cancels every earlier request of the
    /// slot too, including copies that timed out but still wait there.
    mutating func abandonCopies(_ slot: UInt32, _ now: Moment, cancel: Bool = true) {
        let i = Int(slot)
        let live = hedges[i].live
        ops.header(slot).pointee.awaiting = false
        guard live != 0 else { return }
        let latest = UInt32(7 &- live.leadingZeroBitCount)
        if cancel { server.cancel(Request(slot: slot, generation: hedges[i].base &+ latest, deadline: 0, query: false)) }
        let n = Int64(live.nonzeroBitCount)
        inFlight.attempts &-= n
        for _ in 0..<n {
            recorder.count(.abandoned, now)
            if fleet.hasPopulations { countPopulation(.abandoned, slot, now) }
        }
        hedges[i].live = 0
    }

    /// The deadline of `slot`'s copy `generation` if it is out: when its client stops waiting for
    /// it (its send plus the timeout, cut to the operation's deadline); nil otherwise.
    func copyDeadline(_ slot: UInt32, _ generation: UInt32) -> Int64? {
        guard ops.body(slot).pointee.flags.contains(.hedged), Int(slot) < hedges.count, let k = hedges[Int(slot)].index(of: generation) else {
            return nil
        }
        let end = Time.adding(hedges[Int(slot)].sentAt[k], fleet.timeout(ops.body(slot).pointee.population))
        return features.deadline ? min(end, operationDeadline(slot)) : end
    }
}
