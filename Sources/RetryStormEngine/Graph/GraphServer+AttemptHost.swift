import GSLSupport
import RetryPolicy

/// The call graph as a host of the attempt life cycle (``AttemptHost``): an operation is a call
/// (a slot of ``calls``), run by its calling service with its edge's policy and host guard; its
/// attempts are requests at the called service, whose recorder counts them as the callers see
/// them, and its edge counts them for edges.csv. Every service calling the next is the same host.
extension GraphServer: AttemptHost {
    typealias Policy = RetryPolicy
    /// Nothing: a call's policy is its edge's (``policies``).
    typealias Lent = Void

    var hasDeadlines: Bool { propagatesDeadlines }

    /// Call `c`'s edge.
    @inline(__always) func edge(of c: UInt32) -> Int { Int(calls.at(c).pointee.edge) }

    /// The service call `c` calls.
    @inline(__always) func callee(of c: UInt32) -> Int { Int(edges[edge(of: c)].to) }

    /// The call's edge: its policy, its guard (the calling service's) and its waiters are the edge's.
    @inline(__always) func hostGuard(of op: UInt32) -> Int { edge(of: op) }

    @inline(__always) mutating func withPolicy<R, C: LoopKind>(
        _ op: UInt32, guard e: Int, _ lent: borrowing Void, _ loop: C.Type,
        _ body: (borrowing RetryPolicy, inout OperationRecord, inout HostGuard, inout RandomView) -> R
    ) -> R {
        var view = random.view
        return body(policies[e], &calls.at(op).pointee.record, &guards[e], &view)
    }

    @inline(__always) func hasAttempted(_ op: UInt32) -> Bool { calls.at(op).pointee.record.attemptCount > 0 }

    /// The calling request's, where the edge propagates it.
    @inline(__always) func deadline(of op: UInt32) -> Int64 { calls.at(op).pointee.parentDeadline }

    @inline(__always) func isReconciling(_ op: UInt32) -> Bool { calls.at(op).pointee.reconciling }

    @inline(__always) mutating func setReconciling(_ op: UInt32, _ on: Bool) { calls.at(op).pointee.reconciling = on }

    @inline(__always) func hasApplied(_ op: UInt32) -> Bool { calls.at(op).pointee.applied > 0 }

    @inline(__always) mutating func setAwaiting(_ op: UInt32, _ on: Bool) { calls.at(op).pointee.awaiting = on }

    @inline(__always) mutating func beginSend(_ op: UInt32, query: Bool) -> UInt32 {
        if checksLaws {
            let to = callee(of: op)
            if query { callsOut[to].queries &+= 1 } else { callsOut[to].attempts &+= 1 }
        }
        let call = calls.at(op)
        call.pointee.generation &+= 1
        call.pointee.awaiting = true
        return call.pointee.generation
    }

    @inline(__always) mutating func sendEnded(_ op: UInt32, query: Bool) {
        guard checksLaws else { return }
        let to = callee(of: op)
        if query { callsOut[to].queries &-= 1 } else { callsOut[to].attempts &-= 1 }
    }

    /// At the called service's recorder; attempts and timeouts on the edge too, after the warmup.
    @inline(__always) mutating func count(_ what: AttemptCount, _ op: UInt32, _ now: Int64) {
        let e = edge(of: op)
        let to = Int(edges[e].to)
        switch what {
        case .firstAttempt, .retry:
            recorders[to - 1].count(what == .retry ? .retries : .firstAttempts)
            if now >= warmupEnd {
                edgeCounts[e].attempts &+= 1
                if what == .retry { edgeCounts[e].retries &+= 1 }
            }
        case .query: recorders[to - 1].count(.queries)
        case .heldBack: recorders[to - 1].count(.heldBack)
        case .succeeded: recorders[to - 1].count(.succeeded)
        case .timedOut:
            recorders[to - 1].count(.timedOut)
            if now >= warmupEnd { edgeCounts[e].timedOut &+= 1 }
        case .copyWanted:
            edgeCopies[e].wanted &+= 1
            recorders[to - 1].count(.hedgesWanted)
        case .copySent:
            edgeCopies[e].sent &+= 1
            recorders[to - 1].count(.hedgesSent)
            if now >= warmupEnd { edgeCounts[e].hedges &+= 1 }
            checkCopies(e)
        case .copyRefused:
            edgeCopies[e].refused &+= 1
            recorders[to - 1].count(.hedgesRefused)
            checkCopies(e)
        case .copyNotNeeded:
            edgeCopies[e].notNeeded &+= 1
            recorders[to - 1].count(.hedgesNotNeeded)
            checkCopies(e)
        }
    }

    @inline(__always) mutating func failure(_ code: ResponseCode, _ op: UInt32, _ now: Int64) -> NormalizedError {
        let e = edge(of: op)
        return failure(code, from: Int(edges[e].to), edge: e, now)
    }

    /// A call tests its request's deadline at every send, where its edge propagates one.
    @inline(__always) func sendIsUnusual<C: LoopKind>(_ op: UInt32, _: C.Type) -> Bool {
        let call = calls.at(op)
        return call.pointee.reconciling || call.pointee.parentDeadline != .max
    }

    @inline(__always) mutating func sendIsPastDeadline(_ op: UInt32, _ now: Int64) -> Bool { calls.at(op).pointee.hasPassedDeadline(now) }

    /// Nothing to mark: every send of a call with a deadline tests it (``sendIsUnusual(_:_:)``).
    @inline(__always) mutating func checkDeadlineAtSend(_ op: UInt32) {}

    @inline(__always) mutating func scheduleSend(_ op: UInt32, at time: Int64) {
        if time < horizon { schedule(.send, op, calls.at(op).pointee.generation, at: time) }
    }

    /// A hedged call keeps each copy's request (``keepCopy(_:_:)``), to cancel it.
    @inline(__always) mutating func send<C: LoopKind>(
        _ op: UInt32, _ generation: UInt32, query: Bool, _ now: Int64, _ lent: borrowing Void, _ loop: C.Type
    ) {
        let e = edge(of: op)
        let sent = transmit(op, e, query: query, now)
        // Its answer, if the service gave one at the door, waits in `inner` until this is noted.
        if !query && edges[e].hedged { keepCopy(op, sent) }
    }

    /// Where the edge propagates cancellation, the attempt let go is cancelled at the called
    /// service (``cancelRequest(_:_:)``); elsewhere it goes on there, unwatched.
    @inline(__always) mutating func letGo(_ op: UInt32, _ now: Int64) {
        if edges[edge(of: op)].cancels { cancelRequest(sentRequests[Int(op)], now) }
    }

    @inline(__always) mutating func park(_ op: UInt32, guard e: Int) { park(op, e) }

    @inline(__always) mutating func wake<C: LoopKind>(_ e: Int, _ now: Int64, _ lent: borrowing Void, _ loop: C.Type) {
        wakeWaiting(e, now)
    }

    /// Nothing: a called service checks no credentials of its callers (`clients.credential_lifetime`
    /// is the clients' own, checked at the first service's door), so the retry goes as any retry.
    @inline(__always) mutating func refreshCredentials(_ op: UInt32, at time: Int64) {}

    @inline(__always) mutating func attemptRefused(_ op: UInt32, _ reason: StopReason, _ now: Int64) {
        let e = edge(of: op)
        let to = Int(edges[e].to)
        recorders[to - 1].attemptRefused(reason, retry: hasAttempted(op), recorders[to - 1].moment(now: now))
        if reason == .budgetExhausted && now >= warmupEnd { edgeCounts[e].budgetDenied &+= 1 }
    }

    /// Out of line, as the clients': a refusal ends the attempt path.
    @inline(never) mutating func retryRefusedByBudget(_ op: UInt32, _ now: Int64) {
        let e = edge(of: op)
        let to = Int(edges[e].to)
        recorders[to - 1].retryRefusedByBudget(recorders[to - 1].moment(now: now))
        if now >= warmupEnd { edgeCounts[e].budgetDenied &+= 1 }
    }

    @inline(__always) mutating func operationSucceeded<C: LoopKind>(
        _ op: UInt32, guard e: Int, _ now: Int64, _ lent: borrowing Void, _ loop: C.Type
    ) {
        callSucceeded(op, e, now)
    }

    @inline(__always) mutating func confirmed(_ op: UInt32, _ now: Int64) { callConfirmed(op, edge(of: op), now) }

    @inline(__always) mutating func endOperation(_ op: UInt32, reason: StopReason, _ now: Int64) { endCall(op, reason: reason, now) }
}
