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
struct Simulation<Server: ServerModel & ~Copyable, Policy: ClientPolicy>: ~Copyable {
    let horizon: Int64
    let timeout: Int64
    let connectTimeout: Int64
    /// Population 0's policy (the only one without populations); `run()` copies it once into a
    /// local that every handler borrows, so no call copies it again.
    let policy: UnsafeMutablePointer<Policy>
    /// The policies of populations 1, 2, … (none without populations), read through
    /// ``lend(_:_:_:_:)``.
    let otherPolicies: UnsafeMutablePointer<Policy>
    let otherPolicyCount: Int
    /// Whether the scenario declares populations: then per-population parameters come from
    /// ``populations`` and per-population counts go to ``populationRecorder``.
    let hasPopulations: Bool
    /// Per population: its client range and the client settings that may differ (empty without
    /// populations).
    let populations: [PopulationParameters]
    /// Whether every attempt has the same timeout: its timeouts then come in the order they are
    /// scheduled and go to the agenda's FIFO.
    let uniformTimeout: Bool
    let checkInvariants: Bool
    let perClientGuards: Bool
    let hosts: Int
    let clients: Int
    let arrival: Scenario.Arrival
    let backgroundFraction: Double
    let network: Scenario.Delay?
    let errors: Scenario.ErrorMix
    let rateLimit: Scenario.RateLimit?
    let shedRetryAfter: Int64?
    let credentialLifetime: Int64?
    let offline: Scenario.Offline?
    let restart: Scenario.Restart?
    /// Which clients an offline window or a restart touches: a fixed hash of the client index
    /// below the fraction's share of 2^64, so no random draw is spent on it.
    let offlineThreshold: UInt64
    let restartThreshold: UInt64
    let seed: UInt64
    /// Track which writes the server applied (duplicates without idempotency keys, reconciliation).
    let trackApplied: Bool
    let countDuplicates: Bool
    let limit: ConcurrencyLimit?

    var agenda: Agenda
    var ops: OperationTable
    var guards: RawBuffer<HostGuard>
    var server: Server
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
    let errorRandom: RandomStream
    /// Per client: when its credentials expire.
    var tokenExpiry: RawBuffer<Int64>
    /// Per guard and lane: the first and last slot waiting for a concurrency slot.
    var waitHead: RawBuffer<UInt32>
    var waitTail: RawBuffer<UInt32>
    /// Per guard: woken waiters whose send is on the agenda.
    var pendingWakes: RawBuffer<Int32>
    var rateTokens = 0.0
    var rateUpdated: Int64 = 0

    var processed: Int64 = 0
    /// Attempt outcomes handled when the attempt was sent (see ``settle(_:_:deadline:_:)``).
    var settledAhead: Int64 = 0
    /// Whether attempt outcomes are settled when the attempt is sent rather than queued as events:
    /// whenever the server settles requests on arrival (``ServerModel/settleAhead``, set up only
    /// where ``canSettleAhead(_:)`` holds).
    /// Exact when nothing can touch an operation between its send and its outcome and the order of
    /// outcomes cannot matter: the server settles requests on arrival, the policy keeps no state
    /// across operations (no budget, breaker, throttle or concurrency limit), and no fleet-wide
    /// happening (restart wave, reconnect nudge), expiring credentials, network hop, error mix or
    /// applied-write tracking is modelled. Random draws then come in another order, so the results
    /// agree with the all-events run in distribution (and exactly when no draw moves).
    let settleAhead: Bool
    var now: Int64 = 0
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
        timeout = scenario.clients.timeout ?? .max
        connectTimeout = scenario.clients.connectTimeout
        let declared = scenario.effectivePopulations
        policy = .allocate(capacity: 1)
        precondition(policies.count == declared.count, "one policy per population")
        policy.initialize(to: policies[0])
        otherPolicyCount = declared.count - 1
        otherPolicies = .allocate(capacity: max(1, otherPolicyCount))
        otherPolicies.initialize(from: Array(policies.dropFirst()), count: otherPolicyCount)
        hasPopulations = !scenario.populations.isEmpty
        var first = 0
        populations = hasPopulations ? scenario.populations.map { p in
            defer { first += p.clients.count }
            return PopulationParameters(firstClient: first, clients: p.clients)
        } : []
        uniformTimeout = Set(declared.map(\.clients.timeout)).count == 1
        self.checkInvariants = checkInvariants
        hosts = max(1, scenario.clients.hosts)
        clients = scenario.clients.count
        arrival = scenario.effectivePopulations[0].clients.arrival
        backgroundFraction = scenario.clients.backgroundFraction
        network = scenario.network
        errors = scenario.server.errors
        rateLimit = scenario.server.rateLimit
        credentialLifetime = scenario.clients.credentialLifetime
        offline = scenario.clients.offline
        restart = scenario.clients.restart
        offlineThreshold = Self.threshold(scenario.clients.offline?.fraction ?? 0)
        restartThreshold = Self.threshold(scenario.clients.restart?.fraction ?? 0)
        seed = scenario.seed
        if case .queue(let q) = scenario.server.model { shedRetryAfter = q.shedRetryAfter } else { shedRetryAfter = nil }
        countDuplicates = policies.contains { $0.ambiguity.idempotency == .none }
        trackApplied = Self.tracksAppliedWrites(policies)
        limit = policies.lazy.compactMap(\.concurrency).first
        perClientGuards = policies.contains { $0.keepsHostState }
        settleAhead = server.settleAhead
        let estimate = ResourceEstimate(scenario)
        agenda = Agenda(capacity: estimate.eventQueueCapacity, wheelShift: estimate.wheelShift, wheelBuckets: estimate.wheelBuckets,
                        useHeap: eventQueue == .heap)
        ops = OperationTable(capacity: estimate.operationSlots)
        let guardCount = perClientGuards ? scenario.clients.count * hosts : 1
        guards = RawBuffer(capacity: guardCount)
        if perClientGuards {
            for (population, policy) in zip(declared, policies) {
                for _ in 0..<(population.clients.count * hosts) { guards.append(policy.makeHostGuard()) }
            }
        } else {
            guards.append(policies[0].makeHostGuard())
        }
        let waitCount = limit != nil ? guardCount : 0
        waitHead = RawBuffer(capacity: 2 * waitCount)
        waitTail = RawBuffer(capacity: 2 * waitCount)
        pendingWakes = RawBuffer(capacity: waitCount)
        for _ in 0..<(2 * waitCount) { waitHead.append(.max); waitTail.append(.max) }
        for _ in 0..<waitCount { pendingWakes.append(0) }
        self.server = server
        recorder = Recorder(horizon: scenario.horizon, bucket: scenario.bucket, expectedSuccesses: estimate.expectedOperations,
                            keepTotals: checkInvariants)
        workload = Workload(declared[0].clients.arrival, clients: declared[0].clients.count, load: scenario.load)
        otherWorkloads = declared.dropFirst().map { Workload($0.clients.arrival, clients: $0.clients.count, load: scenario.load) }
        populationRecorder = PopulationRecorder(populations: scenario.populations.count, buckets: recorder.buckets,
                                                expectedSuccesses: estimate.expectedOperations)
        arrivalRandom = RandomStream(scenario: scenario.seed, replication: replication, stream: .arrivals)
        policyRandom = RandomStream(scenario: scenario.seed, replication: replication, stream: .policy)
        networkRandom = RandomStream(scenario: scenario.seed, replication: replication, stream: .network)
        errorRandom = RandomStream(scenario: scenario.seed, replication: replication, stream: .errors)
        tokenExpiry = RawBuffer(capacity: scenario.clients.credentialLifetime != nil ? scenario.clients.count : 1)
        if let lifetime = scenario.clients.credentialLifetime {
            // Credentials were issued at different moments before t = 0: each expires uniformly within one lifetime.
            for c in 0..<scenario.clients.count {
                let u = Double(SeedDerivation.mix(scenario.seed ^ 0x5EED_7043 ^ UInt64(c)) >> 11) * 0x1.0p-53
                tokenExpiry.append(Int64(u * Double(lifetime)))
            }
        }
        if let r = rateLimit {
            rateTokens = r.burst
        }
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

    static func threshold(_ fraction: Double) -> UInt64 {
        fraction >= 1 ? .max : UInt64(max(0, fraction) * 0x1.0p64)
    }

    /// Whether `client` is among the share picked by `threshold` (salted per purpose).
    @inline(__always) func picked(_ client: UInt32, _ threshold: UInt64, salt: UInt64) -> Bool {
        threshold != 0 && SeedDerivation.mix(seed ^ salt ^ UInt64(client)) < threshold
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
            if checkInvariants && e.time < now { fail("time went backwards: \(e.time) ns after \(now) ns") }
            now = e.time
            if recorder.bucketEnds(by: now) { closeBuckets(through: now) }
            recorder.advance(to: now)
            processed &+= 1
            // Every 65,536 events: cheap enough to be invisible, often enough for a display.
            if processed & 0xFFFF == 0 && pause() { break }
            prefetchUpcoming(after: source)
            if source == .other {
                server.handleNext(now: now, agenda: &agenda, recorder: &recorder, sink: &sink)
                drainSink(policy, count)
            } else {
                agenda.removeEarliestUnchecked(from: source)
                switch e.kind {
                case .arrival: arrive(e, policy, count)
                case .send: send(e, policy, count)
                case .timeout: timedOut(e.slot, e.generation, policy, count)
                case .connectTimeout: connectFailed(e, policy, count)
                case .deliverRequest: deliver(e)
                case .deliverResponse: answered(e.slot, e.generation, ResponseCode(packed: e.aux), policy, count)
                case .workload: workloadEvent(e, policy, count)
                case .serviceDone: break
                }
                drainSink(policy, count)
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
        progress?.post(now)
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

    /// The first arrivals, closed-loop starts, the end of the offline window, the restart wave.
    mutating func scheduleWorkload() {
        if !hasPopulations || populations[0].clients > 0, let t = workload.first(random: arrivalRandom, horizon: horizon) {
            agenda.schedule(time: t, kind: .arrival, slot: 0, generation: 0)
        }
        if case .closed(_, let start, let spread, let until) = arrival {
            for c in 0..<(hasPopulations ? populations[0].clients : clients) {
                let t = start &+ Int64(arrivalRandom.uniform() * Double(spread))
                if t < horizon && t < until { agenda.schedule(time: t, kind: .workload, slot: UInt32(c), generation: 0, aux: WorkloadEvent.next.rawValue) }
            }
        }
        if hasPopulations { scheduleOtherPopulations() }
        if let o = offline, o.nudge {
            agenda.schedule(time: Time.adding(o.at, o.duration), kind: .workload, slot: 0, generation: 0, aux: WorkloadEvent.reconnect.rawValue)
        }
        if let r = restart {
            agenda.schedule(time: r.at, kind: .workload, slot: 0, generation: 0, aux: WorkloadEvent.restart.rawValue)
        }
    }

    enum WorkloadEvent: UInt8 { case next = 1, reconnect = 2, restart = 3 }

    // MARK: - Operations

    @inline(__always) mutating func arrive<C: PolicyCount>(_ e: Event, _ policy: borrowing Policy, _ count: C.Type) {
        if e.slot != 0 {
            arrive(population: Int(e.slot), policy, count)
            return
        }
        let client = workload.take(random: arrivalRandom)
        if let t = workload.next(after: now, random: arrivalRandom, horizon: horizon) {
            agenda.schedule(time: t, kind: .arrival, slot: 0, generation: 0)
        }
        startOperation(client: UInt32(truncatingIfNeeded: client), policy, count)
    }

    @inline(__always) mutating func startOperation<C: PolicyCount>(client: UInt32, population: UInt8 = 0, _ policy: borrowing Policy, _ count: C.Type) {
        let host = hosts > 1 ? UInt16(arrivalRandom.uniformInt(below: hosts)) : 0
        let background = hasPopulations ? populations[Int(population)].backgroundFraction : backgroundFraction
        let lane: Lane = background > 0 && arrivalRandom.uniform() < background ? .background : .userInitiated
        let slot = ops.allocate(client: client, population: population, host: host, lane: lane, now: now)
        recorder.count(.operations)
        if hasPopulations { countPopulation(.operations, slot) }
        tryAttempt(slot, policy, count)
    }

    mutating func workloadEvent<C: PolicyCount>(_ e: Event, _ policy: borrowing Policy, _ count: C.Type) {
        switch WorkloadEvent(rawValue: e.aux) {
        case .next: startOperation(client: e.slot, population: UInt8(truncatingIfNeeded: e.generation), policy, count)
        case .reconnect: reconnect()
        case .restart: restartWave(policy, count)
        case nil:
            // Only scheduleWorkload and ended() make workload events, each with a WorkloadEvent.
            preconditionFailure("corrupt workload event (aux \(e.aux))")
        }
    }

    /// An operation ended: a closed-loop client thinks, then starts its next one.
    @inline(__always) mutating func ended(_ slot: UInt32) {
        lastEnd = now
        let client = ops.header(slot).pointee.client
        let population = ops.body(slot).pointee.population
        ops.release(slot)
        if case .closed(let think, _, _, let until) = population == 0 ? arrival : otherWorkloads[Int(population) &- 1].arrival {
            let t = Time.adding(now, Time.nanoseconds(seconds: arrivalRandom.exponential(mean: Double(think) / 1e9)))
            if t < horizon && t < until {
                agenda.schedule(time: t, kind: .workload, slot: client, generation: UInt32(population), aux: WorkloadEvent.next.rawValue)
            }
        }
    }

    // MARK: - Attempts

    @inline(__always) mutating func send<C: PolicyCount>(_ e: Event, _ policy: borrowing Policy, _ count: C.Type) {
        let h = ops.header(e.slot)
        guard h.pointee.generation == e.generation, !h.pointee.awaiting else { return }
        let b = ops.body(e.slot)
        if b.pointee.flags.contains(.woken) {
            b.pointee.flags.remove(.woken)
            pendingWakes[guardIndex(h.pointee.client, b.pointee.host)] -= 1
        }
        if b.pointee.flags.contains(.reconciling) {
            sendQuery(e.slot, policy, count)
        } else {
            tryAttempt(e.slot, policy, count)
        }
    }

    /// Starts the next attempt of `slot` now, unless the policy makes it wait or refuses it.
    @inline(__always) mutating func tryAttempt<C: PolicyCount>(_ slot: UInt32, _ policy: borrowing Policy, _ count: C.Type) {
        let h = ops.header(slot)
        let op = ops.body(slot)
        let g = guardIndex(h.pointee.client, op.pointee.host)
        var random = policyRandom.view
        switch lend(op.pointee.population, policy, count, { $0.admit(record: &op.pointee.record, host: &guards.base[g], now: now, random: &random) }) {
        case .proceed:
            break
        case .wait(let until):
            recorder.count(.heldBack)
            if until < horizon { agenda.schedule(time: until, kind: .send, slot: slot, generation: h.pointee.generation) }
            return
        case .waitForSlot:
            recorder.count(.heldBack)
            park(slot, g, op.pointee.record.lane)
            return
        case .reject(let reason):
            recorder.count(.heldBack)
            finish(slot, reason: reason)
            return
        }
        let isRetry = op.pointee.record.attemptCount > 0
        lend(op.pointee.population, policy, count, { $0.attemptStarted(record: &op.pointee.record, host: &guards.base[g], now: now) })
        recorder.count(isRetry ? .retries : .firstAttempts)
        if hasPopulations { countPopulation(.attempts, slot) }
        h.pointee.generation &+= 1
        h.pointee.awaiting = true
        awaitingAttempts &+= 1
        let generation = h.pointee.generation
        if let o = offline, now >= o.at, now &- o.at < o.duration, picked(h.pointee.client, offlineThreshold, salt: 0x0FF1_1E) {
            // No network: the attempt never reaches the server.
            let connectTimeout = hasPopulations ? populations[Int(op.pointee.population)].connectTimeout : connectTimeout
            if connectTimeout > 0 {
                agenda.schedule(time: Time.adding(now, connectTimeout), kind: .connectTimeout, slot: slot, generation: generation)
            } else {
                h.pointee.awaiting = false
                awaitingAttempts &-= 1
                recorder.count(.offline)
                failed(slot, .transport(.offline), policy, count)
            }
            return
        }
        transmit(slot, generation, query: false, policy, count)
    }

    /// Sends a status query for `slot` (reconciling an ambiguous failure).
    @inline(__always) mutating func sendQuery<C: PolicyCount>(_ slot: UInt32, _ policy: borrowing Policy, _ count: C.Type) {
        let h = ops.header(slot)
        recorder.count(.queries)
        h.pointee.generation &+= 1
        h.pointee.awaiting = true
        awaitingQueries &+= 1
        transmit(slot, h.pointee.generation, query: true, policy, count)
    }

    /// Puts a request on the wire: its timeout, then the server (after the network hop, if any).
    @inline(__always) mutating func transmit<C: PolicyCount>(_ slot: UInt32, _ generation: UInt32, query: Bool, _ policy: borrowing Policy, _ count: C.Type) {
        let deadline = Time.adding(now, hasPopulations ? populations[Int(ops.body(slot).pointee.population)].timeout : timeout)
        ops.body(slot).pointee.deadline = deadline
        if settleAhead {
            // Status queries exist only where writes are tracked, which rules settling ahead out.
            assert(!query, "a status query with attempts settled ahead")
            settle(slot, generation, deadline: deadline, policy, count)
            return
        }
        if deadline < horizon {
            if uniformTimeout {
                agenda.scheduleInOrder(time: deadline, kind: .timeout, slot: slot, generation: generation)
            } else {
                agenda.schedule(time: deadline, kind: .timeout, slot: slot, generation: generation)
            }
        }
        if trackApplied { ops.body(slot).pointee.outstanding &+= 1 }
        if let network {
            agenda.schedule(time: Time.adding(now, network.sample(networkRandom)), kind: .deliverRequest,
                            slot: slot, generation: generation, aux: query ? 1 : 0)
        } else {
            _ = receive(Request(slot: slot, generation: generation, deadline: deadline, query: query))
        }
    }

    /// Sends an attempt whose outcome the server settles on arrival, and handles that outcome now
    /// as of the moment it happens: the answer at the time it arrives, or the timeout at the
    /// deadline. Nothing else can touch the operation in between (see ``settleAhead``), so this
    /// runs the same handlers the queued events would, with the clock and the counters moved to
    /// that moment, and saves two events (the answer or timeout, and the server's own) per attempt.
    @inline(__always) mutating func settle<C: PolicyCount>(_ slot: UInt32, _ generation: UInt32, deadline: Int64, _ policy: borrowing Policy, _ count: C.Type) {
        let notes = sink.notes.count
        let answerAt = receive(Request(slot: slot, generation: generation, deadline: deadline, query: false))
        // Refused at the door (a full queue, the rate limiter): the answer is already in the sink.
        if sink.notes.count > notes { return }
        let at = answerAt < deadline ? answerAt : deadline
        guard at < horizon else { return }
        let realNow = now
        let clock = recorder.moveTemporarily(to: at)
        now = at
        settledAhead &+= 1
        if answerAt < deadline {
            answered(slot, generation, .ok, policy, count)
        } else {
            timedOut(slot, generation, policy, count)
        }
        now = realNow
        recorder.restore(clock)
    }

    /// A request reaches the server after its hop.
    @inline(__always) mutating func deliver(_ e: Event) {
        // A request whose client already gave up on it carries a deadline in the past.
        let current = ops.header(e.slot).pointee.generation == e.generation
        let deadline = current ? ops.body(e.slot).pointee.deadline : now
        _ = receive(Request(slot: e.slot, generation: e.generation, deadline: deadline, query: e.aux & 1 != 0))
    }

    /// The server's front door: credentials and the rate limiter answer at once; the rest goes to
    /// the model. Returns when the model's answer reaches the client if the model settled it ahead
    /// (see ``ServerModel/receive(_:now:agenda:recorder:sink:)``), else `Int64.max`.
    @inline(__always) mutating func receive(_ r: Request) -> Int64 {
        if hasPopulations { countPopulation(.offered, r.slot) }
        if let lifetime = credentialLifetime {
            let client = Int(ops.header(r.slot).pointee.client)
            if now >= tokenExpiry[client] && lifetime > 0 {
                recorder.offered()
                sink.respond(r, .unauthorized)
                return .max
            }
        }
        if let rate = rateLimit {
            rateTokens = min(rate.burst, rateTokens + Double(now &- rateUpdated) / 1e9 * rate.rate)
            rateUpdated = now
            if rateTokens < 1 {
                recorder.offered()
                sink.respond(r, .rateLimited)
                return .max
            }
            rateTokens -= 1
        }
        return server.receive(r, now: now, agenda: &agenda, recorder: &recorder, sink: &sink)
    }

    /// Acts on what the server reported: the error mix, applied writes, answers on their way back.
    @inline(__always) mutating func drainSink<C: PolicyCount>(_ policy: borrowing Policy, _ count: C.Type) {
        guard sink.notes.count > 0 else { return }
        var i = 0
        while i < sink.notes.count {
            var n = sink.notes[i]
            i += 1
            if trackApplied { ops.requestDone(n.slot) }
            if n.kind == .response && n.code == .ok && !n.query && errors.any {
                let u = errorRandom.uniform()
                if u < errors.permanent { n.code = .badRequest }
                else if u < errors.permanent + errors.serverError { n.code = .serverError }
                else if u < errors.permanent + errors.serverError + errors.ambiguous { n.kind = .lost }
            }
            if trackApplied && !n.query && n.code == .ok && n.kind != .dropped { applied(n.slot, n.generation) }
            guard n.kind == .response else { continue }
            if let network {
                agenda.schedule(time: Time.adding(now, network.sample(networkRandom)), kind: .deliverResponse,
                                slot: n.slot, generation: n.generation, aux: n.code.rawValue)
            } else {
                answered(n.slot, n.generation, n.code, policy, count)
            }
        }
        sink.notes.removeAll()
    }

    /// The server applied a write of `slot`'s operation.
    @inline(__always) mutating func applied(_ slot: UInt32, _ generation: UInt32) {
        let b = ops.body(slot)
        // The slot cannot have been reused while this request was outstanding.
        guard generation &- b.pointee.firstGeneration < 0x8000_0000 else { return }
        if b.pointee.applied < .max { b.pointee.applied += 1 }
        if countDuplicates && b.pointee.applied > 1 { recorder.count(.duplicates) }
    }

    /// An answer reaches its client: handled if the client still waits, else the work was wasted.
    @inline(__always) mutating func answered<C: PolicyCount>(_ slot: UInt32, _ generation: UInt32, _ code: ResponseCode, _ policy: borrowing Policy, _ count: C.Type) {
        let h = ops.header(slot)
        guard h.pointee.generation == generation, h.pointee.awaiting else {
            if !code.unprocessed { recorder.count(.wasted) }
            return
        }
        h.pointee.awaiting = false
        let op = ops.body(slot)
        if op.pointee.flags.contains(.reconciling) {
            awaitingQueries &-= 1
            reconciled(slot, code == .ok ? (op.pointee.applied > 0 ? .applied : .notApplied) : .unknown, policy, count)
            return
        }
        awaitingAttempts &-= 1
        if code == .ok {
            recorder.count(.succeeded)
            let g = guardIndex(h.pointee.client, op.pointee.host)
            var random = policyRandom.view
            lend(op.pointee.population, policy, count, { $0.succeeded(record: &op.pointee.record, host: &guards.base[g], now: now, random: &random) })
            recorder.success(createdAt: op.pointee.createdAt, now: now)
            if hasPopulations { populationSucceeded(slot) }
            wake(g, policy, count)
            ended(slot)
            return
        }
        recorder.count(code == .shed || code == .rateLimited ? .rejected : .failed)
        let retryAfter: Int64? = code == .shed ? shedRetryAfter : code == .rateLimited ? rateLimit?.retryAfter : nil
        failed(slot, .http(code.status, retryAfter: retryAfter, unprocessed: code.unprocessed), policy, count)
    }

    @inline(__always) mutating func timedOut<C: PolicyCount>(_ slot: UInt32, _ generation: UInt32, _ policy: borrowing Policy, _ count: C.Type) {
        let h = ops.header(slot)
        guard h.pointee.generation == generation, h.pointee.awaiting else { return }
        h.pointee.awaiting = false
        if ops.body(slot).pointee.flags.contains(.reconciling) {
            awaitingQueries &-= 1
            reconciled(slot, .unknown, policy, count)
            return
        }
        awaitingAttempts &-= 1
        recorder.count(.timedOut)
        failed(slot, .timedOut(.response), policy, count)
    }

    mutating func connectFailed<C: PolicyCount>(_ e: Event, _ policy: borrowing Policy, _ count: C.Type) {
        let h = ops.header(e.slot)
        guard h.pointee.generation == e.generation, h.pointee.awaiting else { return }
        h.pointee.awaiting = false
        awaitingAttempts &-= 1
        recorder.count(.offline)
        failed(e.slot, .timedOut(.connect), policy, count)
    }

    /// Asks the policy what follows a failed attempt and does it.
    @inline(__always) mutating func failed<C: PolicyCount>(_ slot: UInt32, _ error: NormalizedError, _ policy: borrowing Policy, _ count: C.Type) {
        let h = ops.header(slot)
        let op = ops.body(slot)
        let g = guardIndex(h.pointee.client, op.pointee.host)
        var random = policyRandom.view
        let decision = lend(op.pointee.population, policy, count, { $0.decide(after: error, record: &op.pointee.record, host: &guards.base[g], now: now, random: &random) })
        follow(decision, slot, g, policy, count)
        wake(g, policy, count)
    }

    /// The answer to a status query: the policy settles the ambiguous failure.
    mutating func reconciled<C: PolicyCount>(_ slot: UInt32, _ result: ReconcileResult, _ policy: borrowing Policy, _ count: C.Type) {
        let h = ops.header(slot)
        let op = ops.body(slot)
        op.pointee.flags.remove(.reconciling)
        let g = guardIndex(h.pointee.client, op.pointee.host)
        var random = policyRandom.view
        let decision = lend(op.pointee.population, policy, count, { $0.reconciled(result, record: &op.pointee.record, host: &guards.base[g], now: now, random: &random) })
        follow(decision, slot, g, policy, count)
    }

    /// Does what the policy decided after a failure.
    @inline(__always) mutating func follow<C: PolicyCount>(_ decision: RetryDecision, _ slot: UInt32, _ g: Int, _ policy: borrowing Policy, _ count: C.Type) {
        let h = ops.header(slot)
        switch decision {
        case .retry(let at):
            if at < horizon { agenda.schedule(time: at, kind: .send, slot: slot, generation: h.pointee.generation) }
        case .refreshCredentials(let at):
            if let lifetime = credentialLifetime {
                // The refresh completes before the retry: the new credentials are good for a lifetime from then.
                tokenExpiry[Int(h.pointee.client)] = Time.adding(at, lifetime)
            }
            if at < horizon { agenda.schedule(time: at, kind: .send, slot: slot, generation: h.pointee.generation) }
        case .reconcile(let at):
            ops.body(slot).pointee.flags.insert(.reconciling)
            if at < horizon { agenda.schedule(time: at, kind: .send, slot: slot, generation: h.pointee.generation) }
        case .confirmed:
            recorder.count(.confirmed)
            recorder.success(createdAt: ops.body(slot).pointee.createdAt, now: now)
            if hasPopulations { populationSucceeded(slot) }
            ended(slot)
        case .stop(let reason):
            if reason == .budgetExhausted { recorder.count(.budgetDenied) }
            finish(slot, reason: reason)
        }
    }

    @inline(__always) mutating func finish(_ slot: UInt32, reason: StopReason) {
        recorder.count(reason.isGiveUp ? .gaveUp : .blocked)
        if reason.isGiveUp { recorder.count(.gaveUpByStart, at: ops.body(slot).pointee.createdAt) }
        if hasPopulations && reason.isGiveUp { populationGaveUp(slot) }
        ended(slot)
    }

    @inline(__always) func guardIndex(_ client: UInt32, _ host: UInt16) -> Int {
        perClientGuards ? Int(client) &* hosts &+ Int(host) : 0
    }

    // MARK: - Concurrency slots

    /// Queues `slot` for a concurrency slot of guard `g` in `lane`.
    mutating func park(_ slot: UInt32, _ g: Int, _ lane: Lane) {
        let b = ops.body(slot)
        b.pointee.flags.insert(.waitingForSlot)
        // Still linked from an earlier wait (then superseded): it keeps that place in the queue.
        guard !b.pointee.flags.contains(.inSlotQueue) else { return }
        b.pointee.flags.insert(.inSlotQueue)
        ops.setNextWaiting(slot, .max)
        let q = 2 * g + Int(lane.rawValue)
        if waitTail[q] == .max {
            waitHead[q] = slot
        } else {
            ops.setNextWaiting(waitTail[q], slot)
        }
        waitTail[q] = slot
    }

    /// An attempt of guard `g` ended: wake as many waiters as there are free slots, user-initiated first.
    @inline(__always) mutating func wake<C: PolicyCount>(_ g: Int, _ policy: borrowing Policy, _ count: C.Type) {
        guard var limit else { return }
        if hasPopulations {
            guard let own = lend(population(of: UInt32(g / hosts)), policy, count, { $0.concurrency }) else { return }
            limit = own
        }
        // The policy library's rule, as RetryHost applies it in an app: the same operations wake in the same order.
        pendingWakes[g] += limit.wakeWaiters(inFlight: guards.base[g].inFlight, pending: pendingWakes[g]) { lane in
            let q = 2 * g + Int(lane.rawValue)
            let slot = waitHead[q]
            guard slot != .max else { return nil }
            waitHead[q] = ops.nextWaiting(slot)
            if waitHead[q] == .max { waitTail[q] = .max }
            let b = ops.body(slot)
            b.pointee.flags.remove(.inSlotQueue)
            // A restart or a nudge may have moved it on already.
            guard b.pointee.flags.contains(.waitingForSlot), b.pointee.flags.contains(.live) else { return false }
            b.pointee.flags.remove(.waitingForSlot)
            b.pointee.flags.insert(.woken)
            agenda.schedule(time: now, kind: .send, slot: slot, generation: ops.header(slot).pointee.generation)
            return true
        }
    }

    // MARK: - Fleet events

    /// The offline window ends: every waiting operation of the clients that were offline tries at once.
    mutating func reconnect() {
        for s in 0..<UInt32(ops.slotCount) {
            let b = ops.body(s)
            let h = ops.header(s)
            guard b.pointee.flags.contains(.live), !h.pointee.awaiting,
                  picked(h.pointee.client, offlineThreshold, salt: 0x0FF1_1E) else { continue }
            switch b.pointee.record.phase {
            case .willRetry, .coolingOff, .unknown:
                h.pointee.generation &+= 1
                b.pointee.record.nextAttemptAt = now
                agenda.schedule(time: now, kind: .send, slot: s, generation: h.pointee.generation)
            default:
                break
            }
        }
    }

    /// A share of the fleet restarts the app: attempts in flight are abandoned and each operation
    /// goes on from its persisted record (kept or reset by the policy).
    mutating func restartWave<C: PolicyCount>(_ policy: borrowing Policy, _ count: C.Type) {
        for s in 0..<UInt32(ops.slotCount) {
            let b = ops.body(s)
            let h = ops.header(s)
            guard b.pointee.flags.contains(.live), picked(h.pointee.client, restartThreshold, salt: 0x7E57_A27) else { continue }
            if h.pointee.awaiting {
                h.pointee.awaiting = false
                if b.pointee.flags.contains(.reconciling) { awaitingQueries &-= 1 } else {
                    awaitingAttempts &-= 1
                    recorder.count(.abandoned)
                }
            }
            if b.pointee.flags.contains(.woken) {
                pendingWakes[guardIndex(h.pointee.client, b.pointee.host)] -= 1
            }
            b.pointee.flags.subtract([.waitingForSlot, .woken, .reconciling])
            h.pointee.generation &+= 1
            if let at = lend(b.pointee.population, policy, count, { $0.restart(record: &b.pointee.record, now: now) }), at < horizon {
                agenda.schedule(time: max(at, now), kind: .send, slot: s, generation: h.pointee.generation)
            }
        }
        guard perClientGuards else { return }
        for c in 0..<UInt32(clients) where picked(c, restartThreshold, salt: 0x7E57_A27) {
            for host in 0..<hosts { lend(population(of: c), policy, count, { $0.restart(host: &guards.base[Int(c) &* hosts &+ host]) }) }
        }
    }

    // MARK: - Invariants

    mutating func fail(_ message: String) {
        if violation == nil { violation = "at t=\(Double(now) / 1e9) s: \(message)" }
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
        if server.queueLength(before: now) < 0 || server.inService < 0 { fail("negative queue length or service count") }
        if awaitingAttempts < 0 || awaitingQueries < 0 { fail("negative count of attempts in flight") }
    }
}
