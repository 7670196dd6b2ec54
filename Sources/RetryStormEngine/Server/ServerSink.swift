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
