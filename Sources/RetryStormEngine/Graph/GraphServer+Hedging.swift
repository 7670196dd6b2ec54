import RetryPolicy

/// The call graph's side of hedging (an edge whose policy has ``RetryPolicy/hedging``; the
/// handlers are written once, in `AttemptHost+Hedging.swift`): each copy of a call's attempt is a
/// request at the called service, and each call's copies are a ``HedgedAttempt`` (in
/// ``HedgeCopies``, by call slot) beside each copy's request. Abandoned copies are counted
/// `abandoned` at the called service, as the clients count theirs, and cancelled: a copy still
/// waiting in the called service's queue leaves it, one in service (or making its own calls)
/// finishes as wasted work. Every copy beyond the first is counted as a retry at the called
/// service: an attempt, in the amplification.
extension GraphServer {
    /// Call `c` starts on a hedged edge: no copy out yet; copy 0 will carry its next generation.
    mutating func resetCopies(_ c: UInt32) {
        while hedges.count <= Int(c) { hedges.append(HedgeCopies()) }
        hedges[Int(c)] = HedgeCopies(attempt: HedgedAttempt(base: calls.at(c).pointee.generation &+ 1))
    }

    @inline(__always) func currentGeneration(of op: UInt32) -> UInt32 { calls.at(op).pointee.generation }

    /// Every attempt on a hedged edge is a copy; the call's copies started with the call (``resetCopies(_:)``).
    @inline(__always) mutating func startsCopies<C: LoopKind>(_ op: UInt32, first: Bool, _ lent: borrowing Void, _ loop: C.Type) -> Bool {
        hedging && edges[edge(of: op)].hedged
    }

    @inline(__always) mutating func withHedge<R>(_ op: UInt32, _ body: (inout HedgedAttempt) -> R) -> R {
        body(&hedges[Int(op)].attempt)
    }

    /// The call's edge's window.
    @inline(__always) mutating func withLatencies<R>(_ op: UInt32, _ body: (inout LatencyWindow?) -> R) -> R {
        body(&windows[edge(of: op)])
    }

    /// Where the edge propagates cancellation, the copy let go is cancelled at the called service.
    mutating func letGo(_ op: UInt32, copy: Int, _ now: Int64) {
        if edges[edge(of: op)].cancels { cancelRequest(hedges[Int(op)].requests[copy], now) }
    }

    /// Call `c`'s copy just sent is `sent` at the called service, kept to cancel it there.
    @inline(__always) mutating func keepCopy(_ c: UInt32, _ sent: Request) {
        hedges[Int(c)].requests[hedges[Int(c)].attempt.sent - 1] = UInt64(sent.slot) << 32 | UInt64(sent.generation)
    }

    /// Counted at the called service (its attempts = outcomes + abandoned + in flight) and, if
    /// `cancel`, cancelled: one waiting in its queue leaves it unserved; one in service or making
    /// its own calls goes on, and its answer is wasted (at a flaky service, which has no queue,
    /// every copy out is in service). Where the edge propagates cancellation, a copy in service
    /// makes no calls and one making calls abandons them (``cancelRequest(_:_:)``).
    mutating func copiesAbandoned(_ c: UInt32, _ copies: CopySet, base: UInt32, cancel: Bool, _ now: Int64) {
        let to = callee(of: c)
        let propagates = edges[edge(of: c)].cancels
        for k in copies {
            recorders[to - 1].count(.abandoned)
            if checksLaws { callsOut[to].attempts &-= 1 }
            guard cancel else { continue }
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

    /// Kept for ``invariantViolation(atEnd:)``, which reports the first.
    mutating func lawBroken(_ message: String) {
        if brokenLaw == nil { brokenLaw = message }
    }

    /// Under the internal checks, edge `e`'s copies add up: each wanted one was sent, refused or
    /// not needed.
    @inline(__always) func checkCopies(_ e: Int) {
        let k = edgeCopies[e]
        _internalInvariant(
            k.wanted == k.sent + k.refused + k.notNeeded,
            "edge \(e): copies wanted \(k.wanted) ≠ sent \(k.sent) + refused \(k.refused) + not needed \(k.notNeeded)")
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
