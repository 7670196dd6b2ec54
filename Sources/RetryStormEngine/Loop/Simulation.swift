import GSLSupport
@_spi(Simulation) import RetryPolicy

extension RandomStream: UniformSource {
    @inline(__always) public mutating func nextUniform() -> Double { uniform() }
}

extension RandomView: UniformSource {
    @inline(__always) public mutating func nextUniform() -> Double { uniform() }
}

/// One replication of a scenario: the event loop and the client side of every operation.
///
/// Single-threaded, synchronous, no I/O and no wall clock: a scenario and a replication index
/// determine every event. Generic over the server model so that every call is static. The client
/// side drives each operation through the policy's state machine (`admit`, `attemptStarted`,
/// `succeeded`, `decide`, `reconciled`, `restart`): the policy library's own `RetryPolicy`, no
/// second implementation, or a caller's `ClientPolicy` — a generic parameter too, never an
/// existential.
///
/// The parts: the event loop and its checks (this file); operations and fleet-wide happenings
/// (`Simulation+Operations.swift`); attempts on their way to the server (`Simulation+Attempts.swift`);
/// what comes back and what the policy makes of it (`Simulation+Outcomes.swift`). The clients'
/// state is a ``ClientFleet``, the server a model behind its ``FrontDoor``. Every handler acts at
/// the ``Moment`` it is given: the event's, or a later one when an attempt is settled ahead.
struct Simulation<Server: ServerModel & ~Copyable, Policy: ClientPolicy>: ~Copyable {
    let horizon: Int64
    /// Population 0's policy (the only one without populations); `run()` copies it once into a
    /// local that every handler borrows, so no call copies it again.
    let policy: UnsafeMutablePointer<Policy>
    /// The policies of populations 1, 2, … (none without populations), read through
    /// ``lend(_:_:_:_:)``.
    let otherPolicies: UnsafeMutablePointer<Policy>
    let otherPolicyCount: Int
    /// Whether every attempt has the same timeout: its timeouts then come in the order they are
    /// scheduled and go to the agenda's FIFO.
    let uniformTimeout: Bool
    let checkInvariants: Bool
    let arrival: Scenario.Arrival
    let network: Scenario.Delay?
    let offline: Scenario.Offline?
    let restart: Scenario.Restart?
    /// Track which writes the server applied (duplicates without idempotency keys, reconciliation).
    let trackApplied: Bool
    let countDuplicates: Bool

    var agenda: Agenda
    var ops: OperationTable
    var fleet: ClientFleet
    /// The scenario's server model behind its front door (credentials, rate limiter, error mix).
    var server: FrontDoor<Server>
    var sink = ServerSink()
    var recorder: Recorder
    /// Population 0's arrivals (the whole fleet's without populations); ``otherWorkloads`` holds
    /// populations 1, 2, …. An arrival event's slot is its population.
    var workload: Workload
    var otherWorkloads: [Workload] = []
    var populationRecorder: PopulationRecorder
    let arrivalRandom: RandomStream
    let policyRandom: RandomStream
    let networkRandom: RandomStream

    var processed: Int64 = 0
    /// Attempt outcomes handled when the attempt was sent (see ``settle(_:_:deadline:_:_:_:)``).
    var settledAhead: Int64 = 0
    /// Whether attempt outcomes are settled when the attempt is sent rather than queued as events:
    /// whenever the server settles requests on arrival (``ServerModel/settleAhead``, set up only
    /// where ``canSettleAhead(_:_:)`` holds).
    /// Exact when nothing can touch an operation between its send and its outcome and the order of
    /// outcomes cannot matter: the server settles requests on arrival, the policy keeps no state
    /// across operations (no budget, breaker, throttle or concurrency limit), and no fleet-wide
    /// happening (restart wave, reconnect nudge), expiring credentials, network hop, error mix or
    /// applied-write tracking is modelled. Random draws then come in another order, so the results
    /// agree with the all-events run in distribution (and exactly when no draw moves).
    let settleAhead: Bool
    /// The time of the event being handled, nanoseconds: for the loop's checks and messages only;
    /// handlers act at the ``Moment`` they are given.
    var clock: Int64 = 0
    /// When the last operation ended (succeeded, gave up or was blocked), nanoseconds.
    var lastEnd: Int64 = 0
    /// Attempts and status queries whose client is waiting for an answer.
    var awaitingAttempts: Int64 = 0
    var awaitingQueries: Int64 = 0
    var violation: String?
    /// See ``EngineOptions/maxEvents``.
    let eventLimit: Int64
    var eventLimitReached = false
    let progress: SimulationProgress?

    /// - Parameter policies: the policy of each of `scenario.effectivePopulations`, in order.
    init(scenario: Scenario, policies: [Policy], replication: Int, server: consuming Server, checkInvariants: Bool,
         eventQueue: EventQueueKind = .wheel, maxEvents: Int64 = .max, progress: SimulationProgress? = nil) {
        eventLimit = maxEvents
        self.progress = progress
        horizon = scenario.horizon
        let declared = scenario.effectivePopulations
        policy = .allocate(capacity: 1)
        precondition(policies.count == declared.count, "one policy per population")
        policy.initialize(to: policies[0])
        otherPolicyCount = declared.count - 1
        otherPolicies = .allocate(capacity: max(1, otherPolicyCount))
        otherPolicies.initialize(from: Array(policies.dropFirst()), count: otherPolicyCount)
        uniformTimeout = Set(declared.map(\.clients.timeout)).count == 1
        self.checkInvariants = checkInvariants
        arrival = declared[0].clients.arrival
        network = scenario.network
        offline = scenario.clients.offline
        restart = scenario.clients.restart
        countDuplicates = policies.contains { $0.ambiguity.idempotency == .none }
        trackApplied = Self.tracksAppliedWrites(policies)
        settleAhead = server.settleAhead
        let estimate = ResourceEstimate(scenario)
        agenda = Agenda(capacity: estimate.eventQueueCapacity, wheelShift: estimate.wheelShift, wheelBuckets: estimate.wheelBuckets,
                        useHeap: eventQueue == .heap)
        ops = OperationTable(capacity: estimate.operationSlots)
        fleet = ClientFleet(scenario, policies: policies)
        self.server = FrontDoor(server, scenario: scenario, replication: replication)
        recorder = Recorder(horizon: scenario.horizon, bucket: scenario.bucket, expectedSuccesses: estimate.expectedOperations,
                            keepTotals: checkInvariants)
        workload = Workload(declared[0].clients.arrival, clients: declared[0].clients.count, load: scenario.load)
        otherWorkloads = declared.dropFirst().map { Workload($0.clients.arrival, clients: $0.clients.count, load: scenario.load) }
        populationRecorder = PopulationRecorder(populations: scenario.populations.count, buckets: recorder.buckets,
                                                expectedSuccesses: estimate.expectedOperations)
        arrivalRandom = RandomStream(scenario: scenario.seed, replication: replication, stream: .arrivals)
        policyRandom = RandomStream(scenario: scenario.seed, replication: replication, stream: .policy)
        networkRandom = RandomStream(scenario: scenario.seed, replication: replication, stream: .network)
    }

    deinit {
        policy.deallocate()
        otherPolicies.deinitialize(count: otherPolicyCount)
        otherPolicies.deallocate()
    }

    /// The scenario conditions under which settling ahead is exact (see ``settleAhead``).
    static func canSettleAhead(_ s: Scenario, _ policies: [Policy]) -> Bool {
        !policies.contains { $0.keepsHostState } && !tracksAppliedWrites(policies) && s.network == nil && !s.server.errors.any
            && s.clients.restart == nil && !(s.clients.offline?.nudge ?? false) && s.clients.credentialLifetime == nil
    }

    /// Runs until no event is left before the horizon.
    mutating func run() {
        // One copy of the policy per run, as a local: handed down as a borrowed parameter it is
        // read in place (see ``PolicyCount``).
        let policy = self.policy.pointee
        if otherPolicyCount == 0 {
            eventLoop(policy, OnePolicy.self)
        } else {
            eventLoop(policy, SeveralPolicies.self)
        }
    }

    /// Lends the policy of `population` to `body`: `first` (population 0's, borrowed from
    /// ``run()``) in a run with one policy — no branch, no copy — else the population's own. The
    /// other populations' policies are read through a pointer, so a run with populations copies
    /// them per call (see ``PolicyCount``).
    @inline(__always) func lend<R, C: PolicyCount>(_ population: UInt8, _ first: borrowing Policy, _: C.Type,
                                                   _ body: (borrowing Policy) -> R) -> R {
        if C.several && population != 0 { return body(otherPolicies[Int(population) &- 1]) }
        return body(first)
    }

    /// The event loop of ``run()``, specialised for one policy or several (`scripts/profile.sh`
    /// measures the one-policy loop by this name).
    mutating func eventLoop<C: PolicyCount>(_ policy: borrowing Policy, _ count: C.Type) {
        scheduleWorkload()
        while let (e, source) = agenda.earliest(or: server.peekEvent()), e.time < horizon {
            if checkInvariants && e.time < clock { fail("time went backwards: \(e.time) ns after \(clock) ns") }
            clock = e.time
            if recorder.bucketEnds(by: e.time) { closeBuckets(through: e.time) }
            recorder.advance(to: e.time)
            let now = recorder.moment(now: e.time)
            processed &+= 1
            // Every 65,536 events: cheap enough to be invisible, often enough for a display.
            if processed & 0xFFFF == 0 && pause() { break }
            prefetchUpcoming(after: source)
            if source == .other {
                server.handleNext(now: e.time, agenda: &agenda, recorder: &recorder, sink: &sink)
                drainSink(now, policy, count)
            } else {
                agenda.removeEarliestUnchecked(from: source)
                switch e.kind {
                case .arrival: arrive(e, now, policy, count)
                case .send: send(e, now, policy, count)
                case .timeout: timedOut(e.slot, e.generation, now, policy, count)
                case .connectTimeout: connectFailed(e, now, policy, count)
                case .deliverRequest: deliver(e, now)
                case .deliverResponse: answered(e.slot, e.generation, ResponseCode(packed: e.aux), now, policy, count)
                case .workload: workloadEvent(e, now, policy, count)
                case .serviceDone: break
                }
                drainSink(now, policy, count)
            }
            if checkInvariants { checkEvent() }
            if violation != nil { break }
        }
        closeBuckets(through: .max)
        agenda._checkAllInvariants()
        ops._checkAllInvariants()
    }

    /// Posts the simulated time for a progress display and checks the event limit.
    /// - Returns: whether to stop (the limit is reached).
    mutating func pause() -> Bool {
        progress?.post(clock)
        if processed &+ settledAhead >= eventLimit {
            eventLimitReached = true
            return true
        }
        return false
    }

    /// Records the queue length at the end of every bucket that ends by `t` (capped at the horizon).
    mutating func closeBuckets(through t: Int64) {
        while recorder.openBuckets > 0 && recorder.bucketEnds(by: t) {
            recorder.closeBucket(queueLength: server.queueLength(before: min(recorder.nextBucketAt, horizon)))
        }
    }

    /// Prefetches the slots of events that are known to come soon: timeouts a few places behind the
    /// FIFO's front, every event of a wheel bucket just drained, and the server's next completion.
    /// At a million operations the slots do not fit in cache; without this every event waits for
    /// its slot's miss in turn, with it the misses overlap with the work of the events before.
    @inline(__always) mutating func prefetchUpcoming(after source: Agenda.Source) {
        switch source {
        case .fifo:
            if let e = agenda.fifo.peek(at: Self.fifoLookahead) { ops.prefetch(e.slot) }
        case .wheel:
            if agenda.wheel.refilled {
                agenda.wheel.refilled = false
                for k in 0..<Self.wheelLookahead { if let e = agenda.wheel.upcoming(k) { ops.prefetch(e.slot) } }
            }
            if let e = agenda.wheel.upcoming(Self.wheelLookahead) { ops.prefetch(e.slot) }
        case .other:
            if let slot = server.upcomingSlot() { ops.prefetch(slot) }
        }
    }

    /// How many timeouts ahead to prefetch: enough for a miss (about 100 ns) to complete while
    /// the events before it run, few enough to stay in L1.
    static var fifoLookahead: Int { 8 }
    static var wheelLookahead: Int { 4 }

    // MARK: - The end

    /// The replication's outputs, once the event loop has stopped: the last invariant checks, then
    /// a ``ResultAssembler`` given what only the loop knows (when the run ended, its events).
    mutating func result(_ scenario: Scenario, replication: Int) -> ReplicationResult {
        if checkInvariants { checkEnd(scenario) }
        let operations = recorder.total(.operations)
        let finished = recorder.total(.succeeded) + recorder.total(.confirmed) + recorder.total(.gaveUp) + recorder.total(.blocked)
        // The run ends when nothing is left to happen — at the last operation's end or the last
        // request served, whichever is later (a stale event popped later is not a happening; with
        // attempts settled ahead there is none) — or at the horizon. The queue is measured to then.
        let end = agenda.isEmpty && server.peekEvent() == nil && operations == finished ? max(lastEnd, server.busyUntil) : horizon
        let assembler = ResultAssembler(scenario: scenario, replication: replication, end: end, events: processed &+ settledAhead,
                                        waitingArea: server.waitingArea(until: end), admitted: server.admitted,
                                        violation: violation, eventLimitReached: eventLimitReached)
        return assembler.result(recorder, populationRecorder, populations: fleet.populations)
    }

    // MARK: - Invariants

    mutating func fail(_ message: String) {
        if violation == nil { violation = "at t=\(Double(clock) / 1e9) s: \(message)" }
    }

    mutating func checkEvent() {
        let attempts = recorder.total(.firstAttempts) + recorder.total(.retries)
        let ended = recorder.total(.succeeded) + recorder.total(.failed) + recorder.total(.timedOut) + recorder.total(.rejected)
            + recorder.total(.offline) + recorder.total(.abandoned)
        if attempts != ended + awaitingAttempts {
            fail("attempts \(attempts) ≠ succeeded + failed + timed out + rejected + offline + abandoned + awaiting \(ended + awaitingAttempts)")
        }
        let finished = recorder.total(.succeeded) + recorder.total(.confirmed) + recorder.total(.gaveUp) + recorder.total(.blocked)
        if recorder.total(.operations) != finished + Int64(ops.live) {
            fail("operations \(recorder.total(.operations)) ≠ succeeded + confirmed + gave up + blocked + live \(finished + Int64(ops.live))")
        }
        if server.queueLength(before: clock) < 0 || server.inService < 0 { fail("negative queue length or service count") }
        if awaitingAttempts < 0 || awaitingQueries < 0 { fail("negative count of attempts in flight") }
    }

    /// What must hold once the loop has stopped: every event's checks, and a server with
    /// deterministic service never served more than its capacity allowed.
    mutating func checkEnd(_ scenario: Scenario) {
        checkEvent()
        let served = recorder.total(.served)
        let capacityIntegral = scenario.server.capacity * scenario.server.profile.integral(from: 0, to: horizon)
        if case .queue(let q) = scenario.server.model, q.service == .deterministic, Double(served) > capacityIntegral + Double(q.workers) {
            fail("served \(served) > capacity integral \(capacityIntegral) + \(q.workers) workers")
        }
    }
}
