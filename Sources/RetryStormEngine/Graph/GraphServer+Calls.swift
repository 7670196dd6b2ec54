import GSLSupport
import RetryPolicy

/// The calls a request makes once its own work is done: each an operation of its edge's policy
/// (`admit`, `attemptStarted`, `succeeded`, `decide`), whose attempts are requests at the called
/// service. Counted at the called service's recorder as the callers see them: calls started
/// (`operations`), first attempts and retries, and each attempt's outcome.
extension GraphServer {
    /// The request's own work is done: its first `calls[]` entry starts.
    mutating func startCalls(_ slot: UInt32, _ now: Int64) {
        requests.at(slot).pointee.step = 0
        requests.at(slot).pointee.calling = true
        beginStep(slot, now)
    }

    /// Starts the calls of request `slot`'s current entry: all of them at once (fan-out, and every
    /// entry of a shared stage), or the first.
    mutating func beginStep(_ slot: UInt32, _ now: Int64) {
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
                for _ in 0..<edges[s].count { startCall(slot, r.generation, s, now) }
            }
            callEnded(slot, r.generation, failed: false, e, now)
        } else {
            requests.at(slot).pointee.left = edge.count - 1
            startCall(slot, r.generation, e, now)
        }
    }

    /// A new call of request `slot` on edge `e`, whose first attempt goes out now (if its policy lets it).
    mutating func startCall(
        _ slot: UInt32, _ generation: UInt32, _ e: Int, _ now: Int64
    ) {
        let edge = edges[e]
        let deadline = edge.propagate ? deadlines[Int(slot)] : .max
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
        tryCall(c, now)
    }

    /// A call's next send is due.
    mutating func sendCall(_ c: UInt32, _ generation: UInt32, _ now: Int64) {
        guard calls.isCurrent(c, generation) else { return }
        if hedging && edges[edge(of: c)].hedged && hedges[Int(c)].live != 0 {
            // The latest copy's delay has passed with no answer: the next copy.
            copyDue(c, now, (), GeneralLoop.self)
            return
        }
        guard !calls.at(c).pointee.awaiting else { return }
        tryCall(c, now)
    }

    /// Call `c`'s next send is due now (it waits for no answer): the shared life cycle's
    /// ``AttemptHost/sendDue(_:_:_:_:)``. Out of line: inlined into its callers, it left the
    /// policy's `admit` out of line instead, which cost bench-chain more (`scripts/profile.sh`).
    @inline(never) mutating func tryCall(_ c: UInt32, _ now: Int64) {
        sendDue(c, now, (), GeneralLoop.self)
    }

    /// Puts call `c`'s current send (its generation) on edge `e`'s wire: its timeout (cut to the
    /// request's deadline), then the called service. Returns the request sent.
    mutating func transmit(_ c: UInt32, _ e: Int, query: Bool, _ now: Int64) -> Request {
        let call = calls.at(c)
        let to = Int(edges[e].to)
        let generation = call.pointee.generation
        let timeout = edges[e].timeout
        let attemptDeadline = call.pointee.cut(timeout == .max ? .max : Time.adding(now, timeout))
        if attemptDeadline < horizon {
            schedule(.timeout, c, generation, at: attemptDeadline)
        }
        // The called service sees a deadline only when the edge propagates one.
        let seen = edges[e].propagate ? attemptDeadline : .max
        let r = requests.allocate(GraphRequest(parent: c, parentGeneration: generation, arrival: now, service: UInt8(to), query: query))
        if propagatesDeadlines { keepDeadline(r, seen) }
        let sent = Request(slot: r, generation: requests.at(r).pointee.generation, deadline: seen, query: query)
        if cancelling { sentRequests[Int(c)] = UInt64(sent.slot) << 32 | UInt64(sent.generation) }
        deliver(sent, to: to, now)
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
        _ c: UInt32, _ generation: UInt32, _ code: ResponseCode, from to: Int, _ now: Int64
    ) {
        if hedging && edges[edge(of: c)].hedged {
            // A copy cancelled, timed out or outrun by another: its work was wasted.
            if !copyAnswered(c, generation, code, now, (), GeneralLoop.self) && !code.unprocessed { recorders[to - 1].count(.wasted) }
            return
        }
        guard calls.isCurrent(c, generation), calls.at(c).pointee.awaiting else {
            if !code.unprocessed { recorders[to - 1].count(.wasted) }
            return
        }
        answered(c, code, now, (), GeneralLoop.self)
    }

    /// Call `c` on edge `e` succeeded (its policy told): it ends, and its request goes on.
    mutating func callSucceeded(_ c: UInt32, _ e: Int, _ now: Int64) {
        let call = calls.at(c).pointee
        recorders[Int(edges[e].to) - 1].success(createdAt: call.createdAt, now: now)
        if checksLaws { edgeCalls[e].succeeded &+= 1 }
        releaseCall(c, e, now)
        wakeWaiting(e, now)
        callEnded(call.request, call.requestGeneration, failed: false, e, now)
    }

    /// A failed answer `code` from service `to` on edge `e`, counted there (rejected or failed)
    /// and on the edge (failed), as the caller's policy reads it.
    mutating func failure(_ code: ResponseCode, from to: Int, edge e: Int, _ now: Int64) -> NormalizedError {
        recorders[to - 1].count(code == .shed || code == .rateLimited ? .rejected : .failed)
        if now >= warmupEnd { edgeCounts[e].failed &+= 1 }
        return .http(code.status, retryAfter: retryAfter(code, from: to), unprocessed: code.unprocessed)
    }

    /// Call `c`'s send `generation` timed out: the request goes on downstream, unwatched.
    mutating func callTimedOut(_ c: UInt32, _ generation: UInt32, _ now: Int64) {
        if hedging && edges[edge(of: c)].hedged {
            copyTimedOut(c, generation, now, (), GeneralLoop.self)
            return
        }
        guard calls.isCurrent(c, generation), calls.at(c).pointee.awaiting else { return }
        timedOut(c, now, (), GeneralLoop.self)
    }

    /// A status query found call `c`'s write on edge `e` applied: the call ends, succeeded.
    @inline(never) mutating func callConfirmed(_ c: UInt32, _ e: Int, _ now: Int64) {
        let ended = calls.at(c).pointee
        let to = Int(edges[e].to)
        recorders[to - 1].count(.confirmed)
        recorders[to - 1].success(createdAt: ended.createdAt, now: now)
        if checksLaws { edgeCalls[e].confirmed &+= 1 }
        releaseCall(c, e, now)
        callEnded(ended.request, ended.requestGeneration, failed: false, e, now)
    }

    /// Call `c` failed for good (`reason`): counted as given up or blocked at the called service.
    mutating func endCall(_ c: UInt32, reason: StopReason, _ now: Int64) {
        let call = calls.at(c).pointee
        let e = Int(call.edge)
        recorders[Int(edges[e].to) - 1].count(reason.isGiveUp ? .gaveUp : .blocked)
        if checksLaws { if reason.isGiveUp { edgeCalls[e].gaveUp &+= 1 } else { edgeCalls[e].blocked &+= 1 } }
        if edges[e].hedged { abandonCopies(c, now) }
        releaseCall(c, e, now)
        callEnded(call.request, call.requestGeneration, failed: true, e, now)
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
        _ slot: UInt32, _ generation: UInt32, failed: Bool, _ e: Int, _ now: Int64
    ) {
        guard requests.isCurrent(slot, generation) else { preconditionFailure("a call outlived its request") }
        let r = requests.at(slot)
        if failed && r.pointee.failure == 0 { r.pointee.failure = edges[e].failure.rawValue }
        if edges[e].parallel {
            r.pointee.left -= 1
            guard r.pointee.left == 0 else { return }
        } else if !failed && r.pointee.left > 0 {
            r.pointee.left -= 1
            startCall(slot, generation, e, now)
            return
        }
        let plan = plans[Int(r.pointee.service)]
        if r.pointee.failure != 0 {
            answer(slot, ResponseCode(packed: r.pointee.failure))
            return
        }
        r.pointee.step = edges[e].stageEnd
        if r.pointee.step < plan.edges {
            beginStep(slot, now)
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
    @inline(__always) mutating func wakeWaiting(_ e: Int, _ now: Int64) {
        let c = edges[e].waitHead
        guard c != .max else { return }
        let call = calls.at(c)
        edges[e].waitHead = call.pointee.nextWaiting
        if edges[e].waitHead == .max { edges[e].waitTail = .max }
        schedule(.send, c, call.pointee.generation, at: now)
    }

    /// Request `slot` answers `code` once its calls are over: queued for ``drain``, which frees
    /// its worker and sends the answer on (to the clients' sink or to a call).
    @inline(__always) mutating func answer(_ slot: UInt32, _ code: ResponseCode) {
        answers.append(Answer(slot: slot, generation: requests.at(slot).pointee.generation, code: code))
    }
}
