import RetryPolicy

/// One logical operation in flight: the policy's record plus what the engine needs around it.
struct OperationSlot {
    /// The policy library's state for this operation: the same type an app persists.
    var record: OperationRecord
    /// When the operation started.
    var createdAt: Int64
    /// The client that owns it.
    var client: UInt32
    /// Bumped when an attempt starts and when the slot is freed; events carry the value they saw.
    var generation: UInt32
    /// An attempt is in flight and its client still waits for the answer.
    var awaiting: Bool
}

/// Operations in flight, in a slab with a free list: a slot is reused as soon as its operation ends,
/// so memory follows the peak number of concurrent operations, not the total.
struct OperationTable: ~Copyable {
    private(set) var slots: RawBuffer<OperationSlot>
    private var free: RawBuffer<UInt32>
    /// Operations currently allocated.
    private(set) var live = 0

    init(capacity: Int) {
        slots = RawBuffer(capacity: capacity)
        free = RawBuffer(capacity: 64)
    }

    var allocatedBytes: Int { slots.allocatedBytes + free.allocatedBytes }

    @inline(__always) subscript(i: UInt32) -> OperationSlot {
        get { slots[Int(i)] }
        nonmutating set { slots[Int(i)] = newValue }
    }

    /// A pointer to slot `i`, valid until the next `allocate`.
    @inline(__always) func pointer(_ i: UInt32) -> UnsafeMutablePointer<OperationSlot> { slots.base + Int(i) }

    /// A fresh slot for an operation of `client` created at `now`.
    @inline(__always) mutating func allocate(client: UInt32, now: Int64) -> UInt32 {
        live += 1
        if free.count > 0 {
            let i = free.removeLast()
            let p = slots.base + Int(i)
            p.pointee.record = OperationRecord()
            p.pointee.createdAt = now
            p.pointee.client = client
            p.pointee.awaiting = false
            return i
        }
        let i = UInt32(slots.count)
        slots.append(OperationSlot(record: OperationRecord(), createdAt: now, client: client, generation: 0, awaiting: false))
        return i
    }

    /// Ends slot `i`'s operation; events still scheduled for it become stale.
    @inline(__always) mutating func release(_ i: UInt32) {
        let p = slots.base + Int(i)
        p.pointee.generation &+= 1
        p.pointee.awaiting = false
        live -= 1
        free.append(i)
    }
}
