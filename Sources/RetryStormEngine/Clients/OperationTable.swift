import CPrefetch
import RetryPolicy

/// Operations in flight, in a slab with a free list: a slot is reused as soon as its operation
/// ends (and, when applied writes are tracked, its last request is done), so memory follows the
/// peak number of concurrent operations, not the total.
struct OperationTable: ~Copyable {
    private var slots: UnsafeMutablePointer<OperationSlot>
    private var capacity: Int
    /// Slots ever allocated (live, zombie or free).
    private(set) var slotCount = 0
    private var free: RawBuffer<UInt32>
    /// Operations currently allocated and not ended.
    private(set) var live = 0

    init(capacity: Int) {
        precondition(MemoryLayout<OperationSlot>.stride == OperationSlot.alignment, "an operation slot must be 128 bytes")
        precondition(MemoryLayout<OperationSlot>.offset(of: \.header) == 0 && MemoryLayout<OperationSlot>.offset(of: \.body) == 8)
        self.capacity = max(16, capacity)
        slots = Self.allocateSlots(self.capacity)
        free = RawBuffer(capacity: 64)
    }

    deinit { LargeMemory.free(slots) }

    /// A table holding a copy of `other`'s slots, free list and counts (a snapshot's).
    init(copying other: borrowing OperationTable) {
        capacity = other.capacity
        slots = Self.allocateSlots(capacity)
        slots.initialize(from: other.slots, count: other.slotCount)
        slotCount = other.slotCount
        free = RawBuffer(copying: other.free)
        live = other.live
    }

    private static func allocateSlots(_ n: Int) -> UnsafeMutablePointer<OperationSlot> {
        LargeMemory.allocate(byteCount: n * OperationSlot.alignment, alignment: OperationSlot.alignment)
            .bindMemory(to: OperationSlot.self, capacity: n)
    }

    var allocatedBytes: Int { capacity * OperationSlot.alignment + free.allocatedBytes }

    /// Slot `i`'s header; valid until the next `allocate`.
    @inline(__always) func header(_ i: UInt32) -> UnsafeMutablePointer<OperationHeader> {
        UnsafeMutableRawPointer(slots + Int(i)).assumingMemoryBound(to: OperationHeader.self)
    }

    /// Slot `i`'s body; valid until the next `allocate`.
    @inline(__always) func body(_ i: UInt32) -> UnsafeMutablePointer<OperationBody> {
        (UnsafeMutableRawPointer(slots + Int(i)) + 8).assumingMemoryBound(to: OperationBody.self)
    }

    /// Slot `i`'s link in its concurrency queue.
    @inline(__always) func nextWaiting(_ i: UInt32) -> UInt32 { slots[Int(i)].nextWaiting }
    @inline(__always) func setNextWaiting(_ i: UInt32, _ next: UInt32) { slots[Int(i)].nextWaiting = next }

    /// Asks for slot `i`'s cache lines ahead of an event that will touch it (a hint only).
    @inline(__always) func prefetch(_ i: UInt32) {
        // Both lines: the second (the body's tail, with the flags) is not fetched with the first.
        rs_prefetch_write(UnsafeRawPointer(slots + Int(i)))
        rs_prefetch_write(UnsafeRawPointer(slots + Int(i)) + 64)
    }

    /// A fresh slot for an operation of `client` (< 2^31), of population `population`, created at `now`.
    @inline(__always) mutating func allocate(client: UInt32, population: UInt8 = 0, host: UInt16, lane: Lane, now: Int64) -> UInt32 {
        live += 1
        let i: UInt32
        if free.count > 0 {
            i = free.removeLastUnchecked()
        } else {
            if slotCount == capacity { grow() }
            i = UInt32(slotCount)
            (slots + slotCount).initialize(
                to: OperationSlot(
                    header: OperationHeader(generation: 0, clientAndAwaiting: 0),
                    body: OperationBody(
                        record: OperationRecord(), createdAt: 0, deadline: 0, firstGeneration: 0,
                        applied: 0, outstanding: 0, host: 0, flags: [], population: 0),
                    nextWaiting: .max))
            slotCount += 1
        }
        let s = slots + Int(i)
        s.pointee.header.clientAndAwaiting = client
        // A slot still linked into a slot queue stays linked: the flag must survive reuse.
        let linked = s.pointee.body.flags.intersection(.inSlotQueue)
        s.pointee.body = OperationBody(
            record: OperationRecord(lane: lane), createdAt: now, deadline: .max,
            firstGeneration: s.pointee.header.generation &+ 1, applied: 0, outstanding: 0, host: host,
            flags: linked.union(.live), population: population)
        _checkInvariants(slot: i)
        return i
    }

    private mutating func grow() {
        let fresh = Self.allocateSlots(capacity * 2)
        fresh.moveInitialize(from: slots, count: slotCount)
        LargeMemory.free(slots)
        slots = fresh
        capacity *= 2
    }

    /// Ends slot `i`'s operation; events still scheduled for it become stale. With requests still
    /// at the server, the slot waits (a zombie) until ``requestDone(_:)`` has seen the last one.
    @inline(__always) mutating func release(_ i: UInt32) {
        _internalInvariant(Int(i) < slotCount && body(i).pointee.flags.contains(.live), "release of slot \(i), which is not live")
        let h = header(i)
        h.pointee.generation &+= 1
        h.pointee.awaiting = false
        live -= 1
        let b = body(i)
        b.pointee.flags.remove(.live)
        if b.pointee.outstanding > 0 {
            b.pointee.flags.insert(.zombie)
        } else {
            free.append(i)
        }
        _checkInvariants(slot: i)
    }

    /// One of slot `i`'s requests is done at the server (served, refused or dropped).
    @inline(__always) mutating func requestDone(_ i: UInt32) {
        let b = body(i)
        if b.pointee.outstanding > 0 { b.pointee.outstanding -= 1 }
        if b.pointee.outstanding == 0 && b.pointee.flags.contains(.zombie) {
            b.pointee.flags.remove(.zombie)
            free.append(i)
        }
        _checkInvariants(slot: i)
    }

    #if RETRYSTORM_INTERNAL_CHECKS
        /// Slot `i` just changed: it is allocated, and it is live, a zombie waiting for requests at the
        /// server, or free — one of the three. O(1).
        @inline(never)
        func _checkInvariants(slot i: UInt32) {
            precondition(Int(i) < slotCount && slotCount <= capacity, "slot \(i) beyond the \(slotCount) allocated")
            precondition(
                live >= 0 && live <= slotCount && free.count <= slotCount - live, "\(live) live and \(free.count) free of \(slotCount) slots")
            let flags = body(i).pointee.flags
            precondition(!(flags.contains(.live) && flags.contains(.zombie)), "slot \(i) is live and a zombie")
            if flags.contains(.zombie) { precondition(body(i).pointee.outstanding > 0, "zombie slot \(i) has no request outstanding") }
        }

        /// Every slot is exactly one of live, zombie (ended, requests outstanding) or free (in the
        /// free list once), and `live` counts the live ones. O(slots).
        @inline(never)
        func _checkAllInvariants() {
            var isFree = [Bool](repeating: false, count: slotCount)
            for k in 0..<free.count {
                let i = Int(free[k])
                precondition(i < slotCount && !isFree[i], "free slot \(i) is out of range or listed twice")
                isFree[i] = true
            }
            var liveCount = 0
            for i in 0..<slotCount {
                let b = body(UInt32(i)).pointee
                let states = (b.flags.contains(.live) ? 1 : 0) + (b.flags.contains(.zombie) ? 1 : 0) + (isFree[i] ? 1 : 0)
                precondition(states == 1, "slot \(i) is in \(states) of the states live, zombie and free")
                if b.flags.contains(.zombie) { precondition(b.outstanding > 0, "zombie slot \(i) has no request outstanding") }
                if isFree[i] { precondition(b.outstanding == 0, "free slot \(i) has requests outstanding") }
                if b.flags.contains(.live) { liveCount += 1 }
            }
            precondition(liveCount == live, "\(liveCount) live slots, counted \(live)")
        }
    #else
        @inline(__always) func _checkInvariants(slot i: UInt32) {}
        @inline(__always) func _checkAllInvariants() {}
    #endif
}
