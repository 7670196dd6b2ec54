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
