import RetryPolicy

/// Cancellation that reaches downstream (`calls[].cancellation: propagate`, ``GraphEdge/cancels``):
/// an attempt its caller abandons (its timeout, which a propagated deadline cuts; a hedged copy
/// outrun by another; its call ended with copies out; its own request cancelled) is cancelled at
/// the called service. There, a request still queued leaves the queue unserved (when a worker
/// would take it: the queue skips it, ``QueueServer/cancel(_:)``); one in service finishes as
/// wasted work and makes no calls; one making its calls abandons them: each ends, counted
/// `callsCancelled` at its callee, its attempts out `abandoned` and, where its own edge propagates,
/// cancelled in turn. Without a propagating edge none of this runs, and nothing is kept for it.
extension GraphServer {
    /// A call's neighbours in its request's list of open calls (``firstCall``).
    struct CallLinks {
        var previous: UInt32 = .max
        var next: UInt32 = .max
    }

    /// Call `c` of request `slot` started: first in the request's list.
    @inline(never) mutating func linkCall(_ c: UInt32, to slot: UInt32) {
        while firstCall.count <= Int(slot) { firstCall.append(.max) }
        while callLinks.count <= Int(c) { callLinks.append(CallLinks()) }
        while sentRequests.count <= Int(c) { sentRequests.append(0) }
        let head = firstCall[Int(slot)]
        callLinks[Int(c)] = CallLinks(previous: .max, next: head)
        if head != .max { callLinks[Int(head)].previous = c }
        firstCall[Int(slot)] = c
    }

    /// Call `c` ended: out of its request's list.
    @inline(never) mutating func unlinkCall(_ c: UInt32) {
        let links = callLinks[Int(c)]
        if links.previous == .max {
            firstCall[Int(calls.at(c).pointee.request)] = links.next
        } else {
            callLinks[Int(links.previous)].next = links.next
        }
        if links.next != .max { callLinks[Int(links.next)].previous = links.previous }
    }

    /// Cancels the request `packed` (slot in the high half, generation in the low) if it is still
    /// at its service: see the extension's comment. A request already cancelled, or ended, is left.
    @inline(never) mutating func cancelRequest(_ packed: UInt64, _ now: Int64) {
        let slot = UInt32(truncatingIfNeeded: packed >> 32)
        let generation = UInt32(truncatingIfNeeded: packed)
        guard packed != 0, requests.isCurrent(slot, generation) else { return }
        let r = requests.at(slot)
        guard !r.pointee.cancelled else { return }
        r.pointee.cancelled = true
        let s = Int(r.pointee.service)
        guard r.pointee.calling else {
            // Queued: the queue skips it. In service (or at a flaky service, which has no queue):
            // it finishes, and ``noted`` starts no calls for it.
            if s < queueCount { services[s].cancel(Request(slot: slot, generation: generation, deadline: 0, query: false)) }
            return
        }
        // Its calls all ended and its answer waits in ``answers``: it goes, and is wasted there.
        guard firstCall[Int(slot)] != .max else { return }
        while firstCall[Int(slot)] != .max { abandonCall(firstCall[Int(slot)], now) }
        // Its own work was done for nobody; it answers nothing, so nothing else counts it. It
        // ends as ``finish`` ends a request that answers nobody: a service that makes calls runs
        // the queue model, so its worker is a queue's.
        recorders[s - 1].count(.wasted)
        // Its time at the service ends here, as a request's that is dropped (``finish``).
        let arrival = r.pointee.arrival
        if arrival >= warmupEnd { latencies[s].record(now &- arrival) }
        requests.release(slot)
        if plans[s].holdsWorkers { services[s].release(now: now, agenda: &loop.agenda.pointee, recorder: &recorders[s - 1], sink: &inner) }
    }

    /// Call `c` ends because its request was cancelled: what it holds on its host is given back
    /// (``RetryPolicy/cancelled(record:host:now:)``), its sends out are abandoned (and cancelled
    /// where its edge propagates), and it is counted `callsCancelled` at its callee.
    mutating func abandonCall(_ c: UInt32, _ now: Int64) {
        let call = calls.at(c)
        let e = Int(call.pointee.edge)
        let to = Int(edges[e].to)
        if call.pointee.record.waitingForSlot { unpark(c, e) }
        if edges[e].hedged {
            let out = Int32(hedges[Int(c)].live.nonzeroBitCount)
            if out > 1 { policies[e].abandonCopies(out - 1, record: &call.pointee.record, host: &guards[e]) }
            abandonCopies(c, now)
        } else if call.pointee.awaiting {
            call.pointee.awaiting = false
            if call.pointee.reconciling {
                if checksLaws { callsOut[to].queries &-= 1 }
            } else {
                recorders[to - 1].count(.abandoned)
                if checksLaws { callsOut[to].attempts &-= 1 }
            }
            if edges[e].cancels { cancelRequest(sentRequests[Int(c)], now) }
        }
        policies[e].cancelled(record: &call.pointee.record, host: &guards[e], now: now)
        recorders[to - 1].callsCancelled &+= 1
        if checksLaws { edgeCalls[e].cancelled &+= 1 }
        releaseCall(c, e, now)
        wakeWaiting(e, now)
    }

    /// Takes call `c` out of edge `e`'s queue for a concurrency slot, if it is there (a call
    /// woken but not yet sent is not): a walk along the queue, on the rare path of a call
    /// cancelled while it waits, so that the queue needs one link per call, not two.
    mutating func unpark(_ c: UInt32, _ e: Int) {
        var previous = UInt32.max
        var k = edges[e].waitHead
        while k != .max && k != c {
            previous = k
            k = calls.at(k).pointee.nextWaiting
        }
        guard k == c else { return }
        let next = calls.at(c).pointee.nextWaiting
        if previous == .max { edges[e].waitHead = next } else { calls.at(previous).pointee.nextWaiting = next }
        if edges[e].waitTail == c { edges[e].waitTail = previous }
    }
}
