import GSLSupport
import RetryPolicy

/// The clients as a host of the attempt life cycle (``AttemptHost``): an operation is a slot of
/// ``OperationTable``; its policy is its population's, lent from the borrowed population-0 policy
/// (``PopulationPolicies/lend(_:_:_:_:)``); its counts go to the recorder and, with populations,
/// to its population's.
extension Simulation: AttemptHost where Server: ~Copyable {
    typealias Lent = Policy

    var hasDeadlines: Bool { features.deadline }

    /// The client's guard for the operation's host: a concurrency limit is per client and host.
    @inline(__always) func hostGuard(of op: UInt32) -> Int { fleet.guardIndex(ops.header(op).pointee.client, ops.body(op).pointee.host) }

    @inline(__always) mutating func withPolicy<R, C: LoopKind>(
        _ op: UInt32, guard g: Int, _ lent: borrowing Policy, _ loop: C.Type,
        _ body: (borrowing Policy, inout OperationRecord, inout HostGuard, inout RandomView) -> R
    ) -> R {
        let b = ops.body(op)
        var random = policies.random.view
        return policies.lend(b.pointee.population, lent, loop) { body($0, &b.pointee.record, &fleet.guards.base[g], &random) }
    }

    @inline(__always) func hasAttempted(_ op: UInt32) -> Bool { ops.body(op).pointee.record.attemptCount > 0 }

    @inline(__always) func deadline(of op: UInt32) -> Int64 { operationDeadline(op) }

    @inline(__always) func isReconciling(_ op: UInt32) -> Bool { ops.body(op).pointee.flags.contains(.reconciling) }

    @inline(__always) mutating func setReconciling(_ op: UInt32, _ on: Bool) {
        if on { ops.body(op).pointee.flags.insert(.reconciling) } else { ops.body(op).pointee.flags.remove(.reconciling) }
    }

    @inline(__always) func hasApplied(_ op: UInt32) -> Bool { ops.body(op).pointee.applied > 0 }

    @inline(__always) mutating func setAwaiting(_ op: UInt32, _ on: Bool) { ops.header(op).pointee.awaiting = on }

    @inline(__always) mutating func beginSend(_ op: UInt32, query: Bool) -> UInt32 {
        let h = ops.header(op)
        h.pointee.generation &+= 1
        h.pointee.awaiting = true
        if query { inFlight.queries &+= 1 } else { inFlight.attempts &+= 1 }
        return h.pointee.generation
    }

    @inline(__always) mutating func sendEnded(_ op: UInt32, query: Bool) {
        if query { inFlight.queries &-= 1 } else { inFlight.attempts &-= 1 }
    }

    @inline(__always) mutating func count(_ what: AttemptCount, _ op: UInt32, _ now: Moment) {
        switch what {
        case .firstAttempt, .retry:
            recorder.count(what == .retry ? .retries : .firstAttempts, now)
            if fleet.hasPopulations { countPopulationAttempt(op, isRetry: what == .retry, now) }
        case .query:
            recorder.count(.queries, now)
            if fleet.hasPopulations { countPopulation(.queries, op, now) }
        case .heldBack:
            recorder.count(.heldBack, now)
            if fleet.hasPopulations { countPopulation(.heldBack, op, now) }
        case .succeeded:
            // A population counts its successes when the operation ends (``populationSucceeded``).
            recorder.count(.succeeded, now)
        case .timedOut:
            recorder.count(.timedOut, now)
            if fleet.hasPopulations { countPopulation(.timedOut, op, now) }
        case .copyWanted: recorder.count(.hedgesWanted, now)
        case .copySent: recorder.count(.hedgesSent, now)
        case .copyRefused: recorder.count(.hedgesRefused, now)
        case .copyNotNeeded: recorder.count(.hedgesNotNeeded, now)
        }
    }

    @inline(__always) mutating func failure(_ code: ResponseCode, _ op: UInt32, _ now: Moment) -> NormalizedError {
        let rejected = code == .shed || code == .rateLimited
        recorder.count(rejected ? .rejected : .failed, now)
        if fleet.hasPopulations { countPopulation(rejected ? .rejected : .failed, op, now) }
        return .http(code.status, retryAfter: server.retryAfter(code), unprocessed: code.unprocessed)
    }

    /// One flag test for both rare cases keeps ``sendDue(_:_:_:_:)`` small; the lean loop has no
    /// deadlines (``LoopKind``), so it tests for a status query alone.
    @inline(__always) func sendIsUnusual<C: LoopKind>(_ op: UInt32, _: C.Type) -> Bool {
        !ops.body(op).pointee.flags.isDisjoint(with: C.general ? .unusualSend : .reconciling)
    }

    /// Only a send marked ``OperationBody/Flags/checkDeadline`` may come at the deadline; the mark
    /// goes once a send is found before it.
    @inline(__always) mutating func sendIsPastDeadline(_ op: UInt32, _ now: Moment) -> Bool {
        let b = ops.body(op)
        guard b.pointee.flags.contains(.checkDeadline) else { return false }
        if now.time >= operationDeadline(op) { return true }
        b.pointee.flags.remove(.checkDeadline)
        return false
    }

    @inline(__always) mutating func checkDeadlineAtSend(_ op: UInt32) { ops.body(op).pointee.flags.insert(.checkDeadline) }

    @inline(__always) mutating func scheduleSend(_ op: UInt32, at time: Int64) {
        if time < horizon { agenda.schedule(time: time, kind: .send, slot: op, generation: ops.header(op).pointee.generation) }
    }

    /// An attempt never reaches the server if its client is offline (``offline(_:_:_:_:_:)``). A
    /// status query is sent as it is.
    @inline(__always) mutating func send<C: LoopKind>(
        _ op: UInt32, _ generation: UInt32, query: Bool, _ now: Moment, _ lent: borrowing Policy, _ loop: C.Type
    ) {
        if !query && isOffline(ops.header(op).pointee.client, now) {
            offline(op, generation, now, lent, loop)
            return
        }
        transmit(op, generation, query: query, now, lent, loop)
    }

    /// A client's attempt that timed out goes on at the server: nothing is cancelled.
    @inline(__always) mutating func letGo(_ op: UInt32, _ now: Moment) {}

    @inline(__always) mutating func park(_ op: UInt32, guard g: Int) { fleet.park(op, g, ops.body(op).pointee.record.lane, ops: ops) }

    /// The credential check at the server's door learns that `op`'s client renewed its credential.
    @inline(__always) mutating func refreshCredentials(_ op: UInt32, at time: Int64) {
        server.credentials.refreshed(client: ops.header(op).pointee.client, at: time)
    }

    @inline(__always) mutating func attemptRefused(_ op: UInt32, _ reason: StopReason, _ now: Moment) {
        let refusedRetry = recorder.attemptRefused(reason, retry: hasAttempted(op), now)
        if fleet.hasPopulations {
            countPopulation(reason == .budgetExhausted ? .budgetDenied : .heldBack, op, now)
            if refusedRetry { countPopulation(.retriesRefused, op, now) }
        }
    }

    /// Out of line: a refusal ends the attempt path, and keeping it small keeps that path inlined.
    @inline(never) mutating func retryRefusedByBudget(_ op: UInt32, _ now: Moment) {
        recorder.retryRefusedByBudget(now)
        if fleet.hasPopulations {
            countPopulation(.retriesRefused, op, now)
            countPopulation(.budgetDenied, op, now)
        }
    }

    mutating func confirmed(_ op: UInt32, _ now: Moment) {
        let createdAt = ops.body(op).pointee.createdAt
        recorder.count(.confirmed, now)
        recorder.count(.confirmedByStart, at: createdAt)
        if fleet.hasPopulations { countPopulation(.confirmed, op, now) }
        recorder.success(createdAt: createdAt, now: now.time)
        if fleet.hasPopulations { populationSucceeded(op, now) }
        ended(op, now)
    }

    @inline(__always) mutating func endOperation(_ op: UInt32, reason: StopReason, _ now: Moment) { finish(op, reason: reason, now) }
}
