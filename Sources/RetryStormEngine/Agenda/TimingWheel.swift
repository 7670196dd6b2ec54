import CPrefetch

/// A calendar queue ("timing wheel") of events keyed by (time, sequence), for the many events at
/// arbitrary times ahead (retries after backoff): O(1) to schedule, and popping costs a share of
/// sorting one bucket's events instead of a sift through every pending event.
///
/// Time is cut into buckets of 2^`shift` ns; `bucketCount` buckets (a power of two) cover the
/// window [`readyEnd`, `readyEnd` + span). An event in the window goes into its bucket, a chain of
/// 256-byte blocks of ten events; an event beyond it waits in `overflow`, a heap. When the
/// earliest event is wanted and `ready` is used up, the next occupied bucket (found through a
/// bitmap) is copied into `ready` and sorted, and `readyEnd` moves past it. An event scheduled
/// before `readyEnd` goes into `late`, a small heap. Every event is in exactly one of `ready`,
/// `late`, a bucket or `overflow`, and the least of `ready`'s, `late`'s and `overflow`'s minimum is
/// the global minimum, so the order is exactly a heap's.
///
/// Blocks rather than a linked list of single events: draining a bucket reads its events from one
/// or two blocks in sequence instead of chasing a pointer per event, each a cache miss once the
/// wheel outgrows the cache. And since `ready` is sorted, the events after the next are known, so
/// the engine can prefetch what they touch (``upcoming(_:)``).
/// - Complexity: `push` O(1) (O(log n) into `overflow` or `late`); `popMin` O(log m) amortised
///   for m events per bucket, plus the bitmap scan to the next occupied bucket.
package struct TimingWheel: ~Copyable {
    static let none = UInt32.max
    static let blockMask: UInt32 = (1 << 28) - 1
    /// Events per block, and the block's size in bytes: the link to the next block (8 bytes with
    /// padding) and ten 24-byte events fill 248 of 256 bytes, four cache lines.
    static let blockEvents = 10
    static let blockBytes = 256
    /// A crowded bucket is ordered by 1/256ths of its width before it is sorted (see
    /// `distributeBySubBin`); buckets are sized for about a thousand events, four per sub-bin.
    static let subBinBits = 8
    static let subBins = 1 << subBinBits
    /// Up to this many events, a bucket is sorted by insertion; more, by heapsort.
    static let insertionSortLimit = 64

    let shift: Int64
    let bucketCount: Int
    let span: Int64
    /// Per bucket: its newest block (events are appended to it until full) in the low 28 bits and
    /// that block's event count in the high 4, or `none`. Keeping the count here, not only in the
    /// block, makes a push a store to the block, not a load: a load from a cold block stalls the
    /// core for a cache miss, a store does not.
    private var heads: RawBuffer<UInt32>
    private var occupied: RawBuffer<UInt64>
    /// Block storage, `blockBytes` each, indexed by block number.
    private var blocks: UnsafeMutableRawPointer
    private var blockCapacity: Int
    private var blocksUsed = 0
    private var freeBlocks: RawBuffer<UInt32>
    /// The bucket being drained, sorted latest first so the minimum is at the end.
    private var ready: RawBuffer<Event>
    /// Room to reorder `ready` by sub-bin, and the per-sub-bin counts.
    private var scratch: RawBuffer<Event>
    private var binCounts: RawBuffer<Int>
    /// Events scheduled into the drained range after its bucket was sorted.
    private var late: EventHeap
    private var overflow: EventHeap
    /// The end of the drained range, a multiple of the bucket width.
    private var readyEnd: Int64 = 0
    /// Events in buckets or staged for them (not in `ready`, `late` or `overflow`).
    private var inBuckets = 0
    /// Events on their way into buckets (see ``stage(_:)``): a ring of `stagingDepth`.
    private var staged: RawBuffer<Event>
    private var stagedHead = 0
    private var stagedCount = 0
    static let stagingDepth = 16
    static let stagingLookup = 8
    /// Set when a bucket moves into `ready`, so the caller can prefetch what its first events touch.
    package var refilled = false

    /// - Parameters:
    ///   - shift: log2 of the bucket width in nanoseconds (0…40).
    ///   - bucketCount: rounded up to a power of two, at least 64.
    ///   - capacity: events expected to wait in the wheel at once (storage grows past it).
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
        blockCapacity = max(16, capacity / Self.blockEvents + 1)
        blocks = LargeMemory.allocate(byteCount: blockCapacity * Self.blockBytes, alignment: Self.blockBytes)
        freeBlocks = RawBuffer(capacity: 64)
        staged = RawBuffer(capacity: Self.stagingDepth)
        for _ in 0..<Self.stagingDepth { staged.append(Event(time: 0, order: 0, slot: 0, generation: 0)) }
        ready = RawBuffer(capacity: 256)
        scratch = RawBuffer(capacity: 256)
        binCounts = RawBuffer(capacity: Self.subBins)
        for _ in 0..<Self.subBins { binCounts.append(0) }
        late = EventHeap(capacity: 64)
        overflow = EventHeap(capacity: 64)
    }

    deinit { LargeMemory.free(blocks) }

    /// A wheel holding the same events as `other`, in the same places (a snapshot's): blocks are
    /// numbered, not pointed to, so the block storage copies as it is.
    package init(copying other: borrowing TimingWheel) {
        shift = other.shift
        bucketCount = other.bucketCount
        span = other.span
        heads = RawBuffer(copying: other.heads)
        occupied = RawBuffer(copying: other.occupied)
        blockCapacity = other.blockCapacity
        blocks = LargeMemory.allocate(byteCount: blockCapacity * Self.blockBytes, alignment: Self.blockBytes)
        blocks.copyMemory(from: other.blocks, byteCount: other.blocksUsed * Self.blockBytes)
        blocksUsed = other.blocksUsed
        freeBlocks = RawBuffer(copying: other.freeBlocks)
        ready = RawBuffer(copying: other.ready)
        scratch = RawBuffer(copying: other.scratch)
        binCounts = RawBuffer(copying: other.binCounts)
        late = EventHeap(copying: other.late)
        overflow = EventHeap(copying: other.overflow)
        readyEnd = other.readyEnd
        inBuckets = other.inBuckets
        staged = RawBuffer(copying: other.staged)
        stagedHead = other.stagedHead
        stagedCount = other.stagedCount
        refilled = other.refilled
    }

    package var count: Int { inBuckets + ready.count + late.count + overflow.count }
    package var allocatedBytes: Int {
        heads.allocatedBytes + occupied.allocatedBytes + blockCapacity * Self.blockBytes + freeBlocks.allocatedBytes
            + ready.allocatedBytes + scratch.allocatedBytes + binCounts.allocatedBytes + late.allocatedBytes + overflow.allocatedBytes
    }

    // Block layout: the next (older, full) block of the bucket as a UInt32, then the events from byte 8.
    @inline(__always) private func block(_ i: UInt32) -> UnsafeMutableRawPointer { blocks + Int(i) &* Self.blockBytes }
    @inline(__always) private func next(_ i: UInt32) -> UInt32 { block(i).load(as: UInt32.self) }
    @inline(__always) private func events(_ i: UInt32) -> UnsafeMutablePointer<Event> {
        (block(i) + 8).assumingMemoryBound(to: Event.self)
    }

    @inline(__always) package mutating func push(_ e: Event) {
        if e.time < readyEnd {
            late.push(e)
        } else if e.time &- readyEnd < span {
            stage(e)
        } else {
            overflow.push(e)
        }
        _checkInvariants()
    }

    @inline(__always) private func bucket(_ e: Event) -> Int { Int((e.time >> shift) & Int64(bucketCount - 1)) }

    /// The bucket width in nanoseconds.
    private var width: Int64 { Int64(1) << shift }

    /// Puts `e` (for a bucket ahead of `readyEnd`) into the staging ring; the event that has waited
    /// there longest goes into its bucket.
    ///
    /// Why stage: an event goes into a random bucket's block, a cache line nobody has touched for
    /// a while. Written at once, that store misses and, once enough stores queue up behind it,
    /// stalls the core for the whole miss — at a million clients this was a fifth of the run. So
    /// the bucket's head entry is prefetched as the event arrives, the block line it will go to
    /// is prefetched `stagingLookup` pushes later, and the event is written `stagingDepth` pushes
    /// later still, by which time both lines are in cache. The order of events is unaffected: a
    /// bucket is sorted when it is drained, and staged events are flushed before any bucket is.
    @inline(__always) private mutating func stage(_ e: Event) {
        rs_prefetch_write(UnsafeRawPointer(heads.base + bucket(e)))
        let mask = Self.stagingDepth - 1
        staged[(stagedHead + stagedCount) & mask] = e
        stagedCount += 1
        inBuckets += 1
        if stagedCount > Self.stagingLookup {
            let m = staged[(stagedHead + stagedCount - 1 - Self.stagingLookup) & mask]
            let head = heads[bucket(m)]
            let n = Int(head >> 28)
            if head != Self.none && n < Self.blockEvents {
                rs_prefetch_write(UnsafeRawPointer(events(head & Self.blockMask) + n))
            }
        }
        if stagedCount == Self.stagingDepth {
            insert(staged[stagedHead])
            stagedHead = (stagedHead + 1) & mask
            stagedCount -= 1
        }
    }

    /// Writes every staged event into its bucket.
    private mutating func flushStaged() {
        while stagedCount > 0 {
            insert(staged[stagedHead])
            stagedHead = (stagedHead + 1) & (Self.stagingDepth - 1)
            stagedCount -= 1
        }
    }

    /// Appends `e` to its bucket's newest block, starting a new block when that one is full.
    @inline(__always) private mutating func insert(_ e: Event) {
        let b = bucket(e)
        let head = heads[b]
        var blk = head & Self.blockMask
        var n = Int(head >> 28)
        if head == Self.none || n == Self.blockEvents {
            let fresh = newBlock()
            block(fresh).storeBytes(of: head == Self.none ? Self.none : blk, as: UInt32.self)
            blk = fresh
            n = 0
            occupied[b >> 6] |= 1 << UInt64(b & 63)
        }
        (events(blk) + n).initialize(to: e)
        heads[b] = UInt32(n + 1) << 28 | blk
    }

    private mutating func newBlock() -> UInt32 {
        if freeBlocks.count > 0 { return freeBlocks.removeLastUnchecked() }
        // 2^28 blocks of 256 bytes (64 GiB) are more than any machine this runs on can hold.
        precondition(blocksUsed < Int(Self.blockMask), "timing wheel: more than 2^28 blocks")
        if blocksUsed == blockCapacity {
            let fresh = LargeMemory.allocate(byteCount: 2 * blockCapacity * Self.blockBytes, alignment: Self.blockBytes)
            fresh.copyMemory(from: blocks, byteCount: blocksUsed * Self.blockBytes)
            LargeMemory.free(blocks)
            blocks = fresh
            blockCapacity *= 2
        }
        blocksUsed += 1
        return UInt32(blocksUsed - 1)
    }

    /// The earliest event, without removing it. May move a bucket into `ready`.
    @inline(__always) package mutating func peek() -> Event? {
        if ready.count == 0 && inBuckets > 0 { refill() }
        var best: Event? = ready.count > 0 ? ready[ready.count - 1] : nil
        if let l = late.peek(), best == nil || l < best! { best = l }
        if let o = overflow.peek(), best == nil || o < best! { best = o }
        return best
    }

    /// The event `k` places after the earliest of the sorted bucket (events that arrive in the
    /// meantime may come first): for prefetching only.
    @inline(__always) package func upcoming(_ k: Int) -> Event? {
        ready.count > k ? ready[ready.count - 1 - k] : nil
    }

    /// Removes the earliest event. Unchecked: call only after ``peek()`` returned one, with no
    /// push in between (builds with RETRYSTORM_INTERNAL_CHECKS check that one is there).
    @inline(__always) package mutating func removeMinUnchecked() {
        let r: Event? = ready.count > 0 ? ready[ready.count - 1] : nil
        let l = late.peek()
        let o = overflow.peek()
        if let rr = r, (l == nil || rr < l!) && (o == nil || rr < o!) {
            _ = ready.removeLastUnchecked()
        } else if let ll = l, o == nil || ll < o! {
            late.removeMinUnchecked()
        } else {
            overflow.removeMinUnchecked()
        }
        _checkInvariants()
    }

    /// Moves the next occupied bucket at or after `readyEnd` into `ready`, sorted.
    private mutating func refill() {
        flushStaged()
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
        readyEnd = bucketStart + width
        let head = heads[b]
        var blk = head & Self.blockMask
        // The head block's count is in `heads`; the blocks behind it are full.
        var n = Int(head >> 28)
        heads[b] = Self.none
        occupied[b >> 6] &= ~(1 << UInt64(b & 63))
        while blk != Self.none {
            let e = events(blk)
            for i in 0..<n { ready.append(e[i]) }
            inBuckets -= n
            freeBlocks.append(blk)
            blk = next(blk)
            n = Self.blockEvents
        }
        let all = UnsafeMutableBufferPointer(start: ready.base, count: ready.count)
        if ready.count > Self.insertionSortLimit && distributeBySubBin() {
            Self.insertionSortLatestFirst(all)
        } else {
            Self.sortLatestFirst(all)
        }
        refilled = true
        _checkRefill(bucket: b, from: bucketStart)
    }

    /// Reorders `ready` by sub-bins (1/`subBins` of the bucket each), latest first: a counting
    /// sort on `subBinBits` more bits of the time, so that the insertion sort that follows only
    /// has to order each sub-bin's few events. The sort still compares whole keys, so the order
    /// never depends on this pass.
    /// - Returns: whether every sub-bin is small enough for an insertion sort of the whole.
    private mutating func distributeBySubBin() -> Bool {
        let subShift = max(0, shift - Int64(Self.subBinBits))
        let n = ready.count
        let bins = binCounts.base
        for i in 0..<Self.subBins { bins[i] = 0 }
        for k in 0..<n { bins[Int((ready[k].time >> subShift) & Int64(Self.subBins - 1))] &+= 1 }
        // Starting positions, latest sub-bin first.
        var at = 0
        var largest = 0
        var i = Self.subBins - 1
        while i >= 0 {
            let c = bins[i]
            largest = max(largest, c)
            bins[i] = at
            at += c
            i -= 1
        }
        // A crowded sub-bin (a burst at one instant) needs the heapsort anyway.
        if largest > Self.insertionSortLimit { return false }
        if scratch.capacity < n { scratch.grow(to: max(n, 2 * scratch.capacity)) }
        let from = ready.base
        let to = scratch.base
        for k in 0..<n {
            let e = from[k]
            let b = Int((e.time >> subShift) & Int64(Self.subBins - 1))
            (to + bins[b]).initialize(to: e)
            bins[b] &+= 1
        }
        from.update(from: to, count: n)
        return true
    }

    /// Insertion sort, latest first: O(n + inversions), for short or nearly sorted runs.
    @inline(__always) static func insertionSortLatestFirst(_ a: UnsafeMutableBufferPointer<Event>) {
        let n = a.count
        var i = 1
        while i < n {
            let x = a[i]
            var j = i
            while j > 0 && a[j - 1] < x {
                a[j] = a[j - 1]
                j -= 1
            }
            a[j] = x
            i += 1
        }
    }

    /// Sorts events latest first, in place and without allocating: insertion sort for a typical
    /// bucket, heapsort for a crowded one (a synchronized burst can put a million in one bucket).
    static func sortLatestFirst(_ a: UnsafeMutableBufferPointer<Event>) {
        let n = a.count
        if n <= insertionSortLimit {
            insertionSortLatestFirst(a)
            return
        }
        EventHeap.sortDescending(a)
    }

    #if RETRYSTORM_INTERNAL_CHECKS
        /// The bookkeeping every operation keeps. O(1).
        @inline(never)
        func _checkInvariants() {
            precondition(stagedCount >= 0 && stagedCount < Self.stagingDepth, "staged count \(stagedCount) outside 0..<\(Self.stagingDepth)")
            precondition(stagedHead >= 0 && stagedHead < Self.stagingDepth, "staging head \(stagedHead) outside the ring")
            precondition(inBuckets >= stagedCount, "\(inBuckets) events in buckets, fewer than the \(stagedCount) staged")
            precondition(readyEnd & (width - 1) == 0, "the drained range ends inside a bucket (\(readyEnd) ns)")
            precondition(blocksUsed <= blockCapacity && freeBlocks.count <= blocksUsed, "more blocks free or used than allocated")
            if let l = late.peek() { precondition(l.time < readyEnd, "a late event at or after the drained range's end") }
            if ready.count > 0 {
                precondition(ready[ready.count - 1].time < readyEnd, "a ready event at or after the drained range's end")
            }
        }

        /// A bucket just moved into `ready`: every event in it belongs to bucket `b`, lies in its
        /// width from `start`, and `ready` is sorted latest first. O(events in it), once per event.
        @inline(never)
        private func _checkRefill(bucket b: Int, from start: Int64) {
            precondition(readyEnd == start + width, "the drained range does not end at the bucket's end")
            for k in 0..<ready.count {
                let e = ready[k]
                precondition(
                    bucket(e) == b && e.time >= start && e.time < readyEnd,
                    "an event at \(e.time) ns in bucket \(b), which covers [\(start), \(readyEnd)) ns")
                if k > 0 { precondition(!(ready[k - 1] < e), "ready is not sorted latest first at \(k)") }
            }
            _checkInvariants()
        }

        /// The whole structure: every event is in exactly one place and in the right one, every
        /// block is either a bucket's or free, and the occupancy bitmap matches the buckets. O(buckets
        /// + events).
        @inline(never)
        package func _checkAllInvariants() {
            _checkInvariants()
            var seen = [Bool](repeating: false, count: blocksUsed)
            var counted = 0
            for b in 0..<bucketCount {
                let head = heads[b]
                let bit = occupied[b >> 6] & (1 << UInt64(b & 63)) != 0
                precondition(bit == (head != Self.none), "bucket \(b)'s occupancy bit disagrees with its head")
                guard head != Self.none else { continue }
                var blk = head & Self.blockMask
                var n = Int(head >> 28)
                precondition(n >= 1 && n <= Self.blockEvents, "bucket \(b)'s newest block holds \(n) events")
                while blk != Self.none {
                    precondition(Int(blk) < blocksUsed && !seen[Int(blk)], "block \(blk) is out of range or in two places")
                    seen[Int(blk)] = true
                    for i in 0..<n {
                        let e = events(blk)[i]
                        precondition(
                            bucket(e) == b && e.time >= readyEnd && e.time &- readyEnd < span,
                            "an event at \(e.time) ns in bucket \(b) outside the window from \(readyEnd) ns")
                    }
                    counted += n
                    blk = next(blk)
                    n = Self.blockEvents
                }
            }
            for k in 0..<freeBlocks.count {
                let blk = Int(freeBlocks[k])
                precondition(blk < blocksUsed && !seen[blk], "free block \(blk) is out of range or in two places")
                seen[blk] = true
            }
            precondition(!seen.contains(false), "a block is neither a bucket's nor free")
            for k in 0..<stagedCount {
                let e = staged[(stagedHead + k) & (Self.stagingDepth - 1)]
                precondition(e.time >= readyEnd && e.time &- readyEnd < span, "a staged event outside the window")
            }
            precondition(counted + stagedCount == inBuckets, "\(counted) events in buckets and \(stagedCount) staged, counted \(inBuckets)")
            for k in 0..<ready.count {
                precondition(ready[k].time < readyEnd, "a ready event at or after the drained range's end")
                if k > 0 { precondition(!(ready[k - 1] < ready[k]), "ready is not sorted latest first at \(k)") }
            }
            late._checkAll(before: readyEnd) { $0.time }
            overflow._checkAllInvariants()
        }
    #else
        @inline(__always) func _checkInvariants() {}
        @inline(__always) private func _checkRefill(bucket b: Int, from start: Int64) {}
        @inline(__always) package func _checkAllInvariants() {}
    #endif
}
