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
    /// What the event concerns: an operation's slot for the clients' events, but the population
    /// for an `arrival` and the client for a closed-loop `workload` event; in a server model's own
    /// events, the request's slot (a call graph's `send` and `timeout`: the call's).
    package var slot: UInt32
    /// The slot's generation when the event was scheduled.
    package var generation: UInt32

    @inline(__always) package var kind: EventKind { EventKind(rawValue: UInt8(truncatingIfNeeded: order))! }
    /// The event's extra byte: a response code, a query flag, a ``WorkloadEvent``, or what a server
    /// model packs into its own events.
    @inline(__always) package var aux: UInt8 { UInt8(truncatingIfNeeded: order >> 8) }

    @inline(__always) package static func < (a: Event, b: Event) -> Bool {
        a.time < b.time || (a.time == b.time && a.order < b.order)
    }
}

/// What an event does when its time comes.
package enum EventKind: UInt8 {
    /// An open-loop workload's next operation arrives and starts (slot = the population), its
    /// first attempt at once: a first attempt is never a `send`.
    case arrival = 0
    /// A send is due for the slot's operation (``Simulation/send(_:_:_:_:)``); stale, and
    /// ignored, once the slot's generation has moved on. Scheduled for:
    /// - a retry after its backoff, or after a credential refresh (the policy's `retry`,
    ///   `refreshCredentials`);
    /// - a status query (`reconcile`): the send asks whether the ambiguous write was applied;
    /// - a send held back: the policy's `admit` said wait until a time (the library's policy: its
    ///   breaker is open);
    /// - a waiter woken, at once, when a slot of its host's concurrency limit frees;
    /// - an operation moved on by the end of the offline window (`clients.offline` with `nudge`)
    ///   or by a restart wave (from its record, as the policy's `restart` says);
    /// - a hedged operation's next copy: the timer of its latest copy (while copies are out, the
    ///   send is the next copy, if `admitCopy` lets it go).
    /// A status query goes out as it is; every other send but a copy asks the policy again
    /// (`admit`). Under `clients.deadline`, a retry or a send held back that would come at or
    /// after the deadline comes at the deadline instead and ends the operation there, as a woken
    /// waiter's send past the deadline does. A call graph
    /// schedules the same kind in its own timing wheel for its calls (slot = the call,
    /// ``GraphServer/sendCall(_:_:_:_:_:)``): a retry (a credential refresh renews nothing
    /// there: called services check no caller's credentials), a status query, a send held back,
    /// a waiter woken and a hedged copy's timer; its request's deadline, when propagated, bounds
    /// its sends the same way.
    case send = 1
    /// The timeout of an attempt, a hedged copy or a status query expires at its client (cut to
    /// the operation's deadline, if any); in a call graph, a call's attempt or copy times out at
    /// the calling service (slot = the call; cut to its request's deadline when the edge
    /// propagates it).
    case timeout = 2
    /// A server model's own event, kept in its own queue, never on the agenda: a worker finishes
    /// a request or a rejection's work, a flaky server's answer is due, a contention request
    /// moves to its next stage (read, write at the row, answer).
    case serviceDone = 3
    /// A request reaches the server after its network hop (the query flag in `aux`).
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
