import GSLSupport
import RetryPolicy

extension RandomStream: UniformSource {
    @inline(__always) public mutating func nextUniform() -> Double { uniform() }
}

extension RandomView: UniformSource {
    @inline(__always) public mutating func nextUniform() -> Double { uniform() }
}

/// One replication of a scenario: the event loop and the client side of every operation.
///
/// Single-threaded, synchronous, no I/O and no wall clock: a scenario and a replication index
/// determine every event. Generic over the server model so that every call is static.
struct Simulation<Server: ServerModel & ~Copyable>: ~Copyable {
    let horizon: Int64
    let timeout: Int64
    /// The policy lives behind a pointer so that calls borrow it in place: a `RetryPolicy` stored
    /// in the struct is copied (several hundred bytes) into every call that also mutates the simulation.
    let policy: UnsafeMutablePointer<RetryPolicy>
    let checkInvariants: Bool
    let perClientGuards: Bool

    var agenda: Agenda
    var ops: OperationTable
    var guards: RawBuffer<HostGuard>
    var server: Server
    var recorder: Recorder
    var workload: Workload
    let arrivalRandom: RandomStream
    let serviceRandom: RandomStream
    let policyRandom: RandomStream

    var processed: Int64 = 0
    var now: Int64 = 0
    /// Attempts whose client is waiting for an answer.
    var awaiting: Int64 = 0
    var violation: String?

    deinit { policy.deallocate() }

    init(scenario: Scenario, replication: Int, server: consuming Server, checkInvariants: Bool) {
        horizon = scenario.horizon
        timeout = scenario.clients.timeout ?? .max
        policy = .allocate(capacity: 1)
        policy.initialize(to: scenario.policy)
        self.checkInvariants = checkInvariants
        perClientGuards = scenario.policy.keepsHostState
        let estimate = ResourceEstimate(scenario)
        agenda = Agenda(capacity: estimate.eventQueueCapacity, wheelShift: estimate.wheelShift, wheelBuckets: estimate.wheelBuckets)
        ops = OperationTable(capacity: estimate.operationSlots)
        guards = RawBuffer(capacity: perClientGuards ? scenario.clients.count : 1)
        for _ in 0..<(perClientGuards ? scenario.clients.count : 1) { guards.append(HostGuard(policy: scenario.policy)) }
        self.server = server
        recorder = Recorder(horizon: scenario.horizon, bucket: scenario.bucket, expectedSuccesses: estimate.expectedOperations,
                            keepTotals: checkInvariants)
        workload = Workload(scenario.clients.arrival, clients: scenario.clients.count)
        arrivalRandom = RandomStream(scenario: scenario.seed, replication: replication, stream: .arrivals)
        serviceRandom = RandomStream(scenario: scenario.seed, replication: replication, stream: .service)
        policyRandom = RandomStream(scenario: scenario.seed, replication: replication, stream: .policy)
    }

    /// Runs until no event is left before the horizon.
    mutating func run() {
        // One copy of the policy per run, as a local: handed down as a borrowed parameter it is
        // read in place. Read through `self` or a pointer, every call would copy it (the C
        // random-number calls it makes could, for all the optimiser knows, change that memory).
        let policy = self.policy.pointee
        if let t = workload.first(random: arrivalRandom, horizon: horizon) {
            agenda.schedule(time: t, kind: .arrival, slot: 0, generation: 0)
        }
        while let (e, source) = agenda.earliest(or: server.peekEvent()), e.time < horizon {
            if checkInvariants && e.time < now { fail("time went backwards: \(e.time) ns after \(now) ns") }
            now = e.time
            recorder.advance(to: now, queueLength: server.queueLength)
            processed &+= 1
            if source == .other {
                if let r = server.handleNext(now: now, agenda: &agenda, random: serviceRandom, recorder: recorder) {
                    respond(r, policy)
                }
                if checkInvariants { checkEvent() }
                if violation != nil { break }
                continue
            }
            agenda.remove(from: source)
            switch e.kind {
            case .arrival: arrive(policy)
            case .send: send(e, policy)
            case .timeout: timedOut(e, policy)
            case .serviceDone:
                break
            }
            if checkInvariants { checkEvent() }
            if violation != nil { break }
        }
        recorder.finish(queueLength: server.queueLength)
    }

    // MARK: - Client side

    @inline(__always) mutating func arrive(_ policy: borrowing RetryPolicy) {
        let client = workload.take(random: arrivalRandom)
        if let t = workload.next(after: now, random: arrivalRandom, horizon: horizon) {
            agenda.schedule(time: t, kind: .arrival, slot: 0, generation: 0)
        }
        let slot = ops.allocate(client: UInt32(truncatingIfNeeded: client), now: now)
        recorder.count(.operations)
        tryAttempt(slot, policy)
    }

    @inline(__always) mutating func send(_ e: Event, _ policy: borrowing RetryPolicy) {
        let h = ops.header(e.slot)
        guard h.pointee.generation == e.generation, !h.pointee.awaiting else { return }
        tryAttempt(e.slot, policy)
    }

    /// Starts the next attempt of `slot` now, unless the policy makes it wait or refuses it.
    @inline(__always) mutating func tryAttempt(_ slot: UInt32, _ policy: borrowing RetryPolicy) {
        let h = ops.header(slot)
        let op = ops.body(slot)
        let g = guardIndex(h.pointee.client)
        var random = policyRandom.view
        switch policy.admit(record: &op.pointee.record, host: &guards.base[g], now: now, random: &random) {
        case .proceed:
            break
        case .wait(let until):
            op.pointee.record.nextAttemptAt = until
            agenda.schedule(time: until, kind: .send, slot: slot, generation: h.pointee.generation)
            return
        case .waitForSlot:
            // Placeholder until the engine wakes slot waiters when an attempt of the host ends: ask again in 1 ms.
            agenda.schedule(time: Time.adding(now, 1_000_000), kind: .send, slot: slot, generation: h.pointee.generation)
            return
        case .reject(let reason):
            finish(slot, reason: reason)
            return
        }
        let isRetry = op.pointee.record.attemptCount > 0
        policy.attemptStarted(record: &op.pointee.record, host: &guards.base[g], now: now)
        h.pointee.generation &+= 1
        h.pointee.awaiting = true
        awaiting &+= 1
        recorder.count(isRetry ? .retries : .firstAttempts)
        let generation = h.pointee.generation
        let deadline = Time.adding(now, timeout)
        if deadline < horizon {
            agenda.scheduleInOrder(time: deadline, kind: .timeout, slot: slot, generation: generation)
        }
        let request = Request(slot: slot, generation: generation, deadline: deadline)
        if let r = server.receive(request, now: now, agenda: &agenda, random: serviceRandom, recorder: recorder) {
            respond(r, policy)
        }
    }

    @inline(__always) mutating func timedOut(_ e: Event, _ policy: borrowing RetryPolicy) {
        let h = ops.header(e.slot)
        guard h.pointee.generation == e.generation, h.pointee.awaiting else { return }
        h.pointee.awaiting = false
        awaiting &-= 1
        recorder.count(.timedOut)
        failed(e.slot, .timedOut(.response), policy)
    }

    /// The server answered `r`: deliver it if its client still waits, else it was wasted work.
    @inline(__always) mutating func respond(_ r: Response, _ policy: borrowing RetryPolicy) {
        let h = ops.header(r.slot)
        guard h.pointee.generation == r.generation, h.pointee.awaiting else {
            if !r.rejected { recorder.count(.wasted) }
            return
        }
        h.pointee.awaiting = false
        awaiting &-= 1
        let op = ops.body(r.slot)
        if r.status == 200 {
            recorder.count(.succeeded)
            var random = policyRandom.view
            policy.succeeded(record: &op.pointee.record, host: &guards.base[guardIndex(h.pointee.client)], now: now,
                                     random: &random)
            recorder.success(after: now &- op.pointee.createdAt)
            ops.release(r.slot)
            return
        }
        recorder.count(r.rejected ? .rejected : .failed)
        failed(r.slot, .http(Int(r.status), retryAfter: r.retryAfter >= 0 ? r.retryAfter : nil, unprocessed: r.rejected), policy)
    }

    /// Asks the policy what follows a failed attempt and does it.
    @inline(__always) mutating func failed(_ slot: UInt32, _ error: NormalizedError, _ policy: borrowing RetryPolicy) {
        let h = ops.header(slot)
        let op = ops.body(slot)
        let g = guardIndex(h.pointee.client)
        var random = policyRandom.view
        var decision = policy.decide(after: error, record: &op.pointee.record, host: &guards.base[g], now: now, random: &random)
        if case .reconcile = decision {
            // Placeholder until the engine models status queries: every reconciliation finds the write not applied.
            decision = policy.reconciled(.notApplied, record: &op.pointee.record, host: &guards.base[g], now: now, random: &random)
        }
        switch decision {
        case .retry(let at), .refreshCredentials(let at), .reconcile(let at):
            if at < horizon {
                agenda.schedule(time: at, kind: .send, slot: slot, generation: h.pointee.generation)
            }
        case .confirmed:
            // Only a reconciliation that found the write applied confirms; the placeholder above never does.
            finish(slot, reason: .ambiguousOutcome)
        case .stop(let reason):
            finish(slot, reason: reason)
        }
    }

    @inline(__always) mutating func finish(_ slot: UInt32, reason: StopReason) {
        recorder.count(reason.isGiveUp ? .gaveUp : .blocked)
        ops.release(slot)
    }

    @inline(__always) func guardIndex(_ client: UInt32) -> Int { perClientGuards ? Int(client) : 0 }

    // MARK: - Invariants

    mutating func fail(_ message: String) {
        if violation == nil { violation = "at t=\(Double(now) / 1e9) s: \(message)" }
    }

    mutating func checkEvent() {
        let attempts = recorder.total(.firstAttempts) + recorder.total(.retries)
        let ended = recorder.total(.succeeded) + recorder.total(.failed) + recorder.total(.timedOut) + recorder.total(.rejected)
        if attempts != ended + awaiting {
            fail("attempts \(attempts) ≠ succeeded + failed + timed out + rejected + awaiting \(ended + awaiting)")
        }
        let finished = recorder.total(.succeeded) + recorder.total(.gaveUp) + recorder.total(.blocked)
        if recorder.total(.operations) != finished + Int64(ops.live) {
            fail("operations \(recorder.total(.operations)) ≠ succeeded + gave up + blocked + live \(finished + Int64(ops.live))")
        }
        if server.queueLength < 0 || server.inService < 0 { fail("negative queue length or service count") }
    }
}
