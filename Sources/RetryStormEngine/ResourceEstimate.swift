import RetryPolicy

/// What a replication will need, estimated from the scenario before it runs, so a run that cannot
/// fit in memory is refused up front instead of dying half-way.
public struct ResourceEstimate: Sendable {
    /// Operations expected to start before the horizon.
    public let expectedOperations: Int
    /// An upper estimate of operations in flight at once.
    public let peakOperations: Int
    /// Bytes one replication holds at its peak (upper estimate).
    public let bytesPerReplication: Int
    /// Events a replication may process if every attempt fails (upper estimate): an arrival, then
    /// per attempt a send, a timeout and a service completion.
    public let maxEvents: Int
    let operationSlots: Int
    let eventQueueCapacity: Int
    /// log2 of the timing wheel's bucket width (ns), chosen for about 1,024 events per bucket.
    let wheelShift: Int
    /// Buckets of the timing wheel, enough to span the longest backoff or timeout.
    let wheelBuckets: Int

    public init(_ s: Scenario) {
        let horizonS = Double(s.horizon) / 1e9
        let ops: Double
        var rate: Double? = nil
        switch s.clients.arrival {
        case .burst, .uniform:
            ops = Double(s.clients.count)
        case .poisson(let lambda, let start, let until):
            let span = max(0, Double(min(until, s.horizon) - start) / 1e9)
            rate = lambda * Double(s.clients.count)
            ops = rate! * span
        case .closed(let think, let start, _, let until):
            // At most one operation per client at a time; at least one think time between them.
            let span = max(0, Double(min(until, s.horizon) - start) / 1e9)
            let perClient = 1 + span / max(1e-3, Double(think) / 1e9)
            ops = Double(s.clients.count) * perClient
        }
        expectedOperations = Int(min(ops, 9e15))
        maxEvents = Int(min(9e15, ops * (1 + 3 * Double(min(s.policy.maxAttempts, 1_000_000)))))
        // An operation lives at most its attempts' timeouts plus its backoff waits, and never past the horizon.
        let p = s.policy
        let attempts = Double(min(p.maxAttempts, 1_000_000))
        let perAttempt = s.clients.timeout.map { Double($0) / 1e9 } ?? horizonS
        let waits = Self.longestWaits(s, retries: Int(attempts) - 1, horizon: horizonS)
        let lifetime = min(horizonS, attempts * perAttempt + waits + (p.coolOff.map { _ in horizonS } ?? 0))
        var peak = rate.map { min(ops, $0 * lifetime) } ?? ops
        if case .closed = s.clients.arrival { peak = Double(s.clients.count) }
        peakOperations = Int(min(peak, 9e15))
        let slot = MemoryLayout<OperationSlot>.stride
        let perLiveOp = slot + 2 * MemoryLayout<Event>.stride + MemoryLayout<Request>.stride + 4
        let guards = p.keepsHostState ? s.clients.count * max(1, s.clients.hosts) * MemoryLayout<HostGuard>.stride : 0
        let perClient = (s.clients.credentialLifetime != nil ? 8 : 0) + (p.concurrency != nil ? 16 * max(1, s.clients.hosts) : 0)
        let buckets = Int(s.horizon / max(1, s.bucket)) + 1
        let series = buckets * (Counter.allCases.count + 1) * 8 + Int(horizonS + 1) * 8
        // Times-to-success are kept (8 bytes each) and sorted with an equal scratch buffer.
        let total = Double(expectedOperations) * 16 + Double(peakOperations) * Double(perLiveOp)
            + Double(guards) + Double(perClient) * Double(s.clients.count) + Double(series) + 1_048_576
        bytesPerReplication = Int(min(total, 9e18))
        // Wheel events (arrivals and retries) per second, from the busiest arrival pattern.
        let activeSeconds: Double
        switch s.clients.arrival {
        case .burst: activeSeconds = max(1, Double(p.backoff.base) / 1e9 * 2)
        case .uniform(_, let spread): activeSeconds = max(1e-3, Double(spread) / 1e9)
        case .poisson(_, let start, let until), .closed(_, let start, _, let until):
            activeSeconds = max(1e-3, Double(min(until, s.horizon) - start) / 1e9)
        }
        let wheelRate = max(1, ops / activeSeconds * min(attempts, 4))
        // Wide buckets of about a thousand events: the wheel's heads and half-filled blocks then
        // stay few and in cache, and a drained bucket is ordered by a counting sort on its
        // sub-bins (TimingWheel.distributeBySubBin). On bench-fleet, 16 events a bucket ran
        // 5.2-5.5 s, 64 about 5.0 s, 256 about 4.7 s, 1,024 and 4,096 about 4.5 s.
        let width = 1024e9 / wheelRate
        wheelShift = max(10, min(32, Int(log2(max(1, width)).rounded(.down))))
        let reach = max(Double(p.backoff.max), Double(s.clients.timeout ?? 0), 1e9) * 1.25
        let wheelSpan = reach / Double(Int64(1) << wheelShift)
        wheelBuckets = Int(max(1024, min(Double(1 << 20), wheelSpan)))
        operationSlots = max(1024, min(peakOperations, 1 << 20))
        eventQueueCapacity = max(1024, min(2 * peakOperations + 16, 1 << 21))
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
