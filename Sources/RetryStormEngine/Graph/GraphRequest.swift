/// One request at a service of the call graph, from its arrival until its answer: who sent it,
/// when it arrived and, once its own work is done, which of its service's calls it is making. 32
/// bytes (the fields in this order: `left` fills the gap before `arrival`): a collapsed service
/// holds millions of them, and 40 bytes cost the four-service benchmark 0.25 GiB and 9% of its
/// time. Its deadline, which only an edge that propagates deadlines reads, is kept apart
/// (``GraphServer/deadlines``).
struct GraphRequest: GenerationTagged {
    var generation: UInt32 = 0
    /// The sender: a client operation's slot at the first service, else a ``GraphCall``'s slot.
    var parent: UInt32
    /// The sender's attempt generation, which its answer must carry.
    var parentGeneration: UInt32
    /// Calls still to make after the one in flight (sequential entries), or calls still open plus
    /// one while a fan-out is being sent (parallel entries).
    var left: UInt32 = 0
    /// When it arrived at its service, nanoseconds: its latency (services.csv) runs from here to
    /// its answer, drop or loss.
    var arrival: Int64
    /// The service it is at, by the graph's number (queues first, ``GraphServer/queueCount``),
    /// which differs from the scenario's order when a flaky leaf comes before a queue.
    var service: UInt8
    /// A status query of a client (reconciliation) rather than a write.
    var query: Bool
    /// Its own work is done and it is making its calls: its service's queue is done with it, so a
    /// hedged copy cancelled now goes on as wasted work.
    var calling = false
    /// The `calls[]` entry of its service it is making (once its own work is done).
    var step: UInt8 = 0
    /// The first failed call's code, the request's answer once its open calls end (0: none failed).
    var failure: UInt8 = 0
    /// Its caller cancelled it (``GraphServer/cancelRequest(_:_:_:)``): it makes no calls, and
    /// its answer, if it still comes, is wasted.
    var cancelled = false
}
