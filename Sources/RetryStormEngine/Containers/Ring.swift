/// A first-in first-out ring buffer of plain values over one manually managed allocation.
/// Non-copyable, so it has one owner and no reference counting.
/// - Complexity: O(1) amortised for every operation.
package struct Ring<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    /// A power of two, so positions wrap with a mask.
    private var capacity: Int
    private var head = 0
    package private(set) var count = 0

    package init(capacity: Int) {
        precondition(_isPOD(Element.self), "Ring holds trivial values only")
        var c = 16
        while c < capacity { c <<= 1 }
        self.capacity = c
        base = LargeMemory.allocate(byteCount: c * MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment)
            .bindMemory(to: Element.self, capacity: c)
    }

    deinit { LargeMemory.free(base) }

    /// A ring of the same capacity holding a copy of `other`'s elements, from its head on.
    package init(copying other: borrowing Ring<Element>) {
        capacity = other.capacity
        count = other.count
        base = LargeMemory.allocate(byteCount: capacity * MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment)
            .bindMemory(to: Element.self, capacity: capacity)
        for i in 0..<count { (base + i).initialize(to: other.base[(other.head + i) & (capacity - 1)]) }
    }

    package var allocatedBytes: Int { capacity * MemoryLayout<Element>.stride }

    @inline(__always) package func peekFront() -> Element? { count > 0 ? base[head] : nil }

    /// The element `offset` places behind the front, if there is one.
    @inline(__always) package func peek(at offset: Int) -> Element? {
        offset < count ? base[(head + offset) & (capacity - 1)] : nil
    }

    @inline(__always) package mutating func pushBack(_ e: Element) {
        if count == capacity { grow() }
        base[(head + count) & (capacity - 1)] = e
        count += 1
        _checkInvariants()
    }

    /// Removes and returns the front element. Unchecked: the ring must not be empty (the callers
    /// have just seen the element through ``peekFront()``); builds with RETRYSTORM_INTERNAL_CHECKS
    /// check it.
    @inline(__always) package mutating func popFrontUnchecked() -> Element {
        _internalInvariant(count > 0, "popFrontUnchecked on an empty ring")
        let e = base[head]
        head = (head + 1) & (capacity - 1)
        count -= 1
        _checkInvariants()
        return e
    }

    private mutating func grow() {
        let fresh = LargeMemory.allocate(byteCount: 2 * capacity * MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment)
            .bindMemory(to: Element.self, capacity: 2 * capacity)
        for i in 0..<count { (fresh + i).initialize(to: base[(head + i) & (capacity - 1)]) }
        LargeMemory.free(base)
        base = fresh
        head = 0
        capacity *= 2
        _checkInvariants()
    }

    #if RETRYSTORM_INTERNAL_CHECKS
        @inline(never)
        package func _checkInvariants() {
            precondition(capacity >= 16 && capacity & (capacity - 1) == 0, "ring capacity \(capacity) is not a power of two ≥ 16")
            precondition(head >= 0 && head < capacity, "ring head \(head) outside 0..<\(capacity)")
            precondition(count >= 0 && count <= capacity, "ring count \(count) outside 0...\(capacity)")
        }
    #else
        @inline(__always) package func _checkInvariants() {}
    #endif
}
