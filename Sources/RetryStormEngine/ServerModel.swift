import GSLSupport

/// A request as the server sees it.
struct Request {
    var slot: UInt32
    var generation: UInt32
    /// When its client will stop waiting (`Int64.max`: never). Servers that honour deadlines read it.
    var deadline: Int64
}

/// The server's answer to one request.
struct Response {
    var slot: UInt32
    var generation: UInt32
    /// An HTTP status: 200 for success.
    var status: Int16
    /// The server's Retry-After, nanoseconds; negative for none.
    var retryAfter: Int64
    /// Refused without being served (a full queue, a rate limit): no work was done for it.
    var rejected: Bool
}

/// One kind of modelled server (one small protocol per extension point). A new model is a new
/// conforming type; the engine is generic over it, so calls are direct, never through an existential.
protocol ServerModel: ~Copyable {
    /// A request arrives at `now`. Returns an immediate answer (e.g. a rejection) or nil if the answer comes later.
    mutating func receive(_ r: Request, now: Int64, agenda: inout Agenda,
                          random: borrowing RandomStream, recorder: borrowing Recorder) -> Response?

    /// The server's earliest pending event (it keeps its own, created with `agenda.make`), if any.
    func peekEvent() -> Event?

    /// Its earliest event is due: remove and handle it. Returns the answer it produces, if any.
    mutating func handleNext(now: Int64, agenda: inout Agenda,
                             random: borrowing RandomStream, recorder: borrowing Recorder) -> Response?

    /// Requests waiting (not in service).
    var queueLength: Int { get }
    /// Requests in service.
    var inService: Int { get }
    var allocatedBytes: Int { get }
}
