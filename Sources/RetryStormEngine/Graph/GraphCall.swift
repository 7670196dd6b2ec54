import RetryPolicy

/// One call a request makes downstream: an operation of its edge's retry policy, run by the
/// calling service, from the first attempt until it succeeds or the policy stops.
struct GraphCall: GenerationTagged {
    /// Bumped when an attempt starts and when the call ends; events and answers carry the value
    /// they saw.
    var generation: UInt32 = 0
    /// The policy library's state for this call.
    var record: OperationRecord
    /// When the call started, nanoseconds.
    var createdAt: Int64
    /// When the calling request's deadline passes (`Int64.max` unless the edge propagates it): no
    /// attempt starts at or after it.
    var parentDeadline: Int64
    /// The calling request's slot and generation.
    var request: UInt32
    var requestGeneration: UInt32
    /// The edge (an index into the graph's edges).
    var edge: UInt16
    /// An attempt is in flight and the call waits for its answer.
    var awaiting: Bool = false
    /// The next call waiting for a concurrency slot of the same edge (`UInt32.max`: none).
    var nextWaiting: UInt32 = .max
}
