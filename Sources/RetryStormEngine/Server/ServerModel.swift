import GSLSupport

/// One kind of modelled server (one small protocol per extension point). A new model is a new
/// conforming type; the engine is generic over it, so calls are direct, never through an
/// existential. A model owns its random streams and its pending events; it reports what happened
/// to requests through the sink. The recorder comes `inout`: counting writes to it (and, borrowed
/// beside the `inout` agenda and sink, all three stored in the simulation, it was copied — 180
/// bytes — on every call).
///
/// The core a model must write is receiving a request, its own pending events, and the counts the
/// results need (``inService``, ``admitted``). The rest — settling ahead,
/// prefetch hints, a queue's length and its area — are hooks with defaults for a model that has
/// no queue and no shortcut (the `flaky` and `contention` models write none of them). What stands
/// in front of every model (credentials, the rate limiter, the error mix) is ``FrontDoor``.
protocol ServerModel: ~Copyable {
    /// A request arrives at `now`. A model set up to settle requests on arrival returns when its
    /// answer reaches the client if that is before the client's deadline and the horizon, and
    /// reports nothing more about it; otherwise it returns `Int64.max` and reports through events
    /// and the sink.
    mutating func receive(_ r: Request, now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) -> Int64

    /// The server's earliest pending event (it keeps its own, created with `agenda.make`), if any.
    func peekEvent() -> Event?

    /// Its earliest event is due: remove and handle it.
    mutating func handleNext(now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink)

    /// Requests in service.
    var inService: Int { get }
    /// Requests admitted to wait or be served (the denominator of Little's law).
    var admitted: Int64 { get }

    // Hooks with defaults (see the extension below).

    /// Whether the model settles requests as they arrive, returning their answer time from
    /// `receive` (set up so only where ``Simulation/canSettleAhead(_:_:)`` holds); the engine then
    /// settles attempts ahead (``RunFeatures/settleAhead``). Default: false.
    var settleAhead: Bool { get }
    /// A slot the server will report on soon but not next (the request it starts after the one in
    /// service), for prefetching; nil if it cannot tell. Default: nil.
    func upcomingSlot() -> UInt32?
    /// Requests waiting (not in service) just before `t`, which is at or after every earlier call's
    /// `t` and the last event handled. Default: 0 (no queue).
    mutating func queueLength(before t: Int64) -> Int
    /// When the server last finished (or will finish) a request it served, nanoseconds, up to the
    /// horizon (else 0): with the last operation's end, when a run that ran out of work ended.
    /// Default: 0 (the last operation's end alone).
    var busyUntil: Int64 { get }
    /// ∫ queue length dt so far, request·seconds (for the mean wait by Little's law). Default: 0
    /// (no queue).
    func waitingArea(until now: Int64) -> Double
    /// A request was rejected at `now` in front of the model (a 429 of the rate limiter): a model
    /// whose rejections cost work (`server.reject_cost`) charges it. Default: nothing (free).
    mutating func rejected(now: Int64, agenda: inout Agenda)
    /// Each service's result once the run is over, the first from `first` (the run's recorder):
    /// a call graph's (``GraphServer``). Default: none (one hop).
    mutating func serviceResults(_ scenario: Scenario, first: borrowing Recorder) -> [ServiceResult]
    /// Each edge's result once the run is over: a call graph's (``GraphServer``). Default: none.
    func edgeResults(_ scenario: Scenario) -> [EdgeResult]
    /// Whether the model has outgrown the memory it may use (``EngineOptions/graphMemory``): the
    /// loop then stops. Asked every 65,536 events. Default: never (a one-hop model's tables are
    /// bounded by the estimate that let the run start).
    var exhausted: Bool { get }
    /// Request `r`'s client no longer wants it, nor any earlier request of its slot (the copies of
    /// a hedged operation, one of which succeeded): one still waiting leaves unserved (reported
    /// dropped), one in service finishes. Default: nothing (every request is served).
    mutating func cancel(_ r: Request)
    /// The clients will cancel requests (they hedge): a model that must prepare to find them does so
    /// now, before the first request. Default: nothing.
    mutating func expectCancellations()
    /// The first conservation law of the model's own that does not hold (a call graph's per
    /// service and per edge), or nil; `atEnd` adds the checks that walk whole tables. Asked after
    /// every event when the run checks its invariants (``EngineOptions/checkInvariants``) and
    /// once at the end. Default: nil (a one-hop model has none beyond the simulation's).
    mutating func invariantViolation(atEnd: Bool) -> String?
}

extension ServerModel where Self: ~Copyable {
    var settleAhead: Bool { false }
    @inline(__always) func upcomingSlot() -> UInt32? { nil }
    func queueLength(before t: Int64) -> Int { 0 }
    var busyUntil: Int64 { 0 }
    func waitingArea(until now: Int64) -> Double { 0 }
    @inline(__always) mutating func rejected(now: Int64, agenda: inout Agenda) {}
    mutating func serviceResults(_ scenario: Scenario, first: borrowing Recorder) -> [ServiceResult] { [] }
    func edgeResults(_ scenario: Scenario) -> [EdgeResult] { [] }
    @inline(__always) var exhausted: Bool { false }
    @inline(__always) mutating func cancel(_ r: Request) {}
    mutating func expectCancellations() {}
    mutating func invariantViolation(atEnd: Bool) -> String? { nil }
}
