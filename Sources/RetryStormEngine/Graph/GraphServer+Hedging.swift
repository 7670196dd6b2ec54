import RetryPolicy

/// Hedged calls (an edge whose policy has ``RetryPolicy/hedging``): copies of the call's attempt
/// go out while none has answered, each a request at the called service. The first copy is the
/// call's first attempt (``tryCall``); the policy says when the next is due and whether it may
/// go (``RetryPolicy/admitCopy(record:host:now:random:afterFailure:)``). The first success ends
/// the call and cancels the rest: a copy still waiting in the called service's queue leaves it,
/// one in service (or making its own calls) finishes as wasted work. Every copy beyond the first
/// is counted as a retry at the called service: an attempt, in the amplification.
extension GraphServer {
    /// Call `c` starts on a hedged edge: no copy out yet.
    mutating func resetCopies(_ c: UInt32) {
        while hedges.count <= Int(c) { hedges.append(HedgeCopies()) }
        hedges[Int(c)] = HedgeCopies(base: calls.at(c).pointee.generation &+ 1)
    }

    /// Call `c`'s copy `sent` went out now on edge `e`: kept among the copies out, and the next
    /// copy's delay started.
    mutating func copySent(_ c: UInt32, _ e: Int, _ sent: Request, _ now: Int64, _ agenda: inout Agenda) {
        let call = calls.at(c)
        let generation = call.pointee.generation
        let k = Int(generation &- hedges[Int(c)].base)
        hedges[Int(c)].live |= 1 << UInt8(k)
        hedges[Int(c)].requests[k] = UInt64(sent.slot) << 32 | UInt64(sent.generation)
        hedges[Int(c)].sentAt[k] = now
        scheduleNextCopy(c, e, now, &agenda)
    }

    /// Schedules call `c`'s next copy one delay from now, if its policy allows one more and a
    /// delay is known (a percentile needs latencies first), before the call's deadline.
    mutating func scheduleNextCopy(_ c: UInt32, _ e: Int, _ now: Int64, _ agenda: inout Agenda) {
        guard let delay = hedgeDelay(e, now) else { return }
        let call = calls.at(c)
        guard let due = policies[e].nextCopyAt(record: call.pointee.record, delay: delay) else { return }
        let at = max(due, Time.adding(now, delay))
        if at < min(horizon, call.pointee.parentDeadline) {
            events.push(agenda.make(time: at, kind: .send, slot: c, generation: call.pointee.generation))
        }
    }

    /// Edge `e`'s delay between copies now, nanoseconds: the fixed one, or the percentile of its
    /// copies' latencies over the window (``HedgeCopies/recordWin(_:into:now:)``; nil until enough are seen).
    mutating func hedgeDelay(_ e: Int, _ now: Int64) -> Int64? {
        policies[e].hedging?.currentDelay(latencies: &windows[e], now: now)
    }

    /// One more copy of call `c` goes out now, if its policy admits it: after a copy failed
    /// (`afterFailure`), or when the latest copy's delay passed. As at the clients
    /// (``Simulation/sendCopy(_:afterFailure:_:_:_:)``): each copy asked for is wanted once and
    /// sent, refused or not needed; after a refusal or the deadline none is asked for again.
    mutating func sendCopy(_ c: UInt32, afterFailure: Bool, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        let call = calls.at(c)
        let e = Int(call.pointee.edge)
        let to = Int(edges[e].to)
        let out = hedges[Int(c)].count
        if let reason = hedges[Int(c)].frozen {
            if out == 0 { stopCopies(c, reason, now, &agenda, &recorder) }
            return
        }
        hedges[Int(c)].wanted &+= 1
        edgeCopies[e].wanted &+= 1
        recorders[to - 1].count(.hedgesWanted)
        _internalInvariant(
            Int(hedges[Int(c)].wanted) < policies[e].hedging?.maxAttempts ?? 1,
            "call \(c) on edge \(e) wanted copy \(hedges[Int(c)].wanted) of at most \((policies[e].hedging?.maxAttempts ?? 1) - 1)")
        if now >= call.pointee.parentDeadline {
            // No copy starts that cannot finish in time; the ones out time out at the deadline.
            edgeCopies[e].notNeeded &+= 1
            recorders[to - 1].count(.hedgesNotNeeded)
            hedges[Int(c)].frozen = .elapsedExceeded
            checkCopies(e)
            if out == 0 { endCall(c, reason: .elapsedExceeded, now, &agenda, &recorder) }
            return
        }
        var view = random.view
        if let reason = policies[e].admitCopy(record: &call.pointee.record, host: &guards[e], now: now, random: &view, afterFailure: afterFailure) {
            copyRefused(c, e, reason)
            if out == 0 { stopCopies(c, reason, now, &agenda, &recorder) }
            return
        }
        edgeCopies[e].sent &+= 1
        recorders[to - 1].count(.hedgesSent)
        checkCopies(e)
        sendAttempt(c, e, now, &agenda)
    }

    /// A guard refused call `c`'s wanted copy on edge `e` for `reason`: counted once, as the
    /// budget's (`budgetDenied`) or another guard's (`heldBack`), never both, and no copy is
    /// asked for again (as gRPC's `RetriableStream` freezes hedging once throttled).
    mutating func copyRefused(_ c: UInt32, _ e: Int, _ reason: StopReason) {
        let to = Int(edges[e].to)
        hedges[Int(c)].frozen = reason
        edgeCopies[e].refused &+= 1
        recorders[to - 1].count(.hedgesRefused)
        recorders[to - 1].count(reason == .budgetExhausted ? .budgetDenied : .heldBack)
        checkCopies(e)
    }

    /// Call `c` ends for `reason` with no copy out and none to send (its record stopped here).
    mutating func stopCopies(_ c: UInt32, _ reason: StopReason, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        _ = calls.at(c).pointee.record.stop(reason)
        endCall(c, reason: reason, now, &agenda, &recorder)
    }

    /// Under the internal checks, edge `e`'s copies add up: each wanted one was sent, refused or
    /// not needed.
    @inline(__always) func checkCopies(_ e: Int) {
        let k = edgeCopies[e]
        _internalInvariant(
            k.wanted == k.sent + k.refused + k.notNeeded,
            "edge \(e): copies wanted \(k.wanted) ≠ sent \(k.sent) + refused \(k.refused) + not needed \(k.notNeeded)")
    }

    /// An answer for call `c`'s copy `generation` from service `to`.
    mutating func copyAnswered(
        _ c: UInt32, _ generation: UInt32, _ code: ResponseCode, from to: Int, _ now: Int64,
        _ agenda: inout Agenda, _ recorder: inout Recorder
    ) {
        guard let k = hedges[Int(c)].index(of: generation) else {
            // A copy cancelled, timed out or outrun by another: its work was wasted.
            if !code.unprocessed { recorders[to - 1].count(.wasted) }
            return
        }
        hedges[Int(c)].live &= ~(1 << UInt8(k))
        callsOut[to].attempts &-= 1
        let call = calls.at(c)
        let e = Int(call.pointee.edge)
        let others = hedges[Int(c)].count
        var view = random.view
        if code == .ok {
            recorders[to - 1].count(.succeeded)
            if windows[e] != nil { hedges[Int(c)].recordWin(k, into: &windows[e]!, now: now) }
            policies[e].copySucceeded(othersInFlight: others, record: &call.pointee.record, host: &guards[e], now: now, random: &view)
            cancelCopies(c, at: to)
            callSucceeded(c, e, now, &agenda, &recorder)
            return
        }
        let error = failure(code, from: to)
        let decision = policies[e].copyFailed(
            after: error, othersInFlight: others, record: &call.pointee.record, host: &guards[e], now: now, random: &view)
        followCopy(decision, c, now, &agenda, &recorder)
    }

    /// Call `c`'s copy `generation` timed out: it goes on downstream, unwatched.
    mutating func copyTimedOut(_ c: UInt32, _ generation: UInt32, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        guard let k = hedges[Int(c)].index(of: generation) else { return }
        hedges[Int(c)].live &= ~(1 << UInt8(k))
        let call = calls.at(c)
        let e = Int(call.pointee.edge)
        callsOut[Int(edges[e].to)].attempts &-= 1
        recorders[Int(edges[e].to) - 1].count(.timedOut)
        if windows[e] != nil { windows[e]!.record(now &- hedges[Int(c)].sentAt[k], now: now) }
        var view = random.view
        let decision = policies[e].copyFailed(
            after: .timedOut(.response), othersInFlight: hedges[Int(c)].count, record: &call.pointee.record, host: &guards[e],
            now: now, random: &view)
        followCopy(decision, c, now, &agenda, &recorder)
    }

    /// Does what call `c`'s policy decided after one of its copies failed.
    mutating func followCopy(_ decision: HedgeDecision, _ c: UInt32, _ now: Int64, _ agenda: inout Agenda, _ recorder: inout Recorder) {
        let e = Int(calls.at(c).pointee.edge)
        switch decision {
        case .sendNow:
            sendCopy(c, afterFailure: true, now, &agenda, &recorder)
        case .wait:
            break
        case .stop(let reason):
            // RetryPolicy's `copyFailed` stops for the failure or the attempts, never the budget,
            // which refuses copies in `admitCopy` (``sendCopy``).
            assert(reason != .budgetExhausted, "a hedged call's policy stopped it for its budget after a failure")
            cancelCopies(c, at: Int(edges[e].to))
            endCall(c, reason: reason, now, &agenda, &recorder)
        }
        wakeWaiting(e, now, &agenda)
    }

    /// Call `c` of edge `e` ends with copies out: they are abandoned (``cancelCopies(_:at:)``).
    mutating func abandonCopies(_ c: UInt32, _ e: Int) { cancelCopies(c, at: Int(edges[e].to)) }

    /// Cancels call `c`'s copies still out at service `to`, each counted abandoned there (as a
    /// client's outrun copy is, for the attempts' conservation law): one waiting in its queue
    /// leaves it unserved; one in service or making its own calls goes on, and its answer is
    /// wasted (at a flaky service, which has no queue, every copy out is in service).
    mutating func cancelCopies(_ c: UInt32, at to: Int) {
        var live = hedges[Int(c)].live
        while live != 0 {
            let k = live.trailingZeroBitCount
            live &= live - 1
            recorders[to - 1].count(.abandoned)
            callsOut[to].attempts &-= 1
            let packed = hedges[Int(c)].requests[k]
            let slot = UInt32(truncatingIfNeeded: packed >> 32)
            let generation = UInt32(truncatingIfNeeded: packed)
            if to < queueCount && requests.isCurrent(slot, generation) && !requests.at(slot).pointee.calling {
                services[to].cancel(Request(slot: slot, generation: generation, deadline: 0, query: false))
            }
        }
        hedges[Int(c)].live = 0
    }
}

/// Hedged operations of the clients (``Simulation`` hedging into a call graph): the copies still
/// waiting at the first service leave its queue when the operation's client cancels them.
extension GraphServer {
    /// The simulation's clients hedge: keep their requests by operation slot from now on.
    mutating func expectCancellations() { clientsHedge = true }

    /// Client request `r` is the first service's request `packed` (slot and generation).
    @inline(never) mutating func keepClientCopy(_ r: Request, _ packed: UInt64) {
        let i = Int(r.slot) &* Hedging.maxCopies &+ Int(r.generation % UInt32(Hedging.maxCopies))
        while clientCopies.count <= i { clientCopies.append(0) }
        clientCopies[i] = packed
    }

    /// The client cancels request `r` and its operation's earlier ones (``ServerModel/cancel(_:)``):
    /// each still waiting in the first service's queue leaves it; one in service, or making its
    /// calls, goes on as wasted work.
    mutating func cancel(_ r: Request) {
        guard clientsHedge else { return }
        let base = Int(r.slot) &* Hedging.maxCopies
        guard base &+ Hedging.maxCopies <= clientCopies.count else { return }
        for j in 0..<Hedging.maxCopies {
            let packed = clientCopies[base &+ j]
            let slot = UInt32(truncatingIfNeeded: packed >> 32)
            let generation = UInt32(truncatingIfNeeded: packed)
            guard packed != 0, requests.isCurrent(slot, generation) else { continue }
            let request = requests.at(slot).pointee
            // Another operation's request in this place, or a newer copy than the cancelled ones.
            guard request.service == 0, request.parent == r.slot, r.generation &- request.parentGeneration < 0x8000_0000,
                !request.calling
            else { continue }
            services[0].cancel(Request(slot: slot, generation: generation, deadline: 0, query: false))
        }
    }
}
