import GSLSupport
import RetryPolicy

/// A call graph (`services:`) as one server model: to the clients it is the first service; behind
/// it, every service is a queue of its own (or a flaky leaf), and every request, once its own work
/// is done, makes its service's calls downstream as operations of the calling service's retry
/// policy on that edge. The one-hop ``Simulation`` runs it like any model, so every client-side
/// feature and output works for user operations unchanged, and a scenario without a graph never
/// compiles a line of it (see docs/architecture.md, "The call graph").
///
/// Services are ``FrontDoor``s over event-driven ``QueueServer``s, kept in one allocation (no
/// existentials, no reference counting), and the flaky leaves ``FrontDoor``s over ``FlakyServer``s
/// in another; each holds its own pending events, and the graph keeps the calls' own (their retries
/// and timeouts) in one heap. ``peekEvent()`` is the earliest of all. Requests and calls live in
/// ``SlotTable``s, freed when they end, so memory follows the requests in flight times the graph's
/// fan-out.
///
/// The first service counts into the simulation's recorder (so `offered` and `served` in the time
/// series are the first service's, as "the server" is for one hop); every other service has a
/// recorder of its own, which counts the requests it receives and serves and, as the callers see
/// them, the calls to it and their attempts' outcomes.
struct GraphServer: ServerModel, ~Copyable {
    let serviceCount: Int
    /// The graph numbers its services queues first, in the scenario's order (the first service,
    /// the clients', is always a queue), then the flaky services (leaves: they make no calls):
    /// service `k` runs `services[k]` if `k < queueCount`, else `flaky[k - queueCount]`. One
    /// comparison with a constant tells them apart, so a graph of queues alone runs what it ran
    /// before flaky leaves existed (``scenarioIndex`` maps back, for the results). Requests,
    /// edges, plans and recorders use the graph's numbers.
    let queueCount: Int
    var services: FixedTable<FrontDoor<QueueServer>>
    /// The flaky leaves (see ``queueCount``), `serviceCount − queueCount` of them. Their work is
    /// out of line (``earliestFlaky()``, ``deliverFlaky(_:to:_:_:)``, ``handleFlaky(_:_:_:)``),
    /// so a graph of queues pays a comparison for them and keeps ``findNext()``'s candidate in
    /// registers (docs/performance.md, "A call graph").
    var flaky: FixedTable<FrontDoor<FlakyServer>>
    var flakyCount: Int { flaky.count }
    /// Each service's index among the scenario's services, by the graph's number.
    let scenarioIndex: [Int]
    let plans: FixedTable<ServicePlan>
    /// The `calls[]` entries of every service, each service's consecutive from its plan's
    /// `firstEdge`; the policies, guards and latency windows by the same index.
    var edges: FixedTable<GraphEdge>
    var edgeCount: Int { edges.count }
    /// Each edge's calls by what became of them, for its conservation law (apart from
    /// ``edges``, whose entries the calls copy and read on every answer). Counted only when
    /// ``checksLaws``.
    var edgeCalls: FixedTable<EdgeCalls>
    /// Each edge's traffic after the warmup, for edges.csv (counted in every run).
    var edgeCounts: FixedTable<EdgeCounts>
    /// Each edge's calls' latencies, from a call's start to its end (whatever the end), for the
    /// calls started after the warmup.
    var edgeLatencies: FixedTable<LatencyHistogram>
    /// Each service's requests' latencies, from arrival to answer (or drop, or loss), for the
    /// requests that arrived after the warmup, by the graph's number.
    var latencies: FixedTable<LatencyHistogram>
    /// Each request's deadline, nanoseconds, by request slot (`Int64.max`: never, or not told): a
    /// client attempt's at the first service, a call attempt's where its edge propagates it. Kept
    /// only when some edge propagates deadlines (``propagatesDeadlines``), the only reader
    /// (``startCall(_:_:_:_:)``); apart from ``requests``, whose 32 bytes it would not fit.
    var deadlines = RawBuffer<Int64>(capacity: 0)
    /// The start of the first bucket after the warmup (as ``Recorder/warmupEnd``): edges.csv and
    /// the latencies count from it, as services.csv counts its buckets.
    let warmupEnd: Int64
    /// The run checks the conservation laws (``EngineOptions/checkInvariants``): only then are
    /// ``edgeCalls`` and ``callsOut`` counted, which cost bench-chain 0.8% more instructions per
    /// event otherwise (`scripts/profile.sh`).
    let checksLaws: Bool
    /// Some edge's policy reconciles ambiguous writes or retries them without an idempotency
    /// key: only then does a service note the writes it applied (``callApplied(_:_:at:)``), as
    /// the clients track them only then (``RunFeatures/trackApplied``).
    let tracksApplied: Bool
    let policies: FixedTable<RetryPolicy>
    /// Each edge's host state (budget, breaker, throttle, concurrency): the calling service's.
    var guards: FixedTable<HostGuard>
    /// The recorders of services 1, 2, … (service 0 counts into the simulation's).
    var recorders: FixedTable<Recorder>
    /// The calls' attempts and status queries out at each service, by the graph's number (the
    /// first service's entry stays 0: the clients' are the simulation's): the "in flight" of the
    /// service's conservation law (``invariantViolation(atEnd:)``). Counted only when ``checksLaws``.
    var callsOut: FixedTable<InFlight>
    var requests: SlotTable<GraphRequest>
    var calls: SlotTable<GraphCall>
    /// The calls' sends and timeouts (a timing wheel, as the clients' are: a collapse keeps
    /// millions of timeouts pending, and a heap's log n per event showed in profiles).
    var events: TimingWheel
    /// The earliest pending event of the graph (its own or a service's), and where it is (−1: the
    /// graph's own; k: service k). Found once after each call into the graph, which is the only
    /// place they change, so that ``peekEvent()`` — asked before every event of the run — is a read.
    var next: Event?
    var nextSource = -1
    /// Some edge propagates its request's deadline: only then may a call have one.
    let propagatesDeadlines: Bool
    /// Some edge hedges: without one, the calls' answers never look up their edge's flag.
    let hedging: Bool
    /// The copies out of each hedged call, by call slot (empty unless an edge hedges).
    var hedges = RawBuffer<HedgeCopies>(capacity: 0)
    /// Each edge's copies wanted, sent, refused and not needed (empty unless an edge hedges).
    var edgeCopies = RawBuffer<EdgeCopies>(capacity: 0)
    /// Each edge's latencies of successful copies, for a percentile hedging delay (nil elsewhere).
    var windows: FixedTable<LatencyWindow?>
    /// The first law of the shared life cycle found broken (``lawBroken(_:)``), reported by
    /// ``invariantViolation(atEnd:)``.
    var brokenLaw: String?
    /// Some edge propagates cancellation (``GraphEdge/cancels``): only then are the three tables
    /// below kept, which let a cancelled request find its open calls and a call the request it
    /// has in flight.
    let cancelling: Bool
    /// Each request's first open call, by request slot (`UInt32.max`: none), and each call's
    /// neighbours in its request's list, by call slot: a request's calls are linked when they
    /// start and unlinked when they end. Empty unless ``cancelling``.
    var firstCall = RawBuffer<UInt32>(capacity: 0)
    var callLinks = RawBuffer<CallLinks>(capacity: 0)
    /// Each call's send in flight, by call slot: its request's slot in the high half, its
    /// generation in the low (a hedged call's copies are in ``hedges``). Empty unless ``cancelling``.
    var sentRequests = RawBuffer<UInt64>(capacity: 0)
    /// The clients hedge (``expectCancellations()``): their requests at the first service are kept
    /// by operation slot, so that a cancellation finds them.
    var clientsHedge = false
    /// The first service's request of each of a client operation's copies, at `operation slot ×
    /// Hedging.maxCopies + its generation mod Hedging.maxCopies` (``Hedging/maxCopies`` copies at
    /// most, of consecutive generations): the request's slot in the high half, its generation in
    /// the low. Empty unless the clients hedge.
    var clientCopies = RawBuffer<UInt64>(capacity: 0)
    /// What the services reported, handled before the graph returns to the loop.
    var inner = ServerSink()
    /// The loop's agenda and recorder, for the length of each call into the graph.
    var loop = LoopReach()
    /// Requests whose calls are over, to answer before the graph returns to the loop.
    var answers = RawBuffer<Answer>(capacity: 16)
    /// The edge policies' random draws (jitter, throttling).
    let random: RandomStream
    let horizon: Int64
    /// ``EngineOptions/graphMemory``, bytes.
    let memoryLimit: Int

    /// - Parameter keepTotals: the services' recorders keep running totals, and the graph counts
    ///   its calls by edge and its sends in flight (``checksLaws``), for the conservation laws
    ///   checked after every event (``EngineOptions/checkInvariants``).
    init(_ scenario: Scenario, replication: Int, memoryLimit: Int = .max, keepTotals: Bool = false) {
        precondition(MemoryLayout<GraphRequest>.stride == 32, "a graph request must be 32 bytes (see GraphRequest)")
        precondition(MemoryLayout<GraphCall>.stride == 128, "a graph call must be 128 bytes (see GraphCall)")
        self.memoryLimit = memoryLimit
        checksLaws = keepTotals
        let list = scenario.services
        serviceCount = list.count
        horizon = scenario.horizon
        let queues = list.indices.filter { Self.runsQueue(list[$0]) }
        let order = queues + list.indices.filter { !Self.runsQueue(list[$0]) }
        precondition(order.first == 0, "the first service of a call graph runs the queue model (the loader refuses others)")
        let graphIndex = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        scenarioIndex = order
        queueCount = queues.count
        // A service reached by a call that propagates its deadline drops what expired before its
        // work starts, as a gRPC server does with the deadline it is given.
        var readsDeadlines = Set<Int>()
        for s in list { for c in s.calls where c.propagateDeadline { readsDeadlines.insert(c.to) } }
        /// Service `k`'s model behind its door: its own server, credentials and rate limit off
        /// (the clients' door is the first service's rate limiter; its error mix applies here).
        func door<Model: ServerModel & ~Copyable>(_ k: Int, _ model: (Scenario.Service, consuming RandomStream) -> Model) -> FrontDoor<Model> {
            let service = list[k]
            let streams = Self.streams(of: k)
            let random = RandomStream(seed: SeedDerivation.seed(scenario: scenario.seed, replication: replication, stream: streams.service))
            var own = scenario
            own.services = []
            own.server = service.server
            own.clients.credentialLifetime = nil
            if k == 0 { own.server.rateLimit = nil }
            return FrontDoor(model(service, random), scenario: own, replication: replication, errorStream: streams.errors)
        }
        services = FixedTable(count: queues.count) { g in
            door(order[g]) { service, random in
                guard case .queue(var q) = service.server.model else { preconditionFailure("service \(service.name) is not a queue") }
                if readsDeadlines.contains(order[g]) { q.dropExpired = true }
                let holds = !service.calls.isEmpty && !service.releaseWhileCalling
                return QueueServer(q, capacity: service.server.capacity, profile: service.server.profile, holdsWorkers: holds, random: random)
            }
        }
        flaky = FixedTable(count: list.count - queues.count) { j in
            door(order[queues.count + j]) { service, random in
                // It answers every request itself: it has no workers to hold while calling.
                precondition(service.calls.isEmpty, "flaky service \(service.name) makes calls (the loader refuses it)")
                guard case .flaky(let f) = service.server.model else {
                    preconditionFailure("service \(service.name) of a call graph runs the contention model (the loader refuses it)")
                }
                return FlakyServer(f, random: random)
            }
        }
        var firstEdges: [Int] = []
        var calls: [Scenario.Call] = []
        var stages: [Range<Int>] = []
        for k in order {
            firstEdges.append(calls.count)
            calls += list[k].calls
            stages += Self.stages(list[k].calls)
        }
        plans = FixedTable(count: list.count) { g in
            let service = list[order[g]]
            return ServicePlan(
                firstEdge: UInt16(firstEdges[g]), edges: UInt8(service.calls.count),
                holdsWorkers: !service.calls.isEmpty && !service.releaseWhileCalling)
        }
        recorders = FixedTable(count: list.count - 1) { _ in
            var r = Recorder(horizon: scenario.horizon, bucket: scenario.bucket, expectedSuccesses: 1024, keepTotals: keepTotals)
            // As the simulation's own: refusals count from the first bucket that starts after the warmup.
            let warm = scenario.firstBucketAfterWarmup(of: r.buckets)
            r.warmupEnd = Int64(warm) * scenario.bucket
            return r
        }
        callsOut = FixedTable(count: list.count) { _ in InFlight() }
        edges = FixedTable(count: calls.count) { e in
            let c = calls[e]
            return GraphEdge(
                to: UInt8(graphIndex[c.to]!), count: UInt32(c.count), parallel: c.parallel || stages[e].count > 1,
                stageEnd: UInt8(stages[e].upperBound), timeout: c.timeout ?? .max,
                failure: ResponseCode(failureStatus: c.failureStatus), propagate: c.propagateDeadline, cancels: c.propagateCancellation,
                hedged: c.policy.hedging != nil, countsDuplicates: c.policy.ambiguity.idempotency == .none)
        }
        edgeCalls = FixedTable(count: calls.count) { _ in EdgeCalls() }
        edgeCounts = FixedTable(count: calls.count) { _ in EdgeCounts() }
        edgeLatencies = FixedTable(count: calls.count) { _ in LatencyHistogram(maxValue: scenario.horizon) }
        latencies = FixedTable(count: list.count) { _ in LatencyHistogram(maxValue: scenario.horizon) }
        warmupEnd = Int64(scenario.firstBucketAfterWarmup(of: Int((scenario.horizon + scenario.bucket - 1) / scenario.bucket))) * scenario.bucket
        tracksApplied = calls.contains { $0.policy.ambiguity.reconcile || $0.policy.ambiguity.idempotency == .none }
        policies = FixedTable(count: calls.count) { calls[$0].policy }
        windows = FixedTable(count: calls.count) { calls[$0].policy.hedging?.latencyWindow() }
        guards = FixedTable(count: calls.count) { calls[$0].policy.makeHostGuard() }
        hedging = calls.contains { $0.policy.hedging != nil }
        cancelling = calls.contains { $0.propagateCancellation }
        propagatesDeadlines = calls.contains { $0.propagateDeadline }
        if hedging { for _ in 0..<calls.count { edgeCopies.append(EdgeCopies()) } }
        requests = SlotTable(capacity: 1024)
        self.calls = SlotTable(capacity: 1024)
        let estimate = ResourceEstimate(scenario)
        events = TimingWheel(shift: estimate.wheelShift, bucketCount: estimate.wheelBuckets, capacity: 1024)
        random = RandomStream(seed: SeedDerivation.seed(scenario: scenario.seed, replication: replication, stream: Self.policyStream))
    }

    /// The random streams of service `k`: the first service's are the one-hop server's (service
    /// times, error mix), so a graph's first service draws as the same server alone would.
    static func streams(of k: Int) -> (service: UInt64, errors: UInt64) {
        k == 0 ? (StreamID.service.rawValue, StreamID.errors.rawValue) : (64 + 2 * UInt64(k), 65 + 2 * UInt64(k))
    }

    /// Each of `calls`' entries' stage, as the range of its service's entries it spans: consecutive
    /// entries with the same ``Scenario/Call/stage`` (the loader puts them in the order they run).
    static func stages(_ calls: [Scenario.Call]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        while start < calls.count {
            var end = start + 1
            while end < calls.count, let s = calls[end].stage, s == calls[start].stage { end += 1 }
            out += Array(repeating: start..<end, count: end - start)
            start = end
        }
        return out
    }

    /// Whether `service` runs the queue model (else it is a flaky leaf).
    static func runsQueue(_ service: Scenario.Service) -> Bool {
        if case .queue = service.server.model { true } else { false }
    }

    /// The edge policies' stream.
    static let policyStream: UInt64 = 6

    // MARK: - ServerModel

    mutating func receive(_ r: Request, now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) -> Int64 {
        reach(&agenda, &recorder) { $0.received(r, now, &sink) }
        return .max
    }

    /// Runs `body` with ``loop`` pointing at the loop's `agenda` and `recorder` (see ``LoopReach``).
    @inline(__always) mutating func reach(_ agenda: inout Agenda, _ recorder: inout Recorder, _ body: (inout Self) -> Void) {
        withUnsafeMutablePointer(to: &agenda) { a in
            withUnsafeMutablePointer(to: &recorder) { r in
                loop = LoopReach(agenda: a, recorder: r)
                body(&self)
            }
        }
    }

    /// ``receive(_:now:agenda:recorder:sink:)`` once ``loop`` is set.
    @inline(__always) mutating func received(_ r: Request, _ now: Int64, _ sink: inout ServerSink) {
        sync(now)
        let slot = requests.allocate(
            GraphRequest(parent: r.slot, parentGeneration: r.generation, arrival: now, service: 0, query: r.query))
        let generation = requests.at(slot).pointee.generation
        if propagatesDeadlines { keepDeadline(slot, r.deadline) }
        if clientsHedge { keepClientCopy(r, UInt64(slot) << 32 | UInt64(generation)) }
        _ = services[0].receive(
            Request(slot: slot, generation: generation, deadline: r.deadline, query: r.query),
            now: now, agenda: &loop.agenda.pointee, recorder: &loop.recorder.pointee, sink: &inner)
        drain(now, &sink)
        findNext()
    }

    @inline(__always) func peekEvent() -> Event? { next }

    /// Finds the earliest pending event (see ``next``).
    @inline(__always) mutating func findNext() {
        var best = events.peek()
        // The calls of the events a few places ahead: most are timeouts of calls long answered,
        // at random slots, and each would wait for its miss in turn (as the clients' do, see
        // ``Simulation/prefetchUpcoming(after:)``).
        // Two stages: the call 8 places ahead, then, 4 places ahead, the request that call
        // belongs to (read from the call, fetched by then), which a call that ends updates.
        if events.refilled {
            events.refilled = false
            for k in 0..<8 { if let e = events.upcoming(k) { calls.prefetch(e.slot) } }
        }
        if let e = events.upcoming(8) { calls.prefetch(e.slot) }
        if let e = events.upcoming(4), calls.contains(e.slot) { requests.prefetch(calls.at(e.slot).pointee.request) }
        var source = -1
        for k in 0..<queueCount {
            if let e = services[k].peekEvent(), best.map({ e < $0 }) ?? true {
                best = e
                source = k
            }
        }
        if flakyCount > 0, let (e, k) = earliestFlaky(), best.map({ e < $0 }) ?? true {
            best = e
            source = k
        }
        next = best
        nextSource = source
    }

    /// The flaky services' earliest pending event and its service, if any. Out of line, and
    /// apart from ``findNext()``'s own candidate, so that a graph without flaky services keeps
    /// that candidate in registers (see ``flakyCount``).
    @inline(never) func earliestFlaky() -> (Event, Int)? {
        var best: (Event, Int)?
        for j in 0..<flakyCount {
            if let e = flaky[j].peekEvent(), best.map({ e < $0.0 }) ?? true { best = (e, queueCount + j) }
        }
        return best
    }

    mutating func handleNext(now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) {
        reach(&agenda, &recorder) { $0.handle(now, &sink) }
    }

    /// ``handleNext(now:agenda:recorder:sink:)`` once ``loop`` is set.
    @inline(__always) mutating func handle(_ now: Int64, _ sink: inout ServerSink) {
        sync(now)
        let source = nextSource
        if source < 0 {
            let e = next!
            events.removeMinUnchecked()
            switch e.kind {
            case .send: sendCall(e.slot, e.generation, now)
            case .timeout: callTimedOut(e.slot, e.generation, now)
            default: preconditionFailure("the call graph schedules sends and timeouts only (got \(e.kind))")
            }
        } else if source == 0 {
            services[0].handleNext(now: now, agenda: &loop.agenda.pointee, recorder: &loop.recorder.pointee, sink: &inner)
        } else if source < queueCount {
            services[source].handleNext(now: now, agenda: &loop.agenda.pointee, recorder: &recorders[source - 1], sink: &inner)
        } else {
            handleFlaky(source, now)
        }
        drain(now, &sink)
        findNext()
    }

    /// The graph's own tables, its services' waiting requests (8 bytes each, 16 where deadlines
    /// are kept) and its flaky services' pending answers, against ``memoryLimit``.
    var exhausted: Bool {
        var bytes =
            requests.allocatedBytes + calls.allocatedBytes + events.allocatedBytes + answers.allocatedBytes + hedges.allocatedBytes
            + clientCopies.allocatedBytes + deadlines.allocatedBytes + firstCall.allocatedBytes + callLinks.allocatedBytes
            + sentRequests.allocatedBytes
        for k in 0..<queueCount { bytes += 16 * services[k].waiting }
        for j in 0..<flakyCount { bytes += flaky[j].model.allocatedBytes }
        return bytes > memoryLimit
    }

    var inService: Int { services[0].inService }
    var admitted: Int64 { services[0].admitted }
    mutating func queueLength(before t: Int64) -> Int { services[0].queueLength(before: t) }
    func waitingArea(until now: Int64) -> Double { services[0].waitingArea(until: now) }

    /// The last request any service served: work downstream may go on after the last operation.
    var busyUntil: Int64 {
        var latest: Int64 = 0
        for k in 0..<queueCount { latest = max(latest, services[k].busyUntil) }
        for j in 0..<flakyCount { latest = max(latest, flaky[j].model.lastServedAt) }
        return latest
    }

    mutating func rejected(now: Int64, agenda: inout Agenda) {
        services[0].rejected(now: now, agenda: &agenda)
        findNext()
    }

    mutating func serviceResults(_ scenario: Scenario, first: borrowing Recorder) -> [ServiceResult] {
        var out = [
            ServiceResult(
                name: scenario.services[0].name, server: scenario.services[0].server, scenario: scenario, recorder: first,
                latency: latencyQuantiles(latencies[0]))
        ]
        // In the scenario's order, which the graph's numbers (``queueCount``) may not follow.
        for k in 1..<serviceCount {
            let g = scenarioIndex.firstIndex(of: k)!
            // The buckets the loop did not reach (it stopped early, or nothing happened here lately).
            while recorders[g - 1].openBuckets > 0 {
                recorders[g - 1].closeBucket(queueLength: queueLength(of: g, before: recorders[g - 1].nextBucketAt))
            }
            out.append(
                ServiceResult(
                    name: scenario.services[k].name, server: scenario.services[k].server, scenario: scenario, recorder: recorders[g - 1],
                    latency: latencyQuantiles(latencies[g])))
        }
        return out
    }

    /// Each edge's result once the run is over: the services' `calls[]` entries in the scenario's
    /// order of services, then of their calls.
    func edgeResults(_ scenario: Scenario) -> [EdgeResult] {
        var out: [EdgeResult] = []
        for k in 0..<serviceCount {
            let g = scenarioIndex.firstIndex(of: k)!
            let first = Int(plans[g].firstEdge)
            for e in first..<(first + Int(plans[g].edges)) {
                out.append(
                    EdgeResult(
                        caller: scenario.services[k].name, callee: scenario.services[scenarioIndex[Int(edges[e].to)]].name,
                        counts: edgeCounts[e], latency: latencyQuantiles(edgeLatencies[e])))
            }
        }
        return out
    }

    /// The median and the 99th percentile of `h`, seconds (NaN when empty).
    func latencyQuantiles(_ h: borrowing LatencyHistogram) -> (p50: Double, p99: Double) {
        (h.quantile(50, per: 100) / 1e9, h.quantile(99, per: 100) / 1e9)
    }

    /// Call `c`'s event `kind` of its send `generation`, at `time`: in the graph's own events,
    /// numbered in the loop's sequence.
    @inline(__always) mutating func schedule(_ kind: EventKind, _ c: UInt32, _ generation: UInt32, at time: Int64) {
        events.push(loop.agenda.pointee.make(time: time, kind: kind, slot: c, generation: generation))
    }

    /// Request `slot`'s deadline is `deadline` (see ``deadlines``). Out of line: only graphs
    /// that propagate deadlines keep them.
    @inline(never) mutating func keepDeadline(_ slot: UInt32, _ deadline: Int64) {
        while deadlines.count <= Int(slot) { deadlines.append(.max) }
        deadlines[Int(slot)] = deadline
    }

    // MARK: - Answers

    /// Brings the other services' recorders to `now`: their buckets closed (with each queue's
    /// length just before the bucket's end) and their second moved on, as the loop does the first's.
    @inline(__always) mutating func sync(_ now: Int64) {
        for k in 1..<max(1, serviceCount) {
            while recorders[k - 1].bucketEnds(by: now) {
                recorders[k - 1].closeBucket(queueLength: queueLength(of: k, before: recorders[k - 1].nextBucketAt))
            }
            recorders[k - 1].advance(to: now)
        }
    }

    /// Service `k`'s waiting requests just before `t` (a flaky service has none).
    @inline(__always) mutating func queueLength(of k: Int, before t: Int64) -> Int {
        k < queueCount ? services[k].queueLength(before: t) : 0
    }

    /// Request `r` arrives at service `to` now (its answer, if given at once, waits in ``inner``).
    @inline(__always) mutating func deliver(_ r: Request, to: Int, _ now: Int64) {
        if to < queueCount {
            _ = services[to].receive(r, now: now, agenda: &loop.agenda.pointee, recorder: &recorders[to - 1], sink: &inner)
        } else {
            deliverFlaky(r, to: to, now)
        }
    }

    /// Flaky service `k`'s earliest event is due (out of line, see ``flakyCount``).
    @inline(never) mutating func handleFlaky(_ k: Int, _ now: Int64) {
        flaky[k - queueCount].handleNext(now: now, agenda: &loop.agenda.pointee, recorder: &recorders[k - 1], sink: &inner)
    }

    /// ``deliver(_:to:_:_:)`` for a flaky service, out of line (see ``flakyCount``).
    @inline(never) mutating func deliverFlaky(_ r: Request, to: Int, _ now: Int64) {
        _ = flaky[to - queueCount].receive(r, now: now, agenda: &loop.agenda.pointee, recorder: &recorders[to - 1], sink: &inner)
    }

    /// The Retry-After service `to` sends with `code`, nanoseconds, if any.
    @inline(__always) func retryAfter(_ code: ResponseCode, from to: Int) -> Int64? {
        to < queueCount ? services[to].retryAfter(code) : flaky[to - queueCount].retryAfter(code)
    }

    /// Acts on everything the services reported, including what acting on it makes them report.
    @inline(__always) mutating func drain(_ now: Int64, _ outer: inout ServerSink) {
        var i = 0
        var j = 0
        while true {
            if i < inner.notes.count {
                let n = inner.notes[i]
                i += 1
                noted(n, now, &outer)
            } else if j < answers.count {
                let a = answers[j]
                j += 1
                guard requests.isCurrent(a.slot, a.generation) else { preconditionFailure("an answer for a request that ended") }
                let plan = plans[Int(requests.at(a.slot).pointee.service)]
                finish(a.slot, .response, a.code, held: plan.holdsWorkers, now, &outer)
            } else {
                break
            }
        }
        inner.notes.removeAll()
        answers.removeAll()
    }

    /// A request's answer once its calls are over.
    struct Answer {
        var slot: UInt32
        var generation: UInt32
        var code: ResponseCode
    }

    /// One service's note about request `n.slot`.
    mutating func noted(_ n: ServerNote, _ now: Int64, _ outer: inout ServerSink) {
        guard requests.isCurrent(n.slot, n.generation) else { preconditionFailure("a note for a request that ended") }
        let plan = plans[Int(requests.at(n.slot).pointee.service)]
        switch n.kind {
        case .response where n.code == .ok && plan.edges > 0 && !n.query && !requests.at(n.slot).pointee.cancelled:
            // A status query is answered by the service asked, which knows what it applied: it makes
            // no calls; nor does a request its caller cancelled, whose answer is wasted.
            startCalls(n.slot, now)
        case .response:
            finish(n.slot, .response, n.code, held: plan.holdsWorkers && !n.code.unprocessed, now, &outer)
        case .lost:
            finish(n.slot, .lost, .ok, held: plan.holdsWorkers, now, &outer)
        case .dropped:
            finish(n.slot, .dropped, .ok, held: false, now, &outer)
        }
    }

    /// Request `slot` is done: its worker freed if it held one, its answer (or its loss or drop)
    /// on its way to its sender, its slot free.
    mutating func finish(
        _ slot: UInt32, _ kind: ServerNote.Kind, _ code: ResponseCode, held: Bool, _ now: Int64,
        _ outer: inout ServerSink
    ) {
        let r = requests.at(slot).pointee
        requests.release(slot)
        let s = Int(r.service)
        if r.arrival >= warmupEnd { latencies[s].record(now &- r.arrival) }
        if held {
            // Only a service with calls holds workers: never a flaky one (``queueCount``).
            if s == 0 {
                services[0].release(now: now, agenda: &loop.agenda.pointee, recorder: &loop.recorder.pointee, sink: &inner)
            } else {
                services[s].release(now: now, agenda: &loop.agenda.pointee, recorder: &recorders[s - 1], sink: &inner)
            }
        }
        if s == 0 {
            let out = Request(slot: r.parent, generation: r.parentGeneration, deadline: 0, query: r.query)
            switch kind {
            case .response:
                if code.dependencyFailure { loop.recorder.pointee.count(.dependencyFailed) }
                outer.respond(out, code)
            case .lost: outer.lost(out)
            case .dropped: outer.dropped(out)
            }
        } else {
            // What a status query of the call will find: the write is applied unless dropped
            // unserved, or refused or failed (lost answers included, as at the clients).
            if tracksApplied && !r.query && code == .ok && kind != .dropped { callApplied(r.parent, r.parentGeneration, at: s) }
            if kind == .response { callAnswered(r.parent, r.parentGeneration, code, from: s, now) }
        }
    }
}
