/// One scheduled event: 24 bytes, no references.
///
/// Events order by (time, sequence): `order` holds the sequence number in its upper 48 bits, a
/// byte of event-specific data (`aux`) and the kind in the lower 16, and sequence numbers are unique, so ties in time pop first-in first-out
/// and every run is reproducible. Events are never removed from the queue: a superseded one (the
/// timeout of an attempt that already got its response) carries a stale `generation` and is
/// ignored when it pops.
package struct Event: Comparable {
    /// Virtual time, nanoseconds.
    package var time: Int64
    package var order: UInt64
    /// The operation slot (or request) the event concerns.
    package var slot: UInt32
    /// The slot's generation when the event was scheduled.
    package var generation: UInt32

    @inline(__always) package var kind: EventKind { EventKind(rawValue: UInt8(truncatingIfNeeded: order))! }
    /// The event's extra byte (a response code, a query flag).
    @inline(__always) package var aux: UInt8 { UInt8(truncatingIfNeeded: order >> 8) }

    @inline(__always) package static func < (a: Event, b: Event) -> Bool {
        a.time < b.time || (a.time == b.time && a.order < b.order)
    }
}

/// What an event does when its time comes.
package enum EventKind: UInt8 {
    /// The workload's next operation starts.
    case arrival = 0
    /// An operation's next attempt is due (backoff elapsed, breaker wait over).
    case send = 1
    /// An attempt's client-side timeout expires.
    case timeout = 2
    /// A server model's own event (a worker finishes a request, a write reaches the row).
    case serviceDone = 3
    /// A request reaches the server after its network hop.
    case deliverRequest = 4
    /// A response reaches its client after its network hop (the code in `aux`).
    case deliverResponse = 5
    /// An offline client's connect attempt times out.
    case connectTimeout = 6
    /// A workload happening: a closed-loop client's next operation (slot = client), the end of an
    /// offline window, a restart wave.
    case workload = 7
}

/// Events earliest first by (time, sequence): the engine's one heap (``MinHeap``) over events.
package typealias EventHeap = MinHeap<Event>
