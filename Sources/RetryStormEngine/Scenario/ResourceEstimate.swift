@_spi(Simulation) import RetryPolicy

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a replication will need, estimated from the scenario before it runs, so that work which
/// cannot fit in memory or finish in reasonable time is refused up front instead of dying or
/// hanging half-way. Every figure is an upper estimate: the guard compares it with the machine's
/// limits, and a test checks it against measured runs (never below, not absurdly above).
package struct ResourceEstimate: Sendable {
    /// Operations expected to start before the horizon.
    package let expectedOperations: Int
    /// An upper estimate of operations in flight at once.
    package let peakOperations: Int
    /// Bytes one replication holds at its peak while it runs, its result included (upper estimate).
    package private(set) var bytesPerReplication: Int
    /// Bytes of a finished replication's result, held until the study's tables are written.
    package let resultBytes: Int
    /// Attempts one operation can make before the horizon (upper estimate).
    package let attemptsPerOperation: Double
    /// Events a replication may process (upper estimate; may be astronomically large): an
    /// arrival per operation and, per attempt, a send, a timeout and the server's answer (two more
    /// with a network model).
    package private(set) var maxEvents: Double
    /// Set when the events have no bound but `policy.max_attempts` (or the cool-off cycles), or
    /// an edge's `services.CALLER.calls.CALLEE.policy.max_attempts`: a failure can come back at
    /// once and the policy retries at once. Names the knob to turn.
    package var zeroDelayLoop: String? { loops.first { $0.driver == eventsDriver }?.text ?? loops.first?.text }
    /// The driver whose loop ``zeroDelayLoop`` is.
    package var zeroDelayDriver: ResourceDriver? { loops.first { $0.driver == eventsDriver }?.driver ?? loops.first?.driver }
    /// Every zero-delay loop: the clients' (``ResourceDriver/attempts``) and each edge's.
    private(set) var loops: [(driver: ResourceDriver, text: String)]
    /// Time-series buckets of one replication.
    package let buckets: Int
    /// A call graph's requests at each service over the run, in the order of
    /// ``Scenario/services`` (upper estimate; empty without a call graph): the first service's
    /// are the clients' attempts, each other's its callers' requests × `count` × each call's attempts.
    package private(set) var serviceRequests: [Double] = []
    let operationSlots: Int
    let eventQueueCapacity: Int
    /// log2 of the timing wheel's bucket width (ns), chosen for about 1,024 events per bucket.
    let wheelShift: Int
    /// Buckets of the timing wheel, enough to span the longest backoff or timeout.
    let wheelBuckets: Int
    /// The part of ``bytesPerReplication`` that grows with the buckets: the recorder, the
    /// result's series, the queue's per-bucket area.
    let bucketBytes: Double
    /// The factors of ``maxEvents`` (operations' — clients, rate, span, the load's mean
    /// multiplier — and attempts per operation) and of ``bytesPerReplication`` (those of its
    /// largest part: operations, clients or buckets), with the number of populations when there
    /// are several: what ``eventsDriver`` and ``memoryDriver`` pick from.
    private(set) var eventFactors: [(ResourceDriver, Double)]
    private(set) var memoryFactors: [(ResourceDriver, Double)]

    /// The input that makes ``maxEvents`` large.
    package var eventsDriver: ResourceDriver { ResourceDriver.strongest(eventFactors) }
    /// The input that makes ``bytesPerReplication`` large.
    package var memoryDriver: ResourceDriver { ResourceDriver.strongest(memoryFactors) }

    /// Fixed overhead of one replication besides its tables: random streams, the server's own
    /// small structures, staging rings, sort scratch.
    static let fixedBytes = 2 << 20

    package init(_ s: Scenario) {
        defer { if s.isCallGraph { addGraph(s) } }
        if s.populations.isEmpty {
            self.init(fleet: s)
        } else {
            // Each population as a fleet of its own, then added up: every figure stays an upper estimate.
            self.init(
                adding: s.populations.map { p in
                    var one = s
                    one.populations = []
                    one.clients = p.clients
                    one.policy = p.policy
                    return ResourceEstimate(fleet: one)
                })
        }
    }

    /// The estimate of a scenario with populations from each population's own. What grows with
    /// operations and clients adds up; the fleet's time series, its result and its fixed
    /// overhead are one, whatever the populations; each population adds its own counters per
    /// bucket (``PopulationRecorder``, 6 counts) and the requests it offered per bucket in the
    /// result: populations × buckets.
    private init(adding parts: [ResourceEstimate]) {
        func sum(_ f: (ResourceEstimate) -> Int) -> Int { parts.reduce(0) { $0 &+ f($1) } }
        expectedOperations = sum(\.expectedOperations)
        peakOperations = sum(\.peakOperations)
        let buckets = Double(parts.map(\.buckets).max() ?? 1)
        let populations = Double(parts.count)
        let fleet = parts.map(\.bucketBytes).max() ?? 0
        let ownBytes = parts.reduce(0.0) { $0 + Double($1.bytesPerReplication) - $1.bucketBytes - Double(Self.fixedBytes) }
        let perPopulation = Double(PopulationRecorder.width * 8 + 8) + Double(MemoryLayout<PopulationResult>.stride) / buckets
        let byBucket = populations * buckets * perPopulation
        bucketBytes = fleet + byBucket
        bytesPerReplication = Int(min(ownBytes + bucketBytes + Double(Self.fixedBytes), 9e18))
        resultBytes = Int(
            min(Double(parts.map(\.resultBytes).max() ?? 0) + populations * (buckets * 8 + Double(MemoryLayout<PopulationResult>.stride)), 9e18))
        attemptsPerOperation = parts.map(\.attemptsPerOperation).max() ?? 1
        maxEvents = parts.reduce(0) { $0 + $1.maxEvents }
        loops = parts.flatMap(\.loops)
        self.buckets = Int(buckets)
        operationSlots = min(sum(\.operationSlots), 1 << 20)
        eventQueueCapacity = min(sum(\.eventQueueCapacity), 1 << 21)
        // The narrowest buckets, and enough of them to span every population's reach.
        let shift = parts.map(\.wheelShift).min() ?? 10
        wheelShift = shift
        wheelBuckets = min(parts.map { $0.wheelBuckets << ($0.wheelShift - shift) }.max() ?? 1024, 1 << 20)
        // The largest population's factors, and how many there are.
        let count = (ResourceDriver.populations, populations)
        eventFactors = (parts.max { $0.maxEvents < $1.maxEvents }?.eventFactors ?? []) + [count]
        let largest = parts.max { $0.bytesPerReplication < $1.bytesPerReplication }
        memoryFactors =
            byBucket > (largest.map { Double($0.bytesPerReplication) } ?? 0)
            ? [(.populations, populations), (.bucket, buckets)] : (largest?.memoryFactors ?? []) + [count]
    }

    /// The estimate of one population running `s.clients` and `s.policy`.
    private init(fleet s: Scenario) {
        let horizonS = Double(s.horizon) / 1e9
        let ops: Double
        var rate: Double? = nil
        var factors: [(ResourceDriver, Double)] = [(.clients, Double(s.clients.count))]
        switch s.clients.arrival {
        case .burst, .uniform:
            ops = Double(s.clients.count)
        case .poisson(let lambda, let start, let until), .constant(let lambda, let start, let until):
            let span = max(0, Double(min(until, s.horizon) - start) / 1e9)
            rate = lambda * Double(s.clients.count)
            if s.load.isFlat {
                ops = rate! * span
                factors += [(.arrivalRate, lambda), (.horizon, span)]
            } else {
                // The load's integral over the span, and its peak for the operations in flight.
                let integral = s.load.integral(from: start, to: max(start, min(until, s.horizon)))
                ops = rate! * integral
                rate = rate! * max(1, s.load.peak)
                factors += [(.arrivalRate, lambda), (.horizon, span), (.load, span > 0 ? integral / span : 1)]
            }
        case .closed(let think, let start, _, let until):
            // At most one operation per client at a time; at least one think time between them.
            let span = max(0, Double(min(until, s.horizon) - start) / 1e9)
            let perClient = 1 + span / max(1e-3, Double(think) / 1e9)
            ops = Double(s.clients.count) * perClient
            factors.append((.horizon, perClient))
        }
        expectedOperations = Int(min(ops, 9e15))
        let p = s.policy
        let (perOperation, loop) = Self.attempts(s, horizon: horizonS)
        // A retry budget caps the retries of the whole run, whatever each operation may do.
        var totalAttempts = ops * perOperation
        var zeroDelay = loop
        if let retries = Self.budgetRetries(s, operations: ops, horizon: horizonS), ops + retries < totalAttempts {
            totalAttempts = ops + retries
            zeroDelay = nil
        }
        attemptsPerOperation = ops > 0 ? totalAttempts / ops : perOperation
        loops = zeroDelay.map { [(.attempts, $0)] } ?? []
        eventFactors = factors + [(.attempts, attemptsPerOperation)]
        let perAttempt = 3.0 + (s.network != nil ? 2 : 0) + (s.clients.offline != nil ? 1 : 0)
        maxEvents =
            ops + perAttempt * totalAttempts
            + (s.clients.restart != nil || s.clients.offline != nil ? 2 : 0)
        // An operation lives at most its attempts' timeouts plus its backoff waits, and never past the horizon.
        let cappedAttempts = Double(min(p.maxAttempts, 1_000_000))
        let perAttemptTime = s.clients.timeout.map { Double($0) / 1e9 } ?? horizonS
        let waits = Self.longestWaits(s, retries: Int(cappedAttempts) - 1, horizon: horizonS)
        let lifetime = min(horizonS, cappedAttempts * perAttemptTime + waits + (p.coolOff.map { _ in horizonS } ?? 0))
        var peak = rate.map { min(ops, $0 * lifetime) } ?? ops
        if case .closed = s.clients.arrival { peak = Double(s.clients.count) }
        peakOperations = Int(min(peak, 9e15))

        // Events waiting: each live operation's next send or answer, and the timeouts of
        // attempts already answered, which stay queued until they expire (per operation, one per
        // attempt started within the last timeout; in all, no more than every attempt).
        let eventBytes = Double(MemoryLayout<Event>.stride)
        var staleTimeouts = 0.0
        if let timeout = s.clients.timeout {
            let perLive = min(attemptsPerOperation, Self.attemptsWithin(Double(timeout), s, limit: attemptsPerOperation).count)
            staleTimeouts = min(totalAttempts, peak * perLive)
            // A retry budget also caps the attempts any one timeout's span can hold.
            let window = Double(timeout) / 1e9
            let opsInWindow = rate.map { min(ops, $0 * window) } ?? ops
            if let retries = Self.budgetRetries(s, operations: opsInWindow, horizon: window) {
                staleTimeouts = min(staleTimeouts, opsInWindow + retries)
            }
            // A queue that refuses nothing answers only what it serves: at most its capacity's
            // worth in that span (twice it, for the spread of random service times).
            if case .queue(let q) = s.server.model, q.limit == nil, s.server.rateLimit == nil, s.clients.credentialLifetime == nil {
                staleTimeouts = min(staleTimeouts, 2 * s.server.capacity * window + Double(q.workers))
            }
        }
        var perLiveOp = Double(MemoryLayout<OperationSlot>.stride) + 2 * eventBytes + Double(MemoryLayout<Request>.stride) + 4
        // A hedged operation also keeps its copies (``HedgedAttempt``), a timeout and a request per copy.
        if let hedging = p.hedging {
            perLiveOp +=
                Double(MemoryLayout<HedgedAttempt>.stride) + Double(hedging.maxAttempts - 1) * (eventBytes + Double(MemoryLayout<Request>.stride))
        }
        let hosts = max(1, s.clients.hosts)
        let clients = Double(s.clients.count)
        let guards = p.keepsHostState ? clients * Double(hosts * MemoryLayout<HostGuard>.stride) : 0
        var perClient = (s.clients.credentialLifetime != nil ? 8.0 : 0) + (p.concurrency != nil ? 20.0 * Double(hosts) : 0)
        // Constant-rate clients: each one's phase and index, and the sort's scratch.
        if case .constant = s.clients.arrival { perClient += 32 }
        let bucketCount = Int(min(9e15, Double(s.horizon / max(1, s.bucket)) + 1))
        buckets = bucketCount
        let width = Double(Counter.allCases.count)
        // Counts, queue lengths and per-second load while running.
        let recorder = Double(bucketCount) * (width + 2) * 8 + (horizonS + 1) * 8
        // A result: the counts again, queue lengths, bucket capacities and 1,001 quantiles.
        let result = Double(bucketCount) * (width + 2) * 8 + 1001 * 8 + 1024
        resultBytes = Int(min(result, 9e18))
        // Times-to-success are kept (8 bytes each, and 4 for the bucket the operation started in),
        // sorted with an equal scratch buffer, and the incident's copied out (8 more).
        let successes = ops * 28
        // A server that keeps its waiting requests (LIFO, congestion) holds every request queued
        // at once: at most the queue's limit, else every attempt of the run. The FIFO queue solved
        // on arrival keeps one start time per request only when a limit needs them.
        var backlog = 0.0
        var bucketBacklog = 0.0
        if case .queue(let q) = s.server.model {
            // A request still waiting belongs to an attempt that is not answered: the live one, or
            // one abandoned at its timeout (at most one per timeout span of the run).
            let waitingPerOperation = s.clients.timeout.map { 1 + Double(s.horizon) / Double(max(1, $0)) } ?? 1
            var requests = min(totalAttempts, peak * waitingPerOperation)
            if let limit = q.limit { requests = min(requests, Double(limit)) }
            if q.lifo || q.congestion > 0 || q.dropExpired {
                backlog = requests * 16
            } else if q.limit != nil {
                backlog = requests * 8
            }
            bucketBacklog = Double(bucketCount) * 8
        }
        // Three parts, for the driver: what grows with operations, with clients, with buckets.
        let operationBytes = successes + peak * perLiveOp + staleTimeouts * eventBytes + backlog
        let clientBytes = guards + perClient * clients
        bucketBytes = recorder + result + bucketBacklog
        let total = operationBytes + clientBytes + bucketBytes + Double(Self.fixedBytes)
        bytesPerReplication = Int(min(total, 9e18))
        memoryFactors =
            bucketBytes > max(operationBytes, clientBytes)
            ? [(.bucket, Double(bucketCount))]
            : clientBytes > operationBytes ? [(.clients, clients)] : factors

        // Wheel events (arrivals and retries) per second, from the busiest arrival pattern.
        let activeSeconds: Double
        switch s.clients.arrival {
        case .burst: activeSeconds = max(1, Double(p.backoff.base) / 1e9 * 2)
        case .uniform(_, let spread): activeSeconds = max(1e-3, Double(spread) / 1e9)
        case .poisson(_, let start, let until), .constant(_, let start, let until), .closed(_, let start, _, let until):
            activeSeconds = max(1e-3, Double(min(until, s.horizon) - start) / 1e9)
        }
        let wheelRate = max(1, ops / activeSeconds * min(cappedAttempts, 4))
        // Wide buckets of about a thousand events: the wheel's heads and half-filled blocks then
        // stay few and in cache, and a drained bucket is ordered by a counting sort on its
        // sub-bins (TimingWheel.distributeBySubBin). On bench-fleet, 16 events a bucket ran
        // 5.2-5.5 s, 64 about 5.0 s, 256 about 4.7 s, 1,024 and 4,096 about 4.5 s.
        let width2 = 1024e9 / wheelRate
        wheelShift = max(10, min(32, Int(log2(max(1, width2)).rounded(.down))))
        let reach = max(Double(p.backoff.max), Double(s.clients.timeout ?? 0), 1e9) * 1.25
        let wheelSpan = reach / Double(Int64(1) << wheelShift)
        wheelBuckets = Int(max(1024, min(Double(1 << 20), wheelSpan)))
        operationSlots = max(1024, min(peakOperations, 1 << 20))
        eventQueueCapacity = max(1024, min(2 * peakOperations + 16, 1 << 21))
    }

    /// Adds a call graph's services and calls to the clients' estimate: their requests' events
    /// and tables, the edges' zero-delay loops, and the factors that drive them — the clients'
    /// (they make the first service's requests) and, below, the calls' along the heaviest path.
    mutating func addGraph(_ s: Scenario) {
        let horizon = Double(s.horizon) / 1e9
        let attempts = s.services.indices.map { k in s.services[k].calls.map { Self.edgeAttempts(s, k, $0, horizon: horizon) } }
        let perCall = attempts.map { $0.map(\.0) }
        let requests = Self.graphRequests(s, clientAttempts: attemptsPerOperation * Double(expectedOperations), attempts: perCall)
        // Every request at a service ends in one of its events; every attempt of a call has a
        // timeout and a send.
        let graphEvents = 3 * requests.reduce(0, +)
        serviceRequests = requests
        let (graphBytes, hungriest) = Self.graphBytes(s, requests: requests, attempts: perCall)
        let clients = eventFactors
        let paths = Self.heaviestPaths(s, requests: requests, attempts: perCall)
        for (k, service) in s.services.enumerated() {
            for (j, call) in service.calls.enumerated() {
                if let loop = attempts[k][j].1 { loops.append((.callAttempts(Self.edgeKey(s, k, call)), loop)) }
            }
        }
        // The graph's part is named by its own factors only where it outweighs the clients' part.
        let busiest = requests.indices.max { requests[$0] < requests[$1] } ?? 0
        if graphEvents > maxEvents { eventFactors = clients + Self.pathFactor(paths[busiest]) }
        if graphBytes > Double(bytesPerReplication) { memoryFactors = clients + Self.pathFactor(paths[hungriest]) }
        maxEvents = min(9e18, maxEvents + graphEvents)
        bytesPerReplication = Int(min(9e18, Double(bytesPerReplication) + graphBytes))
    }

    /// `services.CALLER.calls.CALLEE`, the prefix of `call`'s keys (`call` one of service `k`'s).
    package static func edgeKey(_ s: Scenario, _ k: Int, _ call: Scenario.Call) -> String {
        "services.\(s.services[k].name).calls.\(s.services[call.to].name)"
    }

    /// A path's factors as one: its product, named by its largest factor (the first of equals,
    /// the one nearest the clients). Requests multiply down the path, so lowering any one of them
    /// divides the estimate; the largest divides it most.
    static func pathFactor(_ path: [(ResourceDriver, Double)]) -> [(ResourceDriver, Double)] {
        guard !path.isEmpty else { return [] }
        let product = path.reduce(1.0) { $0 * max(1, $1.1) }
        return [(ResourceDriver.strongest(path), min(9e18, product))]
    }

    /// The requests each service of a call graph receives over the run (upper estimate): the
    /// first the clients' `clientAttempts`; another its callers' requests × `count` × the attempts
    /// each call may make (`attempts`, by service and call: ``edgeAttempts(_:_:_:horizon:)``).
    static func graphRequests(_ s: Scenario, clientAttempts: Double, attempts: [[Double]]) -> [Double] {
        var requests = [Double](repeating: 0, count: s.services.count)
        requests[0] = clientAttempts
        for (k, service) in s.services.enumerated() {
            for (j, call) in service.calls.enumerated() where call.to < requests.count {
                requests[call.to] = min(9e18, requests[call.to] + requests[k] * Double(call.count) * attempts[k][j])
            }
        }
        return requests
    }

    /// For each service, the factors (`count` and attempts of each call) of the path from the
    /// first service that brings it the most requests; the first service's is empty.
    static func heaviestPaths(_ s: Scenario, requests: [Double], attempts: [[Double]]) -> [[(ResourceDriver, Double)]] {
        var paths = [[(ResourceDriver, Double)]](repeating: [], count: s.services.count)
        var most = [Double](repeating: -1, count: s.services.count)
        for (k, service) in s.services.enumerated() {
            for (j, call) in service.calls.enumerated() where call.to < paths.count {
                let brought = requests[k] * Double(call.count) * attempts[k][j]
                guard brought > most[call.to] else { continue }
                most[call.to] = brought
                let key = edgeKey(s, k, call)
                paths[call.to] = paths[k] + [(.callCount(key), Double(call.count)), (.callAttempts(key), attempts[k][j])]
            }
        }
        return paths
    }

    /// Attempts one call of `call` may make (its policy and timeout in the clients' bound, against
    /// the called service's server; a hedged call's copies, at most ``Hedging/maxAttempts``), and
    /// its zero-delay loop, if it has one (``attempts(_:horizon:scope:)``, its keys under `services.CALLER.calls.CALLEE.`).
    static func edgeAttempts(_ s: Scenario, _ k: Int, _ call: Scenario.Call, horizon: Double) -> (Double, String?) {
        var edge = s
        edge.populations = []
        edge.policy = call.policy
        edge.clients.timeout = call.timeout
        // How soon an attempt can come back is the called service's: a full queue there answers at once.
        if call.to < s.services.count { edge.server = s.services[call.to].server }
        return Self.attempts(edge, horizon: horizon, scope: edgeKey(s, k, call) + ".")
    }

    /// The bytes a call graph's tables may hold at once (upper estimate), and the service whose
    /// part is largest: at each service, every request it receives may be waiting (its queue's
    /// limit and workers bound that when it has a limit), each with its record (``GraphRequest``),
    /// its queue entry and deadline and its completion; and every call open at once — its
    /// callers' requests × `count` at the rate they come, for as long as a call can last — with
    /// its record (``GraphCall``) and two events.
    static func graphBytes(_ s: Scenario, requests: [Double], attempts: [[Double]]) -> (Double, Int) {
        let horizon = max(1e-9, Double(s.horizon) / 1e9)
        let event = Double(MemoryLayout<Event>.stride)
        var bytes = 0.0
        var most = (0.0, 0)
        let cancels = s.services.contains { $0.calls.contains(where: \.propagateCancellation) }
        let propagates = s.services.contains { $0.calls.contains(where: \.propagateDeadline) }
        for (k, service) in s.services.enumerated() {
            var held = requests[k]
            if case .queue(let q) = service.server.model, let limit = q.limit { held = min(held, Double(limit + q.workers)) }
            // Cancellation keeps each request's first open call (4 bytes, by slot), and an edge that
            // propagates deadlines each request's deadline (8 bytes).
            let first = (cancels ? 4.0 : 0) + (propagates ? 8.0 : 0)
            var own = held * (Double(MemoryLayout<GraphRequest>.stride) + 16 + event + first)
            for (j, call) in service.calls.enumerated() {
                let lifetime = min(horizon, attempts[k][j] * (call.timeout.map { Double($0) / 1e9 } ?? horizon))
                let open = min(requests[k] * Double(call.count), requests[k] * Double(call.count) / horizon * lifetime)
                // A hedged call also keeps its copies (``HedgeCopies``), and a timer per copy.
                let hedge = call.policy.hedging.map { Double(MemoryLayout<HedgeCopies>.stride) + Double($0.maxAttempts) * event } ?? 0
                // Cancellation links each call into its request's list and keeps its send in flight.
                let cancel = cancels ? 16.0 : 0
                own += open * (Double(MemoryLayout<GraphCall>.stride) + 2 * event + hedge + cancel)
            }
            bytes += own
            // A service's tables are its requests': the calls bring them, so the path to it drives them.
            if own > most.0 { most = (own, k) }
        }
        return (bytes, most.1)
    }

    /// Attempts per operation: `max_attempts` per cycle (every cycle, with a cool-off, until the
    /// horizon), and no more than fit in the horizon (or `max_elapsed`) at the shortest gaps
    /// between attempts (``shortestGap(_:retry:)``), which grow with the backoff.
    /// - Returns: the bound, and why it is only `max_attempts` when the gaps can all be zero.
    /// `scope` prefixes the keys the loop's text names (an edge's `services.CALLER.calls.CALLEE.`).
    static func attempts(_ s: Scenario, horizon: Double, scope: String = "") -> (Double, String?) {
        let p = s.policy
        // A hedged operation's attempts are its copies (``Hedging/maxAttempts``).
        if let hedging = p.hedging { return (Double(hedging.maxAttempts), nil) }
        let life = Double(min(s.horizon, p.coolOff == nil ? (p.maxElapsed ?? s.horizon) : s.horizon))
        let (perCycle, cycleTime) = attemptsWithin(life, s, limit: Double(p.maxAttempts))
        var bound = perCycle
        if let coolOff = p.coolOff {
            // A cycle lasts at least its attempts' gaps and its cool-off.
            let cycles = 1 + Double(s.horizon) / (cycleTime + Double(max(1, coolOff)))
            bound = perCycle * cycles
        }
        guard cycleTime == 0 && bound > 1 else { return (bound, nil) }
        var knob = "\(scope)policy.max_attempts is \(p.maxAttempts)"
        if p.coolOff != nil { knob = "\(scope)policy.cool_off repeats \(p.maxAttempts) attempts" }
        return (bound, "\(knob) and a failure can come back at once while the policy retries at once (\(Self.zeroDelayReason(s, scope: scope)))")
    }

    /// How many attempts fit in `life` nanoseconds at the shortest gaps, at most `limit`, and the
    /// least time they take.
    static func attemptsWithin(_ life: Double, _ s: Scenario, limit: Double) -> (count: Double, time: Double) {
        var n = 1.0
        var t = 0.0
        var retry = 1
        var previous = -1.0
        while n < limit {
            let gap = shortestGap(s, retry: retry)
            if gap == previous {
                // The gaps stopped growing (the cap, or a constant backoff): the rest in one step.
                let more = gap > 0 ? min(limit - n, ((life - t) / gap).rounded(.down)) : limit - n
                return (n + max(0, more), t + max(0, more) * gap)
            }
            guard t + gap <= life else { break }
            t += gap
            n += 1
            retry += 1
            previous = gap
        }
        return (n, t)
    }

    /// The retries a retry budget allows in the whole run (nil: it sets no total), summed over the
    /// clients and hosts that each keep one.
    static func budgetRetries(_ s: Scenario, operations ops: Double, horizon: Double) -> Double? {
        let p = s.policy
        let guards = p.keepsHostState ? Double(s.clients.count) * Double(max(1, s.clients.hosts)) : 1
        switch p.budget {
        case .unlimited, .envoy:
            return nil
        case .perRun(let n):
            return guards * Double(n)
        case .tokenBucket(let b):
            return guards * (b.capacity + b.refillPerSecond * horizon)
        case .grpc(let g):
            // Retries stop at half the tokens; each failure takes one, each success gives back the ratio.
            return guards * (Double(g.maxTokens) / 2 + 1) + g.tokenRatio * ops
        case .aws(let q):
            // Tokens start full; the cheapest retry takes `least`; a success gives back at most a retry's cost.
            let least = Double(max(1, min(q.retryCost, q.timeoutCost, q.throttlingCost)))
            let most = Double(max(q.retryCost, q.timeoutCost, q.throttlingCost, q.noRetryIncrement))
            return guards * Double(q.capacity) / least + ops * most / least
        case .ratio(let f):
            // Every request deposits `percent` of a retry; a reserve of `min_per_second` × ttl
            // refills as the window slides. Retries are requests too, hence the 1 / (1 − percent).
            guard f.percentCanRetry < 1 else { return nil }
            let reserve = guards * f.minRetriesPerSecond * (horizon + Double(f.ttl) / 1e9)
            return (f.percentCanRetry * ops + reserve) / (1 - f.percentCanRetry)
        }
    }

    /// Why consecutive attempts of an operation may come at the same instant, for messages.
    static func zeroDelayReason(_ s: Scenario, scope: String = "") -> String {
        let b = s.policy.backoff
        let policy = b.kind == .none ? "\(scope)policy.backoff.kind none" : "\(scope)policy.backoff.base \(b.base) ns"
        let server: String
        switch s.server.model {
        case .flaky(let f): server = f.latency == 0 ? "server.flaky.latency 0s" : "the server"
        case .queue: server = "a full queue or a rate limit answers at once"
        case .contention: server = "the server"
        }
        return "\(policy), \(server)"
    }

    /// The shortest time between retry `retry` − 1 and retry `retry` of an operation, nanoseconds:
    /// the least an attempt can take plus the least wait before the next. Where that least is zero
    /// only by chance (a full-jitter draw near 0, an exponential service time near 0), a fraction
    /// of the mean is taken instead (a sixteenth under full jitter): the sum of many independent
    /// draws falls that far below its mean with negligible probability (Hoeffding's inequality),
    /// and with growing delays a few unlucky draws add only a few attempts to a count that grows
    /// with the logarithm of time.
    static func shortestGap(_ s: Scenario, retry: Int) -> Double {
        var answer = 0.0
        switch s.server.model {
        case .flaky(let f):
            answer = Double(f.latency)
        case .contention(let c):
            // A read and a write: four hops of |N(mean, sd)|, averaging at least the mean.
            answer = 2 * Double(c.hop.mean)
        case .queue(let q):
            // A full queue, a rate limiter or expired credentials answer at once; otherwise every
            // attempt is served (at least a quarter of the mean service time, on average) or times out.
            if q.limit == nil && s.server.rateLimit == nil && s.clients.credentialLifetime == nil && s.server.capacity > 0 {
                answer = Double(q.workers) / s.server.capacity * 1e9 / 4
            }
        }
        if let n = s.network {
            answer += 2 * Double(n.mean) * (n.shape == .constant ? 1 : 0.25)
        }
        // An attempt ends at its timeout whatever the server would take: an edge with a 1 µs
        // timeout over a 2 ms service makes its attempts 1 µs (plus the wait) apart, not 2 ms.
        if let timeout = s.clients.timeout { answer = min(answer, Double(timeout)) }
        return answer + shortestWait(s.policy, retry: retry)
    }

    /// The least wait before retry `n` under the backoff (a fraction of the mean for random draws,
    /// as in ``shortestGap(_:retry:)``), nanoseconds; throttling failures may use a shorter base.
    static func shortestWait(_ p: RetryPolicy, retry n: Int) -> Double {
        let b = p.backoff
        guard b.kind != .none else { return 0 }
        if n == 1 && b.firstRetry == .immediate { return 0 }
        if n == 1 && b.firstRetry == .unjittered { return min(Double(b.base), Double(b.max)) }
        var d = b.envelope(retry: n)
        if b.capAfterJitter || b.plateauUnjittered { d = min(d, Double(b.max)) }
        if let t = p.throttlingBase, b.base > 0 { d = min(d, d * Double(t) / Double(b.base)) }
        switch b.jitter {
        case .none: return d
        case .full: return d / 16
        case .equal: return d / 2
        case .decorrelated: return Double(b.base)
        case .decorrelatedV2: return min(Double(b.max), Double(b.base) * pow(2, Double(min(n, 1000) - 1))) / 16
        case .proportional(let f): return d * (1 - f)
        case .additive: return d
        }
    }

    /// The longest an operation can wait between its attempts, seconds: each retry's delay at its
    /// largest under the jitter (the growth envelope, not `max` for every retry: an exponential
    /// backoff from 1 s to 60 s waits at most 31 s over five retries, not 300 s), or the longest
    /// Retry-After the server sends if that is longer.
    static func longestWaits(_ s: Scenario, retries: Int, horizon: Double) -> Double {
        let b = s.policy.backoff
        let cap = Double(b.max)
        var hint = 0.0
        if case .queue(let q) = s.server.model, let r = q.shedRetryAfter { hint = max(hint, Double(r)) }
        if let r = s.server.rateLimit?.retryAfter { hint = max(hint, Double(r)) }
        var total = 0.0
        var n = 1
        var decorrelated = Double(b.base)
        while n <= retries && total < horizon * 1e9 {
            decorrelated = min(cap, decorrelated * 3)
            let d = min(b.envelope(retry: n), cap)
            let longest: Double
            switch b.jitter {
            case .none, .full, .equal: longest = d
            case .decorrelated: longest = decorrelated
            case .decorrelatedV2: longest = cap
            case .proportional(let f), .additive(let f): longest = d * (1 + f)
            }
            total += max(longest, hint)
            n += 1
        }
        return min(total, horizon * 1e9) / 1e9
    }
}

extension ResourceEstimate {
    /// The heap arrays of `s` that the points of a study may share, by storage address
    /// (``address(of:)``), with their sizes in bytes: the load profile's points and their integrals,
    /// and the capacity profile's segments. Arrays are copy-on-write: points resolved from one
    /// profile file hold one storage and list one address, so a study counts it once. The engine
    /// only reads them (`let` properties of the workload and the servers): replications running
    /// at once share them too, and no replication holds a copy.
    package static func sharedArrays(_ s: Scenario) -> [Int: Int] {
        var out: [Int: Int] = [:]
        if !s.load.points.isEmpty { out[address(of: s.load.points)] = bytes(of: s.load) }
        if !s.server.profile.segments.isEmpty { out[address(of: s.server.profile.segments)] = bytes(of: s.server.profile) }
        return out
    }

    /// The address of `array`'s storage: equal for arrays that share it, while they live.
    package static func address<T>(of array: [T]) -> Int {
        array.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
    }

    /// Bytes of a load profile's arrays: a point and its integral Λ per point.
    package static func bytes(of load: LoadProfile) -> Int {
        load.points.count * (MemoryLayout<LoadProfile.Point>.stride + MemoryLayout<Double>.stride)
    }

    /// Bytes of a capacity profile's segments.
    package static func bytes(of profile: CapacityProfile) -> Int {
        profile.segments.count * MemoryLayout<CapacityProfile.Segment>.stride
    }
}
