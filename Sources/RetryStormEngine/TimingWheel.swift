/// A calendar queue ("timing wheel") of events keyed by (time, sequence), for the many events at
/// arbitrary times ahead (retries after backoff): O(1) to schedule, and popping costs a small heap
/// operation over one bucket's events instead of a sift through every pending event.
///
/// Time is cut into buckets of 2^`shift` ns; `bucketCount` buckets (a power of two) cover the
/// window [`readyEnd`, `readyEnd` + span). An event in the window is prepended to its bucket's list;
/// an event beyond it waits in `overflow`, a heap. When the earliest event is wanted and `ready` is
/// empty, the next occupied bucket (found through a bitmap) is emptied into `ready`, a small heap,
/// and `readyEnd` moves past it. An event scheduled before `readyEnd` goes straight into `ready`.
/// Every event is in exactly one of `ready`, a bucket or `overflow`, and the earliest of `ready`'s
/// and `overflow`'s minimum is the global minimum, so the order is exactly a heap's.
/// - Complexity: `push` O(1) (O(log n) into `overflow`); `popMin` O(log m) for m events per bucket,
///   plus the bitmap scan to the next occupied bucket.
package struct TimingWheel: ~Copyable {
    struct Node {
        var event: Event
        var next: UInt32
    }

    static let none = UInt32.max

    let shift: Int64
    let bucketCount: Int
    let span: Int64
    private var heads: RawBuffer<UInt32>
    private var occupied: RawBuffer<UInt64>
    private var nodes: RawBuffer<Node>
    private var freeNodes: RawBuffer<UInt32>
    private var ready: EventHeap
    private var overflow: EventHeap
    /// The end of the drained range, a multiple of the bucket width.
    private var readyEnd: Int64 = 0
    /// Events in buckets (not in `ready` or `overflow`).
    private var inBuckets = 0

    /// - Parameters:
    ///   - shift: log2 of the bucket width in nanoseconds (0…40).
    ///   - bucketCount: rounded up to a power of two, at least 64.
    package init(shift: Int, bucketCount: Int, capacity: Int) {
        self.shift = Int64(max(0, min(40, shift)))
        var b = 64
        while b < bucketCount { b <<= 1 }
        self.bucketCount = b
        span = Int64(b) << self.shift
        heads = RawBuffer(capacity: b)
        for _ in 0..<b { heads.append(Self.none) }
        occupied = RawBuffer(capacity: b / 64)
        for _ in 0..<(b / 64) { occupied.append(0) }
        nodes = RawBuffer(capacity: capacity)
        freeNodes = RawBuffer(capacity: 64)
        ready = EventHeap(capacity: 256)
        overflow = EventHeap(capacity: 64)
    }

    package var count: Int { inBuckets + ready.count + overflow.count }
    package var allocatedBytes: Int {
        heads.allocatedBytes + occupied.allocatedBytes + nodes.allocatedBytes + freeNodes.allocatedBytes
            + ready.allocatedBytes + overflow.allocatedBytes
    }

    @inline(__always) package mutating func push(_ e: Event) {
        if e.time < readyEnd {
            ready.push(e)
        } else if e.time &- readyEnd < span {
            let b = Int((e.time >> shift) & Int64(bucketCount - 1))
            let node: UInt32
            if freeNodes.count > 0 {
                node = freeNodes.removeLast()
                nodes[Int(node)] = Node(event: e, next: heads[b])
            } else {
                node = UInt32(nodes.count)
                nodes.append(Node(event: e, next: heads[b]))
            }
            heads[b] = node
            occupied[b >> 6] |= 1 << UInt64(b & 63)
            inBuckets += 1
        } else {
            overflow.push(e)
        }
    }

    /// The earliest event, without removing it. May move buckets into `ready`.
    @inline(__always) package mutating func peek() -> Event? {
        if ready.count == 0 && inBuckets > 0 { refill() }
        let r = ready.peek()
        guard let o = overflow.peek() else { return r }
        guard let rr = r else { return o }
        return o < rr ? o : rr
    }

    /// Removes the earliest event; call after `peek()` returned one.
    @inline(__always) package mutating func removeMin() {
        if let r = ready.peek() {
            if let o = overflow.peek(), o < r { overflow.removeMin() } else { ready.removeMin() }
        } else {
            overflow.removeMin()
        }
    }

    /// Empties the next occupied bucket at or after `readyEnd` into `ready`.
    private mutating func refill() {
        let mask = bucketCount - 1
        var b = Int((readyEnd >> shift) & Int64(mask))
        // Scan the bitmap from bucket b, wrapping once.
        var word = b >> 6
        var bits = occupied[word] & (~0 << UInt64(b & 63))
        var scanned = 0
        while bits == 0 {
            word = (word + 1) & (bucketCount / 64 - 1)
            bits = occupied[word]
            scanned += 1
            if scanned > bucketCount / 64 { return }
        }
        let found = (word << 6) | bits.trailingZeroBitCount
        let distance = (found - b) & mask
        b = found
        let bucketStart = readyEnd + (Int64(distance) << shift)
        readyEnd = bucketStart + (Int64(1) << shift)
        var n = heads[b]
        heads[b] = Self.none
        occupied[b >> 6] &= ~(1 << UInt64(b & 63))
        while n != Self.none {
            let node = nodes[Int(n)]
            ready.push(node.event)
            freeNodes.append(n)
            inBuckets -= 1
            n = node.next
        }
    }
}
