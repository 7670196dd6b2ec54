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

    /// An agenda holding the same events as `other`, with the same next sequence number.
    package init(copying other: borrowing Agenda) {
        useHeap = other.useHeap
        wheel = TimingWheel(copying: other.wheel)
        heap = EventHeap(copying: other.heap)
        fifo = Ring(copying: other.fifo)
        sequence = other.sequence
        lastFIFOTime = other.lastFIFOTime
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
        if let f = fifo.peekFront(), best == nil || f < best! {
            best = f
            source = .fifo
        }
        if let o = other, best == nil || o < best! {
            best = o
            source = .other
        }
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
