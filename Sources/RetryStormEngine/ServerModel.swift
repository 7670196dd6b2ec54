import GSLSupport

/// A request as the server sees it.
struct Request {
    var slot: UInt32
    var generation: UInt32
    /// When its client will stop waiting (`Int64.max`: never). Servers that honour deadlines read it.
    var deadline: Int64
    /// A status query (reconciliation), not a write: it is served but applies nothing.
    var query: Bool
}

/// What a server answers. Each code knows whether the request was processed at all.
package enum ResponseCode: UInt8 {
    /// 200: done (a write is applied).
    case ok = 0
    /// 503 from a full queue: refused without processing.
    case shed = 1
    /// 429 from the rate limiter: refused without processing.
    case rateLimited = 2
    /// 401: the client's credentials expired; refused without processing.
    case unauthorized = 3
    /// 400: processed, and wrong.
    case badRequest = 4
    /// 500: processed, failed.
    case serverError = 5
    /// 409: the optimistic write lost a race (contention).
    case conflict = 6

    var status: Int {
        switch self {
        case .ok: 200
        case .shed: 503
        case .rateLimited: 429
        case .unauthorized: 401
        case .badRequest: 400
        case .serverError: 500
        case .conflict: 409
        }
    }

    /// Refused without any work done for it.
    var unprocessed: Bool { self == .shed || self == .rateLimited || self == .unauthorized }

    /// Decodes a code this module packed into an event's aux byte. Every packer stores a
    /// `rawValue`, so another value means a corrupted event: a bug, stopped here rather than
    /// answered with a guessed code.
    @inline(__always) package init(packed raw: UInt8) {
        guard let code = ResponseCode(rawValue: raw) else { preconditionFailure("corrupt packed response code \(raw)") }
        self = code
    }
}

/// What a server call produced, for the engine to act on after it returns.
struct ServerNote {
    enum Kind: UInt8 {
        /// An answer for the request's client (it may arrive after the client gave up).
        case response
        /// The request was applied but its answer is lost: the client will time out not knowing.
        case lost
        /// The request was dropped unserved (its deadline had passed).
        case dropped
    }

    var slot: UInt32
    var generation: UInt32
    var kind: Kind
    var code: ResponseCode
    var query: Bool
}

/// The notes of one server call: a small reusable buffer, so no call allocates.
struct ServerSink: ~Copyable {
    var notes: RawBuffer<ServerNote>

    init() { notes = RawBuffer(capacity: 16) }

    @inline(__always) mutating func respond(_ r: Request, _ code: ResponseCode) {
        notes.append(ServerNote(slot: r.slot, generation: r.generation, kind: .response, code: code, query: r.query))
    }

    @inline(__always) mutating func lost(_ r: Request) {
        notes.append(ServerNote(slot: r.slot, generation: r.generation, kind: .lost, code: .ok, query: r.query))
    }

    @inline(__always) mutating func dropped(_ r: Request) {
        notes.append(ServerNote(slot: r.slot, generation: r.generation, kind: .dropped, code: .ok, query: r.query))
    }
}

/// One kind of modelled server (one small protocol per extension point). A new model is a new
/// conforming type; the engine is generic over it, so calls are direct, never through an
/// existential. A model owns its random streams and its pending events; it reports what happened
/// to requests through the sink. The recorder comes `inout`: counting writes to it (and, borrowed
/// beside the `inout` agenda and sink, all three stored in the simulation, it was copied — 180
/// bytes — on every call).
protocol ServerModel: ~Copyable {
    /// Whether the model settles requests as they arrive, returning their answer time from
    /// `receive` (set up so only where ``Simulation/canSettleAhead(_:)`` holds); the engine then
    /// settles attempts ahead (``Simulation/settleAhead``).
    var settleAhead: Bool { get }

    /// A request arrives at `now`. A model set up to settle requests on arrival returns when its
    /// answer reaches the client if that is before the client's deadline and the horizon, and
    /// reports nothing more about it; otherwise it returns `Int64.max` and reports through events
    /// and the sink.
    mutating func receive(_ r: Request, now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) -> Int64

    /// The server's earliest pending event (it keeps its own, created with `agenda.make`), if any.
    func peekEvent() -> Event?

    /// A slot the server will report on soon but not next (the request it starts after the one in
    /// service), for prefetching; nil if it cannot tell.
    func upcomingSlot() -> UInt32?

    /// Its earliest event is due: remove and handle it.
    mutating func handleNext(now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink)

    /// Requests waiting (not in service) just before `t`, which is at or after every earlier call's
    /// `t` and the last event handled.
    mutating func queueLength(before t: Int64) -> Int
    /// When the server last finished (or will finish) a request it served, nanoseconds, up to the
    /// horizon (else 0): with the last operation's end, when a run that ran out of work ended.
    var busyUntil: Int64 { get }
    /// Requests in service.
    var inService: Int { get }
    /// ∫ queue length dt so far, request·seconds (for the mean wait by Little's law); 0 if not kept.
    func waitingArea(until now: Int64) -> Double
    /// Requests admitted to wait or be served (the denominator of Little's law).
    var admitted: Int64 { get }
    var allocatedBytes: Int { get }
}
