import RetryPolicy

/// Hedged calls (an edge whose policy has ``RetryPolicy/hedging``): copies of the call's attempt
/// go out while none has answered, each a request at the called service. Each call's copies are a
/// ``HedgedAttempt`` (in ``HedgeCopies``, by call slot), as the clients' are; this host applies
/// its actions. The first copy is the call's first attempt (``AttemptHost/launch(_:guard:_:_:_:)``);
/// the policy says when the next is due and whether it may go
/// (``RetryPolicy/admitCopy(record:host:now:random:afterFailure:)``).
/// The first success ends the call and abandons the rest (counted `abandoned` at the called
/// service, as the clients count theirs) and cancels them: a copy still waiting in the called
/// service's queue leaves it, one in service (or making its own calls) finishes as wasted work.
/// Every copy beyond the first is counted as a retry at the called service: an attempt, in the
/// amplification.
extension GraphServer {
    /// Call `c` starts on a hedged edge: no copy out yet; copy 0 will carry its next generation.
    mutating func resetCopies(_ c: UInt32) {
        while hedges.count <= Int(c) { hedges.append(HedgeCopies()) }
        hedges[Int(c)] = HedgeCopies(attempt: HedgedAttempt(base: calls.at(c).pointee.generation &+ 1))
    }

    /// Call `c`'s copy `sent` went out now on edge `e`: kept with its request at the called
    /// service, and the next copy's delay started.
    mutating func copySent(_ c: UInt32, _ e: Int, _ sent: Request, _ now: Int64) {
        let generation = calls.at(c).pointee.generation
        switch hedges[Int(c)].attempt.sent(generation: generation, at: now) {
        case .armTimer(let timer):
            hedges[Int(c)].requests[hedges[Int(c)].attempt.sent - 1] = UInt64(sent.slot) << 32 | UInt64(sent.generation)
            scheduleNextCopy(c, e, timer, now)
        }
    }

    /// Schedules call `c`'s next copy one delay from now with the timer's `generation`, if its
    /// policy allows one more and a delay is known (a percentile needs latencies first), before
    /// the call's deadline.
    mutating func scheduleNextCopy(_ c: UInt32, _ e: Int, _ generation: UInt32, _ now: Int64) {
        guard let delay = hedgeDelay(e, now) else { return }
        let call = calls.at(c)
        guard let due = policies[e].nextCopyAt(record: call.pointee.record, delay: delay) else { return }
        let at = max(due, Time.adding(now, delay))
        if at < min(horizon, call.pointee.parentDeadline) {
            schedule(.send, c, generation, at: at)
        }
    }

    /// Edge `e`'s delay between copies now, nanoseconds: the fixed one, or the percentile of its
    /// copies' latencies over the window (``HedgedAttempt/Win/record(into:)``; nil until enough are seen).
    mutating func hedgeDelay(_ e: Int, _ now: Int64) -> Int64? {
        policies[e].hedging?.currentDelay(latencies: &windows[e], now: now)
    }

    /// One more copy of call `c` goes out now, if the copies' rules and its policy admit it:
    /// after a copy failed (`afterFailure`), or when the latest copy's delay passed. As at the
    /// clients (``Simulation/followWant(_:_:afterFailure:_:_:_:)``): each copy asked for is wanted once
    /// and sent, refused or not needed; after a refusal or the deadline none is asked for again,
    /// and none beyond ``Hedging/maxCopies``.
    mutating func sendCopy(_ c: UInt32, afterFailure: Bool, _ now: Int64) {
        let call = calls.at(c)
        let e = Int(call.pointee.edge)
        let to = Int(edges[e].to)
        let deadline = call.pointee.parentDeadline
        let want =
            afterFailure
            ? hedges[Int(c)].attempt.wantCopy(at: now, deadline: deadline)
            : hedges[Int(c)].attempt.delayElapsed(generation: call.pointee.generation, at: now, deadline: deadline)
        switch want {
        case .stale:
            return
        case .notWanted(let then):
            if case .end(let reason) = then { stopCopies(c, reason, now) }
            return
        case .notNeeded(let then):
            copyWanted(c, e)
            edgeCopies[e].notNeeded &+= 1
            recorders[to - 1].count(.hedgesNotNeeded)
            checkCopies(e)
            if case .end(let reason) = then { stopCopies(c, reason, now) }
            return
        case .admit:
            copyWanted(c, e)
        }
        var view = random.view
        if let reason = policies[e].admitCopy(record: &call.pointee.record, host: &guards[e], now: now, random: &view, afterFailure: afterFailure) {
            let then = hedges[Int(c)].attempt.refused(reason)
            edgeCopies[e].refused &+= 1
            recorders[to - 1].count(.hedgesRefused)
            recorders[to - 1].count(reason == .budgetExhausted ? .budgetDenied : .heldBack)
            if reason == .budgetExhausted && now >= warmupEnd { edgeCounts[e].budgetDenied &+= 1 }
            checkCopies(e)
            if case .end(let reason) = then { stopCopies(c, reason, now) }
            return
        }
        edgeCopies[e].sent &+= 1
        recorders[to - 1].count(.hedgesSent)
        if now >= warmupEnd { edgeCounts[e].hedges &+= 1 }
        checkCopies(e)
        launch(c, guard: e, now, (), GeneralLoop.self)
    }

    /// Call `c`'s policy on edge `e` wants one more copy: counted, and (under the checks) held to
    /// at most `hedge.max_attempts − 1` per call.
    mutating func copyWanted(_ c: UInt32, _ e: Int) {
        edgeCopies[e].wanted &+= 1
        recorders[Int(edges[e].to) - 1].count(.hedgesWanted)
        let wanted = hedges[Int(c)].attempt.wanted
        _internalInvariant(
            wanted < policies[e].hedging?.maxAttempts ?? 1,
            "call \(c) on edge \(e) wanted copy \(wanted) of at most \((policies[e].hedging?.maxAttempts ?? 1) - 1)")
    }

    /// Call `c` ends for `reason` with no copy out and none to send (its record stopped here).
    mutating func stopCopies(_ c: UInt32, _ reason: StopReason, _ now: Int64) {
        _ = calls.at(c).pointee.record.stop(reason)
        endCall(c, reason: reason, now)
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
        _ c: UInt32, _ generation: UInt32, _ code: ResponseCode, from to: Int, _ now: Int64
    ) {
        let call = calls.at(c)
        let e = Int(call.pointee.edge)
        var view = random.view
        switch hedges[Int(c)].attempt.answered(generation: generation, ok: code == .ok, at: now) {
        case .stale:
            // A copy cancelled, timed out or outrun by another: its work was wasted.
            if !code.unprocessed { recorders[to - 1].count(.wasted) }
        case .won(let win):
            if checksLaws { callsOut[to].attempts &-= 1 }
            recorders[to - 1].count(.succeeded)
            if windows[e] != nil { win.record(into: &windows[e]!) }
            policies[e].copySucceeded(
                othersInFlight: Int32(win.outrun.count), record: &call.pointee.record, host: &guards[e], now: now, random: &view)
            abandoned(c, win.outrun, at: to, now)
            callSucceeded(c, e, now)
        case .failed(_, let others, _):
            if checksLaws { callsOut[to].attempts &-= 1 }
            let error = failure(code, from: to, edge: e, now)
            let decision = policies[e].copyFailed(
                after: error, othersInFlight: others, record: &call.pointee.record, host: &guards[e], now: now, random: &view)
            followCopy(decision, c, now)
        }
    }

    /// Call `c`'s copy `generation` timed out: it goes on downstream, unwatched.
    mutating func copyTimedOut(_ c: UInt32, _ generation: UInt32, _ now: Int64) {
        guard case .failed(let copy, let others, let outFor) = hedges[Int(c)].attempt.timedOut(generation: generation, at: now) else { return }
        let call = calls.at(c)
        let e = Int(call.pointee.edge)
        if edges[e].cancels { cancelRequest(hedges[Int(c)].requests[copy], now) }
        if checksLaws { callsOut[Int(edges[e].to)].attempts &-= 1 }
        recorders[Int(edges[e].to) - 1].count(.timedOut)
        if now >= warmupEnd { edgeCounts[e].timedOut &+= 1 }
        if windows[e] != nil { windows[e]!.record(outFor, now: now) }
        var view = random.view
        let decision = policies[e].copyFailed(
            after: .timedOut(.response), othersInFlight: others, record: &call.pointee.record, host: &guards[e], now: now, random: &view)
        followCopy(decision, c, now)
    }

    /// Does what call `c`'s policy decided after one of its copies failed.
    mutating func followCopy(_ decision: HedgeDecision, _ c: UInt32, _ now: Int64) {
        let e = Int(calls.at(c).pointee.edge)
        switch decision {
        case .sendNow:
            sendCopy(c, afterFailure: true, now)
        case .wait:
            break
        case .stop(let reason):
            // RetryPolicy's `copyFailed` stops for the failure or the attempts, never the budget,
            // which refuses copies in `admitCopy` (``sendCopy``).
            assert(reason != .budgetExhausted, "a hedged call's policy stopped it for its budget after a failure")
            abandonCopies(c, now)
            endCall(c, reason: reason, now)
        }
        wakeWaiting(e, now)
    }

    /// Call `c` gives up on its copies still out (``HedgedAttempt/abandonAll()``): each is
    /// abandoned and cancelled at the called service. Called when a call ends; a call that ends
    /// with no copy out abandons none.
    mutating func abandonCopies(_ c: UInt32, _ now: Int64) {
        guard case .cancel(let copies, _) = hedges[Int(c)].attempt.abandonAll() else { return }
        abandoned(c, copies, at: Int(edges[Int(calls.at(c).pointee.edge)].to), now)
    }

    /// Call `c`'s `copies` at service `to` are abandoned: counted so there (its attempts =
    /// outcomes + abandoned + in flight), and cancelled: one waiting in its queue leaves it
    /// unserved; one in service or making its own calls goes on, and its answer is wasted (at a
    /// flaky service, which has no queue, every copy out is in service). Where the edge propagates
    /// cancellation, a copy in service makes no calls and one making calls abandons them
    /// (``cancelRequest(_:_:_:)``).
    mutating func abandoned(_ c: UInt32, _ copies: CopySet, at to: Int, _ now: Int64) {
        let propagates = edges[Int(calls.at(c).pointee.edge)].cancels
        for k in copies {
            recorders[to - 1].count(.abandoned)
            if checksLaws { callsOut[to].attempts &-= 1 }
            let packed = hedges[Int(c)].requests[k]
            if propagates {
                cancelRequest(packed, now)
                continue
            }
            let slot = UInt32(truncatingIfNeeded: packed >> 32)
            let generation = UInt32(truncatingIfNeeded: packed)
            if to < queueCount && requests.isCurrent(slot, generation) && !requests.at(slot).pointee.calling {
                services[to].cancel(Request(slot: slot, generation: generation, deadline: 0, query: false))
            }
        }
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
