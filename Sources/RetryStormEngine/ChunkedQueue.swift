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
    }

    /// The front element. Unchecked: the queue must not be empty.
    @inline(__always) package func peekFrontUnchecked() -> Element { chunks[0][head] }

    /// Removes and returns the front element. Unchecked: the queue must not be empty.
    @inline(__always) package mutating func popFrontUnchecked() -> Element {
        let e = chunks[0][head]
        head += 1
        count -= 1
        if head == Self.chunkSize || count == 0 { releaseFront() }
        return e
    }

    /// Removes and returns the back element. Unchecked: the queue must not be empty.
    @inline(__always) package mutating func popBackUnchecked() -> Element {
        count -= 1
        let position = head + count
        let e = chunks[position >> Self.chunkShift][position & (Self.chunkSize - 1)]
        if count == 0 { releaseFront() }
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
}
