import GSLSupport
import RetryPolicy

/// The clients' side of hedging (`AttemptHost+Hedging.swift`, the handlers written once): each
/// operation's copies are a ``HedgedAttempt`` in ``Simulation/hedges``, by slot, started when a
/// population whose policy has ``ClientPolicy/hedging`` makes an operation's first attempt. A
/// cancellation reaches the server at once, network or not (``ServerModel/cancel(_:)``: a queued
/// copy leaves the queue, one in service finishes as wasted work).
///
/// Runs in the general loop only (``GeneralLoop``), never settled ahead, with the queue
/// model's event-driven server. An app restart abandons the copies out without cancelling them,
/// and the operation's next attempt is a first copy again; a copy sent while its client is
/// offline fails as an attempt does (at once, or at the connect timeout), and the policy decides
/// as for any failed copy.
extension Simulation where Server: ~Copyable {
    @inline(__always) func currentGeneration(of op: UInt32) -> UInt32 { ops.header(op).pointee.generation }

    /// The first copy starts the copies if `op`'s population hedges (marked
    /// ``OperationBody/Flags/hedged``); every later one is a copy.
    @inline(__always) mutating func startsCopies<C: LoopKind>(_ op: UInt32, first: Bool, _ lent: borrowing Policy, _ loop: C.Type) -> Bool {
        guard features.hedging else { return false }
        guard first else { return true }
        return firstCopy(op, lent, loop)
    }

    /// `op`'s first attempt has just begun: if its policy hedges, it is copy 0.
    @inline(never) mutating func firstCopy<C: LoopKind>(_ op: UInt32, _ lent: borrowing Policy, _ loop: C.Type) -> Bool {
        let b = ops.body(op)
        guard policies.lend(b.pointee.population, lent, loop, { $0.hedging != nil }) else { return false }
        b.pointee.flags.insert(.hedged)
        let i = Int(op)
        while hedges.count <= i { hedges.append(HedgedAttempt()) }
        hedges[i] = HedgedAttempt(base: ops.header(op).pointee.generation)
        return true
    }

    @inline(__always) mutating func withHedge<R>(_ op: UInt32, _ body: (inout HedgedAttempt) -> R) -> R { body(&hedges[Int(op)]) }

    /// The operation's population's window.
    @inline(__always) mutating func withLatencies<R>(_ op: UInt32, _ body: (inout LatencyWindow?) -> R) -> R {
        body(&windows[Int(ops.body(op).pointee.population)])
    }

    /// A client's copy that timed out goes on at the server, as an attempt does.
    @inline(__always) mutating func letGo(_ op: UInt32, copy: Int, _ now: Moment) {}

    /// One cancellation covers them all: it cancels every earlier request of the slot too,
    /// including copies that timed out but still wait at the server.
    mutating func copiesAbandoned(_ op: UInt32, _ copies: CopySet, base: UInt32, cancel: Bool, _ now: Moment) {
        ops.header(op).pointee.awaiting = false
        guard let latest = copies.last else { return }
        if cancel { server.cancel(Request(slot: op, generation: base &+ UInt32(latest), deadline: 0, query: false)) }
        let n = Int64(copies.count)
        inFlight.attempts &-= n
        for _ in 0..<n {
            recorder.count(.abandoned, now)
            if fleet.hasPopulations { countPopulation(.abandoned, op, now) }
        }
    }

    /// Under the run's invariant checks (``Simulation/checks``).
    mutating func lawBroken(_ message: String) {
        if checks.enabled { fail(message) }
    }

    /// `slot`'s copy `generation` never reached the server: its client had no network (`error`:
    /// at once, or at the connect timeout).
    mutating func copyOffline<C: LoopKind>(
        _ slot: UInt32, _ generation: UInt32, _ error: NormalizedError, _ now: Moment, _ policy: borrowing Policy, _ loop: C.Type
    ) {
        guard case .failed(_, let others, _) = hedges[Int(slot)].answered(generation: generation, ok: false, at: now.time) else { return }
        sendEnded(slot, query: false)
        recorder.count(.offline, now)
        if fleet.hasPopulations { countPopulation(.offline, slot, now) }
        copyFailed(slot, error, others, now, policy, loop)
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
