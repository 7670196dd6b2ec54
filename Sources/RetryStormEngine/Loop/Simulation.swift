import GSLSupport
import RetryPolicy

extension RandomStream: UniformSource {
    /// The stream's next uniform draw in [0, 1) (``RandomStream/uniform()``); advances the stream.
    @inline(__always) public mutating func nextUniform() -> Double { uniform() }
}

extension RandomView: UniformSource {
    /// The viewed stream's next uniform draw in [0, 1) (``RandomView/uniform()``); advances the stream.
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
///
/// What the loop owns is the stored properties below, one per part, each a value of its own type
/// (in `Loop/` unless it is a container of its own). They are stored inline, as the loose
/// properties they replaced were: a handler reaches `progress.clock` at a fixed offset from
/// `self`, no pointer between (docs/performance.md measures the grouping).
struct Simulation<Server: ServerModel & ~Copyable, Policy: ClientPolicy>: ~Copyable {

    /// The hard stop of simulated time, nanoseconds: no event at or after it is handled.
    let horizon: Int64
    /// Which optional paths the handlers take in this run.
    let features: RunFeatures
    /// Each population's policy and the stream of their random draws.
    let policies: PopulationPolicies<Policy>
    /// Each population's workload and the stream of arrival draws.
    var arrivals: Arrivals
    /// The network between clients and server, if one is modelled.
    let network: NetworkHop
    /// Pending events: the timing wheel, the timeout FIFO and the sequence counter.
    var agenda: Agenda
    /// Every operation in flight, in 128-byte slots with a free list.
    var ops: OperationTable
    /// What the clients hold across operations: populations, per-host guards, slot queues.
    var fleet: ClientFleet
    /// The scenario's server model behind its front door (credentials, rate limiter, error mix).
    var server: FrontDoor<Server>
    /// What the server's last call reported, for the loop to act on.
    var sink = ServerSink()
    /// The counts per bucket and per second, and the times to success.
    var recorder: Recorder
    /// The same per population (empty without populations).
    var populationRecorder: PopulationRecorder
    /// Attempts and status queries whose client waits for an answer.
    var inFlight = InFlight()
    /// The clock, the events handled so far, the event limit.
    var progress: LoopProgress
    /// Whether the run checks its invariants, and the first one found broken.
    var checks: InvariantChecks
    /// The copies out of each hedged operation, by slot (empty unless a policy hedges).
    var hedges = RawBuffer<HedgedAttempt>(capacity: 0)
    /// Each population's latencies, for a percentile hedging delay (nil elsewhere).
    var windows: [LatencyWindow?]

    /// - Parameter policies: the policy of each of `scenario.effectivePopulations`, in order.
    init(
        scenario: Scenario, policies: [Policy], replication: Int, server: consuming Server, checkInvariants: Bool,
        eventQueue: EventQueueKind = .wheel, maxEvents: Int64 = .max, progress: SimulationProgress? = nil
    ) {
        self.progress = LoopProgress(eventLimit: maxEvents, display: progress)
        checks = InvariantChecks(enabled: checkInvariants)
        horizon = scenario.horizon
        let declared = scenario.effectivePopulations
        precondition(policies.count == declared.count, "one policy per population")
        func stream(_ id: StreamID) -> RandomStream { RandomStream(scenario: scenario.seed, replication: replication, stream: id) }
        self.policies = PopulationPolicies(policies, random: stream(.policy))
        features = RunFeatures(
            uniformTimeout: Set(declared.map(\.clients.timeout)).count == 1 && declared.allSatisfy { $0.clients.deadline == nil },
            deadline: declared.contains { $0.clients.deadline != nil }, settleAhead: server.settleAhead,
            trackApplied: Self.tracksAppliedWrites(policies), countDuplicates: policies.contains { $0.ambiguity.idempotency == .none },
            offline: scenario.clients.offline, restart: scenario.clients.restart, hedging: policies.contains { $0.hedging != nil })
        network = NetworkHop(delay: scenario.network, random: stream(.network))
        let estimate = ResourceEstimate(scenario)
        agenda = Agenda(
            capacity: estimate.eventQueueCapacity, wheelShift: estimate.wheelShift, wheelBuckets: estimate.wheelBuckets,
            useHeap: eventQueue == .heap)
        ops = OperationTable(capacity: estimate.operationSlots)
        fleet = ClientFleet(scenario, policies: policies)
        self.server = FrontDoor(server, scenario: scenario, replication: replication)
        recorder = Recorder(
            horizon: scenario.horizon, bucket: scenario.bucket, expectedSuccesses: estimate.expectedOperations,
            keepTotals: checkInvariants)
        // As ResultAssembler's `warm`: the buckets that start before the warmup ends.
        let warm = scenario.firstBucketAfterWarmup(of: recorder.buckets)
        recorder.warmupEnd = Int64(warm) * scenario.bucket
        arrivals = Arrivals(
            declared.map { Workload($0.clients.arrival, clients: $0.clients.count, load: scenario.load) },
            random: stream(.arrivals))
        populationRecorder = PopulationRecorder(
            populations: scenario.populations.count, buckets: recorder.buckets,
            expectedSuccesses: estimate.expectedOperations)
        let hedged = policies.contains { $0.hedging != nil }
        windows = policies.map { $0.hedging?.latencyWindow() }
        if hedged { self.server.expectCancellations() }
    }

    /// The scenario conditions under which settling ahead is exact (see ``RunFeatures/settleAhead``).
    static func canSettleAhead(_ s: Scenario, _ policies: [Policy]) -> Bool {
        !policies.contains { $0.keepsHostState || $0.hedging != nil } && !tracksAppliedWrites(policies) && s.network == nil && !s.server.errors.any
            && s.clients.restart == nil && !(s.clients.offline?.nudge ?? false) && s.clients.credentialLifetime == nil
    }

    /// Runs until no event is left before the horizon.
    mutating func run() {
        scheduleWorkload()
        var unwatched = Unwatched()
        resume(watch: &unwatched)
        finish()
    }

    /// Handles events until none is left before the horizon or `watch` stops the loop (which a
    /// later call resumes where it stopped): the first call after ``scheduleWorkload()``, the last
    /// before ``finish()``.
    mutating func resume<W: LoopWatch>(watch: inout W) {
        // One copy of the policy per run, as a local: handed down as a borrowed parameter it is
        // read in place (see ``LoopKind``).
        let policy = policies.first.pointee
        // Deadlines and hedging take the general loop too, so the lean loop carries no code for them.
        if policies.otherCount == 0 && !features.deadline && !features.hedging {
            eventLoop(policy, LeanLoop.self, &watch)
        } else {
            eventLoop(policy, GeneralLoop.self, &watch)
        }
    }

    /// What follows the last event: the queue length of the buckets left, the tables' checks.
    mutating func finish() {
        closeBuckets(through: .max)
        agenda._checkAllInvariants()
        ops._checkAllInvariants()
    }

    /// The event loop of ``run()``, specialised for the lean loop and the general one (``LoopKind``),
    /// and for a watch or none (``LoopWatch``); `scripts/profile.sh` measures the lean, unwatched
    /// loop by this name.
    mutating func eventLoop<C: LoopKind, W: LoopWatch>(_ policy: borrowing Policy, _ loop: C.Type, _ watch: inout W) {
        while let (e, source) = agenda.earliest(or: server.peekEvent()), e.time < horizon {
            if checks.enabled && e.time < progress.clock { fail("time went backwards: \(e.time) ns after \(progress.clock) ns") }
            progress.clock = e.time
            if recorder.bucketEnds(by: e.time) { closeBuckets(through: e.time) }
            recorder.advance(to: e.time)
            let now = recorder.moment(now: e.time)
            progress.processed &+= 1
            // Every 65,536 events: cheap enough to be invisible, often enough for a display.
            if progress.processed & 0xFFFF == 0 && (progress.pause() || outgrown()) { break }
            prefetchUpcoming(after: source)
            if source == .other {
                server.handleNext(now: e.time, agenda: &agenda, recorder: &recorder, sink: &sink)
                drainSink(now, policy, loop)
            } else {
                agenda.removeEarliestUnchecked(from: source)
                switch e.kind {
                case .arrival: arrive(e, now, policy, loop)
                case .send: send(e, now, policy, loop)
                case .timeout: timeoutFired(e.slot, e.generation, now, policy, loop)
                case .connectTimeout: connectFailed(e, now, policy, loop)
                case .deliverRequest: deliver(e, now, loop)
                case .deliverResponse: answerArrived(e.slot, e.generation, ResponseCode(packed: e.aux), now, policy, loop)
                case .workload: workloadEvent(e, now, policy, loop)
                case .serviceDone: break
                }
                drainSink(now, policy, loop)
            }
            if checks.enabled {
                checkEvent()
                // A server's own events carry its slots, not an operation's: a call graph's
                // requests and calls, whose numbers say nothing of the operations table.
                if C.general && source != .other { checkPopulation(e) }
            }
            if checks.violation != nil { break }
            if W.watches && watch.stop(at: e.time, backlog: server.queueLength(before: e.time) + server.inService) { break }
        }
    }

    /// Whether the server outgrew its memory (a call graph's, see ``ServerModel/exhausted``); if so
    /// the run stops, flagged. Compiled to `false` for one-hop models.
    @inline(__always) mutating func outgrown() -> Bool {
        guard server.exhausted else { return false }
        progress.memoryLimitReached = true
        return true
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
        if checks.enabled { checkEnd(scenario) }
        let operations = recorder.total(.operations)
        let finished = recorder.total(.succeeded) + recorder.total(.confirmed) + recorder.total(.gaveUp) + recorder.total(.blocked)
        // The run ends when nothing is left to happen — at the last operation's end or the last
        // request served, whichever is later (a stale event popped later is not a happening; with
        // attempts settled ahead there is none) — or at the horizon. The queue is measured to then.
        let end = agenda.isEmpty && server.peekEvent() == nil && operations == finished ? max(progress.lastEnd, server.busyUntil) : horizon
        // The services first: one still saturated at the horizon means the run has not recovered.
        let services = scenario.isCallGraph ? server.serviceResults(scenario, first: recorder) : []
        var assembler = ResultAssembler(
            scenario: scenario, replication: replication, end: end, events: progress.events,
            waitingArea: server.waitingArea(until: end), admitted: server.admitted,
            violation: checks.violation, eventLimitReached: progress.eventLimitReached)
        assembler.saturatedDownstream = services.dropFirst().contains { $0.recovery.saturated }
        assembler.stuckDownstream = services.map(\.stuck).filter { !$0.isNaN }.max() ?? 0
        var result = assembler.result(recorder, populationRecorder, populations: fleet.populations)
        result.services = services
        if scenario.isCallGraph { result.edges = server.edgeResults(scenario) }
        result.memoryLimitReached = progress.memoryLimitReached
        return result
    }

    // MARK: - Invariants

    mutating func fail(_ message: String) {
        checks.fail(message, at: progress.clock)
    }

    mutating func checkEvent() {
        let attempts = recorder.total(.firstAttempts) + recorder.total(.retries)
        let ended =
            recorder.total(.succeeded) + recorder.total(.failed) + recorder.total(.timedOut) + recorder.total(.rejected)
            + recorder.total(.offline) + recorder.total(.abandoned)
        if attempts != ended + inFlight.attempts {
            fail(
                "attempts \(attempts) ≠ succeeded + failed + timed out + rejected + offline + abandoned + awaiting "
                    + "\(ended + inFlight.attempts)")
        }
        let finished = recorder.total(.succeeded) + recorder.total(.confirmed) + recorder.total(.gaveUp) + recorder.total(.blocked)
        if recorder.total(.operations) != finished + Int64(ops.live) {
            fail("operations \(recorder.total(.operations)) ≠ succeeded + confirmed + gave up + blocked + live \(finished + Int64(ops.live))")
        }
        let wanted = recorder.total(.hedgesWanted)
        let copies = recorder.total(.hedgesSent) + recorder.total(.hedgesRefused) + recorder.total(.hedgesNotNeeded)
        if wanted != copies { fail("copies wanted \(wanted) ≠ sent + refused + not needed \(copies)") }
        if server.queueLength(before: progress.clock) < 0 || server.inService < 0 { fail("negative queue length or service count") }
        if inFlight.attempts < 0 || inFlight.queries < 0 { fail("negative count of attempts in flight") }
        if let v = server.invariantViolation(atEnd: false) { fail(v) }
    }

    /// What must hold once the loop has stopped: every event's checks, and a server with
    /// deterministic service never served more than its capacity allowed.
    mutating func checkEnd(_ scenario: Scenario) {
        checkEvent()
        if let v = server.invariantViolation(atEnd: true) { fail(v) }
        let served = recorder.total(.served)
        let capacityIntegral = scenario.server.capacity * scenario.server.profile.integral(from: 0, to: horizon)
        if case .queue(let q) = scenario.server.model, q.service == .deterministic, Double(served) > capacityIntegral + Double(q.workers) {
            fail("served \(served) > capacity integral \(capacityIntegral) + \(q.workers) workers")
        }
    }
}
