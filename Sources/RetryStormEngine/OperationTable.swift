import RetryPolicy

/// What every event checks first about an operation: 8 bytes, kept apart from the rest so that
/// the checks that end most stale events (a late answer, a superseded timeout) touch a small,
/// cache-friendly array.
struct OperationHeader {
    /// Bumped when an attempt starts, when a pending attempt is superseded (a nudge, a restart)
    /// and when the slot is freed; events carry the value they saw.
    var generation: UInt32
    /// The owning client in the low 31 bits; the top bit is set while an attempt (or status
    /// query) is in flight and its client still waits for the answer.
    var clientAndAwaiting: UInt32

    @inline(__always) var client: UInt32 { clientAndAwaiting & 0x7FFF_FFFF }
    @inline(__always) var awaiting: Bool {
        get { clientAndAwaiting & 0x8000_0000 != 0 }
        set { clientAndAwaiting = newValue ? clientAndAwaiting | 0x8000_0000 : clientAndAwaiting & 0x7FFF_FFFF }
    }
}

/// The rest of an operation: the policy's record and what the engine keeps around it.
struct OperationBody {
    /// The policy library's state for this operation: the same type an app persists.
    var record: OperationRecord
    /// When the operation started.
    var createdAt: Int64
    /// When the client stops waiting for the attempt in flight.
    var deadline: Int64
    /// The generation of the operation's first attempt: requests with an older one belong to an
    /// earlier operation of the slot.
    var firstGeneration: UInt32
    /// Writes of this operation the server applied (saturating).
    var applied: UInt16
    /// Requests of this operation the server has not finished with (on the wire, queued, in
    /// service), counted only when applied writes are tracked.
    var outstanding: UInt16
    /// The host (endpoint) it targets.
    var host: UInt16
    var flags: Flags

    struct Flags: OptionSet {
        let rawValue: UInt8
        /// Allocated to an operation that has not ended.
        static let live = Flags(rawValue: 1)
        /// Ended, but requests of it are still at the server: the slot waits for them before reuse.
        static let zombie = Flags(rawValue: 2)
        /// The next send is a status query (reconciliation), not an attempt.
        static let reconciling = Flags(rawValue: 4)
        /// Waiting for a concurrency slot of its host.
        static let waitingForSlot = Flags(rawValue: 8)
        /// Linked into its host's slot queue. A slot stays linked until popped, even if its
        /// operation stopped waiting or ended (it is then skipped), so it is never linked twice.
        static let inSlotQueue = Flags(rawValue: 32)
        /// Woken from that queue; its send event is on the agenda.
        static let woken = Flags(rawValue: 16)
    }
}

/// Operations in flight, in a slab with a free list: a slot is reused as soon as its operation
/// ends (and, when applied writes are tracked, its last request is done), so memory follows the
/// peak number of concurrent operations, not the total.
struct OperationTable: ~Copyable {
    private var headers: RawBuffer<OperationHeader>
    private var bodies: RawBuffer<OperationBody>
    /// The next slot in the same concurrency queue (`UInt32.max`: none).
    private(set) var nextWaiting: RawBuffer<UInt32>
    private var free: RawBuffer<UInt32>
    /// Operations currently allocated and not ended.
    private(set) var live = 0

    init(capacity: Int) {
        headers = RawBuffer(capacity: capacity)
        bodies = RawBuffer(capacity: capacity)
        nextWaiting = RawBuffer(capacity: capacity)
        free = RawBuffer(capacity: 64)
    }

    var allocatedBytes: Int { headers.allocatedBytes + bodies.allocatedBytes + nextWaiting.allocatedBytes + free.allocatedBytes }
    /// Slots ever allocated (live, zombie or free).
    var slotCount: Int { headers.count }

    /// Slot `i`'s header; valid until the next `allocate`.
    @inline(__always) func header(_ i: UInt32) -> UnsafeMutablePointer<OperationHeader> { headers.base + Int(i) }

    /// Slot `i`'s body; valid until the next `allocate`.
    @inline(__always) func body(_ i: UInt32) -> UnsafeMutablePointer<OperationBody> { bodies.base + Int(i) }

    /// A fresh slot for an operation of `client` (< 2^31) created at `now`.
    @inline(__always) mutating func allocate(client: UInt32, host: UInt16, lane: Lane, now: Int64) -> UInt32 {
        live += 1
        let i: UInt32
        if free.count > 0 {
            i = free.removeLast()
            headers[Int(i)].clientAndAwaiting = client
        } else {
            i = UInt32(headers.count)
            headers.append(OperationHeader(generation: 0, clientAndAwaiting: client))
            bodies.append(OperationBody(record: OperationRecord(), createdAt: 0, deadline: 0, firstGeneration: 0,
                                        applied: 0, outstanding: 0, host: 0, flags: []))
            nextWaiting.append(.max)
        }
        // A slot still linked into a slot queue stays linked: the flag must survive reuse.
        let linked = bodies[Int(i)].flags.intersection(.inSlotQueue)
        bodies[Int(i)] = OperationBody(
            record: OperationRecord(lane: lane), createdAt: now, deadline: .max,
            firstGeneration: headers[Int(i)].generation &+ 1, applied: 0, outstanding: 0, host: host,
            flags: linked.union(.live))
        return i
    }

    /// Ends slot `i`'s operation; events still scheduled for it become stale. With requests still
    /// at the server, the slot waits (a zombie) until ``requestDone(_:)`` has seen the last one.
    @inline(__always) mutating func release(_ i: UInt32) {
        let h = headers.base + Int(i)
        h.pointee.generation &+= 1
        h.pointee.awaiting = false
        live -= 1
        let b = bodies.base + Int(i)
        b.pointee.flags.remove(.live)
        if b.pointee.outstanding > 0 {
            b.pointee.flags.insert(.zombie)
        } else {
            free.append(i)
        }
    }

    /// One of slot `i`'s requests is done at the server (served, refused or dropped).
    @inline(__always) mutating func requestDone(_ i: UInt32) {
        let b = bodies.base + Int(i)
        if b.pointee.outstanding > 0 { b.pointee.outstanding -= 1 }
        if b.pointee.outstanding == 0 && b.pointee.flags.contains(.zombie) {
            b.pointee.flags.remove(.zombie)
            free.append(i)
        }
    }
}
