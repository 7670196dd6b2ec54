import RetryPolicy

/// One call a request makes downstream: an operation of its edge's retry policy, run by the
/// calling service, from the first attempt until it succeeds or the policy stops. 128 bytes (the
/// fields in this order fill the gaps around the record): two cache lines, which
/// ``SlotTable/prefetch(_:)`` loads.
struct GraphCall: GenerationTagged {
    /// Bumped when an attempt or status query starts and when the call ends; events and answers
    /// carry the value they saw.
    var generation: UInt32 = 0
    /// The generation of the call's first attempt: a write applied with an older one was another
    /// call's, of a slot since reused (as ``OperationBody/firstGeneration`` at the clients).
    var firstGeneration: UInt32 = 0
    /// The policy library's state for this call.
    var record: OperationRecord
    /// Times the called service applied one of the call's writes (saturating): what a status
    /// query finds (``RetryDecision/reconcile(at:)``).
    var applied: UInt8 = 0
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
    /// An attempt or status query is in flight and the call waits for its answer.
    var awaiting: Bool = false
    /// The call's next send is a status query, or the one in flight is: its policy reconciles an
    /// ambiguous failure, as a client's does.
    var reconciling: Bool = false
    /// The next call waiting for a concurrency slot of the same edge (`UInt32.max`: none).
    var nextWaiting: UInt32 = .max
}

extension GraphCall {
    /// `t` moved back to the calling request's deadline if it is later: the deadline rule of a
    /// call's sends and attempts' timeouts, as ``Simulation/cutToDeadline(_:_:)`` is a client's.
    @inline(__always) func cut(_ t: Int64) -> Int64 { min(t, parentDeadline) }

    /// Whether no send of the call may start at `now`: its request's deadline has passed.
    @inline(__always) func hasPassedDeadline(_ now: Int64) -> Bool { now >= parentDeadline }
}
