/// One `calls[]` entry of a service as the graph runs it (the policy and its guard are kept beside
/// it, by the same index).
struct GraphEdge {
    /// The called service.
    var to: UInt8
    /// Calls per request, at least 1.
    var count: UInt32
    /// The calls go out at once (fan-out) rather than one after another; so do those of an
    /// entry that shares its stage with another.
    var parallel: Bool
    /// The index among its service's entries of the first entry after its stage (one more than
    /// its own unless it shares its stage, ``Scenario/Call/stage``).
    var stageEnd: UInt8
    /// Each attempt's timeout, nanoseconds (`Int64.max`: none).
    var timeout: Int64
    /// The calling request's answer when a call of this entry fails after its retries.
    var failure: ResponseCode
    /// Calls carry the calling request's deadline (`deadline: propagate`).
    var propagate: Bool
    /// An attempt the caller abandons is cancelled at the called service (`cancellation: propagate`).
    var cancels: Bool = false
    /// Its policy hedges (``RetryPolicy/hedging``): its calls send copies, kept in ``HedgeCopies``.
    var hedged: Bool = false
    /// Its policy sends no idempotency key: a write the called service applies twice for one
    /// call is a duplicate (``Counter/duplicates``), as at the clients.
    var countsDuplicates: Bool = false
    /// Calls of this edge waiting for a concurrency slot: first and last (`UInt32.max`: none).
    var waitHead: UInt32 = .max
    var waitTail: UInt32 = .max
}

/// What the graph needs to know of a service on every answer.
struct ServicePlan {
    /// Its first `calls[]` entry's index among the graph's edges, and how many entries it has.
    var firstEdge: UInt16
    var edges: UInt8
    /// Its requests keep their worker while they call (thread-per-request).
    var holdsWorkers: Bool
}
