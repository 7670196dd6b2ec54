import RetryPolicy

/// What every event checks first about an operation: 8 bytes, kept apart from the rest so that
/// the checks that end most stale events (a late answer, a superseded timeout) touch a small,
/// cache-friendly array.
struct OperationHeader {
    /// Bumped when an attempt starts and when the slot is freed; events carry the value they saw.
    var generation: UInt32
    /// The owning client in the low 31 bits; the top bit is set while an attempt is in flight and
    /// its client still waits for the answer.
    var clientAndAwaiting: UInt32

    @inline(__always) var client: UInt32 { clientAndAwaiting & 0x7FFF_FFFF }
    @inline(__always) var awaiting: Bool {
        get { clientAndAwaiting & 0x8000_0000 != 0 }
        set { clientAndAwaiting = newValue ? clientAndAwaiting | 0x8000_0000 : clientAndAwaiting & 0x7FFF_FFFF }
    }
}

/// The rest of an operation: the policy's record and when the operation started.
struct OperationBody {
    /// The policy library's state for this operation: the same type an app persists.
    var record: OperationRecord
    /// When the operation started.
    var createdAt: Int64
}

/// Operations in flight, in a slab with a free list: a slot is reused as soon as its operation ends,
/// so memory follows the peak number of concurrent operations, not the total.
struct OperationTable: ~Copyable {
    private var headers: RawBuffer<OperationHeader>
    private var bodies: RawBuffer<OperationBody>
    private var free: RawBuffer<UInt32>
    /// Operations currently allocated.
    private(set) var live = 0

    init(capacity: Int) {
        headers = RawBuffer(capacity: capacity)
        bodies = RawBuffer(capacity: capacity)
        free = RawBuffer(capacity: 64)
    }

    var allocatedBytes: Int { headers.allocatedBytes + bodies.allocatedBytes + free.allocatedBytes }

    /// Slot `i`'s header; valid until the next `allocate`.
    @inline(__always) func header(_ i: UInt32) -> UnsafeMutablePointer<OperationHeader> { headers.base + Int(i) }

    /// Slot `i`'s body; valid until the next `allocate`.
    @inline(__always) func body(_ i: UInt32) -> UnsafeMutablePointer<OperationBody> { bodies.base + Int(i) }

    /// A fresh slot for an operation of `client` (< 2^31) created at `now`.
    @inline(__always) mutating func allocate(client: UInt32, now: Int64) -> UInt32 {
        live += 1
        let body = OperationBody(record: OperationRecord(), createdAt: now)
        if free.count > 0 {
            let i = free.removeLast()
            headers[Int(i)].clientAndAwaiting = client
            bodies[Int(i)] = body
            return i
        }
        let i = UInt32(headers.count)
        headers.append(OperationHeader(generation: 0, clientAndAwaiting: client))
        bodies.append(body)
        return i
    }

    /// Ends slot `i`'s operation; events still scheduled for it become stale.
    @inline(__always) mutating func release(_ i: UInt32) {
        let h = headers.base + Int(i)
        h.pointee.generation &+= 1
        h.pointee.awaiting = false
        live -= 1
        free.append(i)
    }
}
