import GSLSupport

/// The `flaky` server model: no capacity limit; each attempt fails independently with probability
/// `failure` (500) and is answered after `latency`. With k retries the expected attempts per
/// operation are 1 + f + … + f^k — the arithmetic of retry amplification.
struct FlakyServer: ServerModel, ~Copyable {
    let failure: Double
    let latency: Int64
    private let random: RandomStream
    /// Answers in time order (the latency is constant), the code in the aux byte.
    private var pending: Ring<Event>
    private(set) var admitted: Int64 = 0
    /// When it last answered a request it served, nanoseconds (0: none yet). A call graph's
    /// ``GraphServer/busyUntil`` reads it for its flaky services; one hop keeps the protocol's
    /// default (0), as it always has, so its outputs do not change.
    private(set) var lastServedAt: Int64 = 0

    init(_ m: Scenario.FlakyModel, random: consuming RandomStream) {
        failure = m.failure
        latency = m.latency
        self.random = random
        pending = Ring(capacity: 1024)
    }

    var inService: Int { pending.count }
    /// Bytes its pending answers hold.
    var allocatedBytes: Int { pending.allocatedBytes }
    @inline(__always) func peekEvent() -> Event? { pending.peekFront() }

    mutating func receive(_ r: Request, now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) -> Int64 {
        recorder.offered()
        admitted &+= 1
        let code: ResponseCode = random.bernoulli(failure) ? .serverError : .ok
        if latency == 0 {
            recorder.count(.served)
            lastServedAt = now
            sink.respond(r, code)
            return .max
        }
        pending.pushBack(
            agenda.make(
                time: now &+ latency, kind: .serviceDone, slot: r.slot, generation: r.generation,
                aux: code.rawValue << 1 | (r.query ? 1 : 0)))
        return .max
    }

    mutating func handleNext(now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) {
        let e = pending.popFrontUnchecked()
        recorder.count(.served)
        lastServedAt = now
        sink.respond(
            Request(slot: e.slot, generation: e.generation, deadline: 0, query: e.aux & 1 != 0),
            ResponseCode(packed: e.aux >> 1))
    }
}
