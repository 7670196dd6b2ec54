import GSLSupport

/// The `contention` server model: optimistic concurrency on one shared row, after the simulator
/// behind the AWS Architecture Blog's "Exponential Backoff And Jitter" (2015). An attempt is a read
/// then a conditional write: the request travels to the row (one hop), reads its version, the
/// version travels back to the client (a hop), the client writes it back (a hop); the write
/// succeeds only if the version is unchanged — no other write came in between — else 409; the
/// answer travels back (a hop). Every hop is a draw from `hop` (|N(10 ms, 2 ms)| in the article).
/// Capacity is not a limit here: contention is.
struct ContentionServer: ServerModel, ~Copyable {
    let hop: Scenario.Delay
    private let random: RandomStream
    private var pending: EventHeap
    /// The version each in-flight attempt read, by operation slot.
    private var readVersion: RawBuffer<UInt64>
    private var version: UInt64 = 0
    private(set) var admitted: Int64 = 0

    /// The stage of an attempt, in the low bits of its events' aux byte (bit 7: query).
    enum Stage: UInt8 {
        case read = 0
        case write = 1
        case answer = 2

        /// Decodes a stage this model packed into an event; another value is a corrupted event.
        init(packed raw: UInt8) {
            guard let stage = Stage(rawValue: raw) else { preconditionFailure("corrupt contention stage \(raw)") }
            self = stage
        }
    }

    init(_ m: Scenario.ContentionModel, random: consuming RandomStream) {
        hop = m.hop
        self.random = random
        pending = EventHeap(capacity: 1024)
        readVersion = RawBuffer(capacity: 1024)
    }

    var inService: Int { pending.count }
    @inline(__always) func peekEvent() -> Event? { pending.peek() }

    mutating func receive(_ r: Request, now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) -> Int64 {
        admitted &+= 1
        pending.push(
            agenda.make(
                time: now &+ hop.sample(random), kind: .serviceDone, slot: r.slot, generation: r.generation,
                aux: Stage.read.rawValue | (r.query ? 0x80 : 0)))
        return .max
    }

    mutating func handleNext(now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) {
        let e = pending.peek()!
        pending.removeMinUnchecked()
        let query = e.aux & 0x80 != 0
        switch Stage(packed: e.aux & 0x0F) {
        case .read:
            while readVersion.count <= Int(e.slot) { readVersion.append(0) }
            readVersion[Int(e.slot)] = version
            // The version goes back to the client, which sends the conditional write.
            let back = hop.sample(random)
            let forth = hop.sample(random)
            pending.push(
                agenda.make(
                    time: now &+ back &+ forth, kind: .serviceDone, slot: e.slot, generation: e.generation,
                    aux: (query ? Stage.answer.rawValue : Stage.write.rawValue) | (query ? 0x80 : 0) | (ResponseCode.ok.rawValue << 4)))
        case .write:
            // The write is the call the article counts: it is what reaches the row.
            recorder.offered()
            recorder.count(.served)
            let code: ResponseCode
            if readVersion[Int(e.slot)] == version {
                version &+= 1
                code = .ok
            } else {
                code = .conflict
            }
            pending.push(
                agenda.make(
                    time: now &+ hop.sample(random), kind: .serviceDone, slot: e.slot, generation: e.generation,
                    aux: Stage.answer.rawValue | (code.rawValue << 4)))
        case .answer:
            sink.respond(
                Request(slot: e.slot, generation: e.generation, deadline: 0, query: query),
                ResponseCode(packed: (e.aux >> 4) & 0x07))
        }
    }
}
