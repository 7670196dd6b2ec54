/// One `calls[]` entry (an edge) of a call graph over one replication (``ReplicationResult/edges``):
/// what its caller's calls to its callee did after the warmup, as the caller saw them.
package struct EdgeResult: Sendable {
    /// The calling service's name and the called service's.
    package let caller: String
    package let callee: String
    /// The edge's calls, attempts and their outcomes, from the warmup's end on.
    package let counts: EdgeCounts
    /// The median and 99th percentile of its calls' latencies, seconds: from a call's start to its
    /// end, whatever the end, over the calls started after the warmup and ended before the
    /// horizon (``LatencyHistogram``: within 0.39%); NaN without such a call.
    package let latencyP50: Double
    package let latencyP99: Double

    init(caller: String, callee: String, counts: EdgeCounts, latency: (p50: Double, p99: Double)) {
        self.caller = caller
        self.callee = callee
        self.counts = counts
        latencyP50 = latency.p50
        latencyP99 = latency.p99
    }
}
