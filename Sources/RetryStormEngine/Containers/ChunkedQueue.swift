/// A first-in first-out queue of plain values in fixed-size chunks: memory follows the length
/// (no doubling overshoot), growth never copies, and emptied chunks are reused. For queues that can
/// grow to tens of millions of entries, like a collapsed server's backlog.
/// - Complexity: O(1) for every operation.
package struct ChunkedQueue<Element>: ~Copyable {
    static var chunkShift: Int { 16 }
    static var chunkSize: Int { 1 << chunkShift }

    private var chunks: RawBuffer<UnsafeMutablePointer<Element>>
    private var spare: RawBuffer<UnsafeMutablePointer<Element>>
    /// Index of the front element within the first chunk.
    private var head = 0
    package private(set) var count = 0

    package init() {
        precondition(_isPOD(Element.self), "ChunkedQueue holds trivial values only")
        chunks = RawBuffer(capacity: 16)
        spare = RawBuffer(capacity: 4)
    }

    /// A queue holding a copy of `other`'s elements, chunk for chunk (no spare chunks).
    package init(copying other: borrowing ChunkedQueue<Element>) {
        chunks = RawBuffer(capacity: other.chunks.count)
        spare = RawBuffer(capacity: 4)
        head = other.head
        count = other.count
        for i in 0..<other.chunks.count {
            // Only the elements in use: the rest of a chunk is uninitialised.
            let chunk = UnsafeMutablePointer<Element>.allocate(capacity: Self.chunkSize)
            let from = i == 0 ? head : 0
            let to = Swift.min(Self.chunkSize, head + count - i * Self.chunkSize)
            if to > from { (chunk + from).initialize(from: other.chunks[i] + from, count: to - from) }
            chunks.append(chunk)
        }
    }

    deinit {
        for i in 0..<chunks.count { chunks[i].deallocate() }
        for i in 0..<spare.count { spare[i].deallocate() }
    }

    package var allocatedBytes: Int { (chunks.count + spare.count) * Self.chunkSize * MemoryLayout<Element>.stride }

    @inline(__always) package mutating func pushBack(_ e: Element) {
        let position = head + count
        let c = position >> Self.chunkShift
        if c == chunks.count {
            chunks.append(spare.count > 0 ? spare.removeLastUnchecked() : .allocate(capacity: Self.chunkSize))
        }
        chunks[c][position & (Self.chunkSize - 1)] = e
        count += 1
        _checkInvariants()
    }

    /// The front element. Unchecked: the queue must not be empty (builds with
    /// RETRYSTORM_INTERNAL_CHECKS check it).
    @inline(__always) package func peekFrontUnchecked() -> Element {
        _internalInvariant(count > 0, "peekFrontUnchecked on an empty queue")
        return chunks[0][head]
    }

    /// Removes and returns the front element. Unchecked: the queue must not be empty (builds with
    /// RETRYSTORM_INTERNAL_CHECKS check it).
    @inline(__always) package mutating func popFrontUnchecked() -> Element {
        _internalInvariant(count > 0, "popFrontUnchecked on an empty queue")
        let e = chunks[0][head]
        head += 1
        count -= 1
        if head == Self.chunkSize || count == 0 { releaseFront() }
        _checkInvariants()
        return e
    }

    /// Removes and returns the back element. Unchecked: the queue must not be empty (builds with
    /// RETRYSTORM_INTERNAL_CHECKS check it).
    @inline(__always) package mutating func popBackUnchecked() -> Element {
        _internalInvariant(count > 0, "popBackUnchecked on an empty queue")
        count -= 1
        let position = head + count
        let e = chunks[position >> Self.chunkShift][position & (Self.chunkSize - 1)]
        if count == 0 { releaseFront() }
        _checkInvariants()
        return e
    }

    /// Drops the first chunk once it is used up (or everything when empty), keeping one spare.
    private mutating func releaseFront() {
        if count == 0 {
            while chunks.count > 0 { recycle(chunks.removeLastUnchecked()) }
            head = 0
            return
        }
        let first = chunks[0]
        for i in 1..<chunks.count { chunks[i - 1] = chunks[i] }
        _ = chunks.removeLastUnchecked()
        recycle(first)
        head = 0
    }

    private mutating func recycle(_ chunk: UnsafeMutablePointer<Element>) {
        if spare.count < 2 { spare.append(chunk) } else { chunk.deallocate() }
    }

    #if RETRYSTORM_INTERNAL_CHECKS
        /// Chunks are released from the front only (when the first is used up, or all when the queue
        /// empties), so after pops from the back more chunks may be held than the elements need.
        @inline(never)
        package func _checkInvariants() {
            precondition(count >= 0, "queue count \(count) is negative")
            precondition(spare.count <= 2, "more than two spare chunks")
            if count == 0 {
                precondition(head == 0 && chunks.count == 0, "an empty queue holds chunks or a head offset")
            } else {
                precondition(head >= 0 && head < Self.chunkSize, "head \(head) outside its chunk")
                let needed = (head + count - 1) >> Self.chunkShift + 1
                precondition(chunks.count >= needed, "\(count) elements from offset \(head) need \(needed) chunks, have \(chunks.count)")
            }
        }
    #else
        @inline(__always) package func _checkInvariants() {}
    #endif
}
