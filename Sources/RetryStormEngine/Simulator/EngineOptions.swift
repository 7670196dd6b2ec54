import GSLSupport
import RetryPolicy

/// How the engine runs a replication. None of these changes what is simulated; the defaults are
/// the fast way, the others are for checking it and measuring it.
package struct EngineOptions: Sendable, Hashable {
    /// Verify the conservation laws after every event (slower).
    package var checkInvariants: Bool
    /// Where events at arbitrary times wait; the wheel unless measuring the choice.
    package var eventQueue: EventQueueKind
    /// Simulate every happening as a queued event: a FIFO queue served event by event
    /// (``QueueServer``) rather than solved on arrival (``FIFOQueueServer``), and no attempt
    /// outcome settled when the attempt is sent (``RunFeatures/settleAhead``). Slower; the results
    /// agree exactly where no random draw changes place and in distribution otherwise.
    package var allEvents: Bool
    /// The most events one replication may process: a safety net behind the estimate that
    /// refuses such work up front (``ResourceEstimate/maxEvents``). A replication that reaches it
    /// stops and says so in ``ReplicationResult/eventLimitReached``.
    package var maxEvents: Int64
    /// The most bytes a call graph's own tables may take in one replication (its requests' and
    /// calls' records, its services' waiting requests), checked every 65,536 events: a safety net
    /// behind the resource estimate, whose bound for a graph's backlog is loose. A replication
    /// that passes it stops and says so in ``ReplicationResult/memoryLimitReached``, rather than
    /// die when an allocation fails. One-hop runs never read it.
    package var graphMemory: Int

    package init(
        checkInvariants: Bool = false, eventQueue: EventQueueKind = .wheel, allEvents: Bool = false,
        maxEvents: Int64 = .max, graphMemory: Int = .max
    ) {
        self.checkInvariants = checkInvariants
        self.eventQueue = eventQueue
        self.allEvents = allEvents
        self.maxEvents = maxEvents
        self.graphMemory = graphMemory
    }
}

/// The structure that holds events scheduled for arbitrary times (retries after backoff).
package enum EventQueueKind: String, Sendable, CaseIterable {
    /// A calendar queue: O(1) to schedule, a small heap per bucket to pop (the default).
    case wheel
    /// One 4-ary min-heap of all of them: O(log n) both ways.
    case heap
}
