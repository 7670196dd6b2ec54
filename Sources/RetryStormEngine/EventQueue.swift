/// A min-heap of events keyed by (time, sequence): an implicit 4-ary heap.
///
/// A 4-ary heap halves the depth of a binary one and keeps the four children of a node in one
/// 96-byte span, so a sift-down touches fewer cache lines. Cancelled events are never removed
/// (they go stale by generation), so the heap needs only push and pop.
/// - Complexity: `push` and `popMin` are O(log n).
package struct EventHeap: ~Copyable {
    private var heap: RawBuffer<Event>

    package init(capacity: Int) { heap = RawBuffer(capacity: capacity) }

    package var count: Int { heap.count }
    package var allocatedBytes: Int { heap.allocatedBytes }

    @inline(__always) package mutating func push(_ e: Event) {
        heap.append(e)
        _checkInvariants(along: siftUp(heap.count - 1))
    }

    /// The earliest event without removing it.
    @inline(__always) package func peek() -> Event? { heap.count > 0 ? heap[0] : nil }

    /// Removes the earliest event. Unchecked: the heap must not be empty (the callers have just
    /// seen the event through ``peek()``); builds with RETRYSTORM_INTERNAL_CHECKS check it.
    @inline(__always) package mutating func removeMinUnchecked() {
        _internalInvariant(heap.count > 0, "removeMinUnchecked on an empty heap")
        let last = heap.removeLastUnchecked()
        if heap.count > 0 { _checkInvariants(along: siftDown(last)) }
    }

    /// Moves the element at `start` up to its place; returns that place.
    @discardableResult
    @inline(__always) private func siftUp(_ start: Int) -> Int {
        let h = heap.base
        var i = start
        let e = h[i]
        while i > 0 {
            let p = (i - 1) >> 2
            let pe = h[p]
            if !(e < pe) { break }
            h[i] = pe
            i = p
        }
        h[i] = e
        return i
    }

    /// Places `e` (the former last element) starting from the root; returns its place.
    @discardableResult
    @inline(__always) private func siftDown(_ e: Event) -> Int {
        let h = heap.base
        let n = heap.count
        var i = 0
        while true {
            let c = 4 * i + 1
            if c >= n { break }
            var m = c
            var me = h[c]
            let end = Swift.min(c + 4, n)
            var j = c + 1
            while j < end {
                let je = h[j]
                if je < me { m = j; me = je }
                j += 1
            }
            if !(me < e) { break }
            h[i] = me
            i = m
        }
        h[i] = e
        return i
    }

    #if RETRYSTORM_INTERNAL_CHECKS
    /// The heap order where a push or a removal moved elements: along the path from the root to
    /// `i` (the moved element's place), and between `i` and its children. O(log n).
    @inline(never)
    func _checkInvariants(along i: Int) {
        let h = heap.base
        precondition(i >= 0 && i < heap.count, "heap position \(i) outside 0..<\(heap.count)")
        var j = i
        while j > 0 {
            precondition(!(h[j] < h[(j - 1) >> 2]), "heap order broken between \(j) and its parent")
            j = (j - 1) >> 2
        }
        for c in Swift.stride(from: 4 * i + 1, to: Swift.min(4 * i + 5, heap.count), by: 1) {
            precondition(!(h[c] < h[i]), "heap order broken between \(i) and its child \(c)")
        }
    }

    /// Every element is at or after its parent, and earlier than `end`. O(n).
    @inline(never)
    package func _checkAllInvariants(before end: Int64 = .max) {
        let h = heap.base
        for j in 0..<heap.count {
            precondition(h[j].time < end || end == .max, "an event at \(h[j].time) ns, not before \(end) ns")
            if j > 0 { precondition(!(h[j] < h[(j - 1) >> 2]), "heap order broken between \(j) and its parent") }
        }
    }
    #else
    @inline(__always) func _checkInvariants(along i: Int) {}
    @inline(__always) package func _checkAllInvariants(before end: Int64 = .max) {}
    #endif
}

/// The engine's pending events: a timing wheel for events at arbitrary times, a FIFO for events
/// that are scheduled in time order (timeouts), and one sequence counter for both — and for events
/// server models keep themselves — so the merged order is the same total (time, sequence) order a
/// single heap would give.
package struct Agenda: ~Copyable {
    package var wheel: TimingWheel
    /// The alternative to the wheel, kept for measuring the choice (`--event-queue heap`): one
    /// 4-ary heap for every event at an arbitrary time.
    package var heap: EventHeap
    let useHeap: Bool
    /// Events scheduled in non-decreasing time order — every attempt's timeout is its send time
    /// plus the same duration, so timeouts arrive already sorted and cost O(1), not a heap operation.
    package var fifo: Ring<Event>
    package private(set) var sequence: UInt64 = 0
    private var lastFIFOTime = Int64.min

    /// - Parameters:
    ///   - wheelShift: log2 of the timing wheel's bucket width in nanoseconds.
    ///   - wheelBuckets: buckets of the wheel (its span is their number times their width).
    ///   - useHeap: keep those events in a binary-style 4-ary heap instead of the wheel.
    package init(capacity: Int, wheelShift: Int = 20, wheelBuckets: Int = 1 << 16, useHeap: Bool = false) {
        self.useHeap = useHeap
        wheel = TimingWheel(shift: wheelShift, bucketCount: useHeap ? 64 : wheelBuckets, capacity: useHeap ? 16 : capacity)
        heap = EventHeap(capacity: useHeap ? capacity : 16)
        fifo = Ring(capacity: capacity)
    }

    package var allocatedBytes: Int { wheel.allocatedBytes + heap.allocatedBytes + fifo.allocatedBytes }
    package var isEmpty: Bool { wheel.count == 0 && heap.count == 0 && fifo.count == 0 }

    /// A new event with the next sequence number (for a source that stores it itself).
    @inline(__always) package mutating func make(time: Int64, kind: EventKind, slot: UInt32, generation: UInt32, aux: UInt8 = 0) -> Event {
        let e = Event(time: time, order: sequence << 16 | UInt64(aux) << 8 | UInt64(kind.rawValue), slot: slot, generation: generation)
        sequence &+= 1
        return e
    }

    /// Where the earliest pending event is.
    package enum Source { case wheel, fifo, other }

    /// The earliest of the wheel's, the FIFO's and `other` (a server's own pending event), without
    /// removing it. Sequence numbers are unique, so this is a total order.
    @inline(__always) package mutating func earliest(or other: Event?) -> (event: Event, source: Source)? {
        var best = useHeap ? heap.peek() : wheel.peek()
        var source = Source.wheel
        if let f = fifo.peekFront(), best == nil || f < best! { best = f; source = .fifo }
        if let o = other, best == nil || o < best! { best = o; source = .other }
        guard let e = best else { return nil }
        return (e, source)
    }

    /// Removes the earliest event of `source` (wheel or FIFO). Unchecked: `source` must be what
    /// ``earliest(or:)`` just returned, with nothing scheduled in between (builds with
    /// RETRYSTORM_INTERNAL_CHECKS check that the source is not empty).
    @inline(__always) package mutating func removeEarliestUnchecked(from source: Source) {
        switch source {
        case .wheel: if useHeap { heap.removeMinUnchecked() } else { wheel.removeMinUnchecked() }
        case .fifo: _ = fifo.popFrontUnchecked()
        case .other: break
        }
    }

    /// Schedules an event at any time.
    @inline(__always) package mutating func schedule(time: Int64, kind: EventKind, slot: UInt32, generation: UInt32, aux: UInt8 = 0) {
        let e = make(time: time, kind: kind, slot: slot, generation: generation, aux: aux)
        if useHeap { heap.push(e) } else { wheel.push(e) }
    }

    /// Schedules an event no earlier than every event scheduled this way before it.
    @inline(__always) package mutating func scheduleInOrder(time: Int64, kind: EventKind, slot: UInt32, generation: UInt32) {
        if time < lastFIFOTime {
            // Out of order (never the case for constant timeouts): keep correctness via the wheel.
            schedule(time: time, kind: kind, slot: slot, generation: generation)
            return
        }
        lastFIFOTime = time
        fifo.pushBack(make(time: time, kind: kind, slot: slot, generation: generation))
    }

    #if RETRYSTORM_INTERNAL_CHECKS
    /// Every container's whole structure, and the FIFO in time order. O(n).
    @inline(never)
    package func _checkAllInvariants() {
        wheel._checkAllInvariants()
        heap._checkAllInvariants()
        var previous = Int64.min
        var k = 0
        while let e = fifo.peek(at: k) {
            precondition(e.time >= previous && e.time <= lastFIFOTime, "the in-order FIFO is out of time order at \(k)")
            previous = e.time
            k += 1
        }
    }
    #else
    @inline(__always) package func _checkAllInvariants() {}
    #endif
}
