/// One service of a call graph over one replication (``ReplicationResult/services``).
///
/// At the first service the counts are the run's own (the clients' operations and attempts, the
/// requests it received and served). At another service, `offered`, `served` and `expired` are
/// its own; `operations` are the calls made to it, `firstAttempts` and `retries` their attempts,
/// and `succeeded`, `failed`, `rejected`, `timedOut`, `wasted`, `gaveUp`, `blocked`, `heldBack`
/// and `budgetDenied` those attempts' and calls' outcomes as its callers saw them.
package struct ServiceResult: Sendable {
    package let name: String
    /// Per bucket, per ``Counter``: `counts[b * Counter.allCases.count + counter.rawValue]`.
    package let counts: [Int64]
    /// Its queue's length at the end of each bucket.
    package let queueAtEnd: [Int64]
    /// Its mean capacity over each bucket, requests per second.
    package let capacityPerSecond: [Double]
    /// Its nominal capacity, requests per second.
    package let capacity: Double
    /// The most requests it received in one whole second after the warmup.
    package let peakPerSecond: Int64
    /// Retries of the calls to it (at the first service, of the clients' operations) that a
    /// guard of the caller refused after the warmup (``Summary/retriesRefused``).
    package let retriesRefused: Int64
    /// Calls to it that ended because the request making them was cancelled (``Recorder/callsCancelled``):
    /// a run total, warmup included.
    package let callsCancelled: Int64
    /// When its callers stopped seeing its failures, and whether it was still saturated at the
    /// horizon (NaN seconds without a trigger).
    package let recovery: Recovery
    /// 1 when it is stuck at the horizon (``Stuck``: its queue full or its goodput under half of
    /// what its callers send), 0 when not, NaN when the run ends less than `stuck_window` after
    /// its trigger.
    package let stuck: Double
    /// The median and 99th percentile of its requests' latencies, seconds: from a request's
    /// arrival to its answer (or its drop, or the loss of its answer), over every request that
    /// arrived after the warmup and ended before the horizon (``LatencyHistogram``: within
    /// 0.39%); NaN without such a request.
    package let latencyP50: Double
    package let latencyP99: Double
    /// What `recorder` holds for service `name` with `server`, in a run of `scenario`, its
    /// requests' latency quantiles `latency` (seconds).
    init(name: String, server: Scenario.Server, scenario: Scenario, recorder: borrowing Recorder, latency: (p50: Double, p99: Double)) {
        self.name = name
        latencyP50 = latency.p50
        latencyP99 = latency.p99
        let width = Counter.allCases.count
        let nb = recorder.buckets
        counts = (0..<(nb * width)).map { recorder.counts[$0] }
        queueAtEnd = (0..<nb).map { recorder.queueAtEnd[$0] }
        capacityPerSecond = ResultAssembler.capacityPerBucket(server, buckets: nb, bucket: recorder.bucket, horizon: scenario.horizon)
        capacity = server.capacity
        peakPerSecond = ResultAssembler.peakPerSecond(recorder, warmup: scenario.warmup)
        retriesRefused = recorder.retriesRefused
        callsCancelled = recorder.callsCancelled
        let warm = scenario.firstBucketAfterWarmup(of: nb)
        recovery = Recovery(
            counts: counts, queueAtEnd: queueAtEnd, queueLimit: server.queueLimit, bucket: recorder.bucket,
            trigger: scenario.trigger, warm: warm, window: scenario.recoveryWindow)
        stuck = Stuck.service(counts: counts, queueAtEnd: queueAtEnd, queueLimit: server.queueLimit, tail: scenario.stuckTail(of: nb))
    }

    /// The count of `c` over the buckets from `first` on (0: the whole run).
    package func total(_ c: Counter, from first: Int = 0) -> Int64 {
        total(c, in: first..<queueAtEnd.count)
    }

    /// `c` summed over `buckets` (cut to the buckets there are).
    package func total(_ c: Counter, in buckets: Range<Int>) -> Int64 {
        let width = Counter.allCases.count
        var s: Int64 = 0
        for b in buckets.clamped(to: 0..<queueAtEnd.count) { s &+= counts[b * width + c.rawValue] }
        return s
    }
}
