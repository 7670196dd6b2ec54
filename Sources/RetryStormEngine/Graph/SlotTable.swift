import CPrefetch

/// A table of trivial records in reusable slots, each with a generation: what the call graph
/// keeps of its requests and calls. A slot is reused only after ``release(_:)``, which bumps its
/// generation, so a stale reference (an answer for a request or call that ended) is told by its
/// generation. Grows by doubling; never shrinks.
struct SlotTable<Element: GenerationTagged>: ~Copyable {
    private var items: RawBuffer<Element>
    private var free: RawBuffer<UInt32>
    /// Slots in use.
    private(set) var live = 0
    /// Bytes the table holds (its records and its free list).
    var allocatedBytes: Int { items.allocatedBytes + free.allocatedBytes }

    init(capacity: Int) {
        items = RawBuffer(capacity: capacity)
        free = RawBuffer(capacity: 16)
    }

    /// Slot `i`'s record; valid until the next ``allocate(_:)``, which may move the table. `i`
    /// must be a slot the table has handed out (checked under the internal checks).
    @inline(__always) func at(_ i: UInt32) -> UnsafeMutablePointer<Element> {
        _internalInvariant(Int(i) < items.count, "SlotTable slot \(i) outside 0..<\(items.count)")
        return items.base + Int(i)
    }

    /// A slot holding `record` (whose generation is replaced by the slot's current one).
    @inline(__always) mutating func allocate(_ record: Element) -> UInt32 {
        live += 1
        var r = record
        if free.count > 0 {
            let i = free.removeLastUnchecked()
            r.generation = items[Int(i)].generation
            items[Int(i)] = r
            _checkInvariants()
            return i
        }
        r.generation = 0
        items.append(r)
        _checkInvariants()
        return UInt32(items.count - 1)
    }

    /// Ends slot `i`'s record: its generation moves on and the slot is free for reuse.
    @inline(__always) mutating func release(_ i: UInt32) {
        _internalInvariant(Int(i) < items.count, "release of SlotTable slot \(i) outside 0..<\(items.count)")
        live -= 1
        items[Int(i)].generation &+= 1
        free.append(i)
        _checkInvariants()
    }

    /// Starts loading slot `i`'s record into cache (both lines of a 128-byte record): for an
    /// event known to come soon, whose slot a collapse's millions would otherwise miss.
    @inline(__always) func prefetch(_ i: UInt32) {
        guard contains(i) else { return }
        rs_prefetch_write(UnsafeRawPointer(items.base + Int(i)))
        rs_prefetch_write(UnsafeRawPointer(items.base + Int(i)) + 64)
    }

    /// Whether slot `i` exists (in use or free).
    @inline(__always) func contains(_ i: UInt32) -> Bool { Int(i) < items.count }

    /// Whether slot `i` holds the record of generation `generation` (not one that ended).
    @inline(__always) func isCurrent(_ i: UInt32, _ generation: UInt32) -> Bool { items[Int(i)].generation == generation }

    /// Calls `body` with each slot in use, in slot order. O(slots): for checks at the end of a run.
    func forEachInUse(_ body: (Element) -> Void) {
        var isFree = [Bool](repeating: false, count: items.count)
        for k in 0..<free.count { isFree[Int(free[k])] = true }
        for i in 0..<items.count where !isFree[i] { body(items[i]) }
    }

    #if RETRYSTORM_INTERNAL_CHECKS
        /// Every slot handed out is in use or free, never both: O(1), after every change.
        @inline(never)
        func _checkInvariants() {
            precondition(live >= 0 && live + free.count == items.count, "SlotTable: \(live) in use + \(free.count) free ≠ \(items.count) slots")
        }

        /// Each free slot is listed once and within the table (so `live` counts the others). O(slots).
        @inline(never)
        func _checkAllInvariants() {
            _checkInvariants()
            var listed = [Bool](repeating: false, count: items.count)
            for k in 0..<free.count {
                let i = Int(free[k])
                precondition(i < items.count && !listed[i], "SlotTable: free slot \(i) out of range or listed twice")
                listed[i] = true
            }
        }
    #else
        @inline(__always) func _checkInvariants() {}
        @inline(__always) func _checkAllInvariants() {}
    #endif
}

/// A record of a ``SlotTable``: its generation is the table's to set.
protocol GenerationTagged {
    var generation: UInt32 { get set }
}
