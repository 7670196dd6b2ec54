/// A growable array of plain values in one manually managed allocation.
///
/// The engine's containers use it instead of `ContiguousArray` so the hot path has no reference
/// counting and no uniqueness checks: the buffer is non-copyable, so exactly one owner exists and
/// `deinit` frees it. Elements must be trivial values (no references): they are moved with
/// `memcpy` semantics and never deinitialised one by one.
/// - Warning: Indexing is unchecked, as with `UnsafeMutableBufferPointer` in a release build: an
///   index must be in `0..<count`. Builds with RETRYSTORM_INTERNAL_CHECKS check it.
struct RawBuffer<Element>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    private(set) var count: Int = 0

    init(capacity: Int) {
        precondition(_isPOD(Element.self), "RawBuffer holds trivial values only")
        self.capacity = Swift.max(16, capacity)
        base = Self.allocate(self.capacity)
    }

    deinit { LargeMemory.free(base) }

    /// A buffer of the same capacity holding a copy of `other`'s elements (a snapshot's).
    init(copying other: borrowing RawBuffer<Element>) {
        capacity = other.capacity
        count = other.count
        base = Self.allocate(capacity)
        base.initialize(from: other.base, count: count)
    }

    private static func allocate(_ n: Int) -> UnsafeMutablePointer<Element> {
        LargeMemory.allocate(byteCount: n * MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment)
            .bindMemory(to: Element.self, capacity: n)
    }

    /// The element at `i`, which must be in `0..<count` (unchecked; see the type's warning). A
    /// write is a mutation of the buffer (a `mutating set`), although the elements live behind a
    /// pointer: writing through a `let` would hide a change from its owner and from exclusivity.
    @inline(__always) subscript(i: Int) -> Element {
        get {
            _internalInvariant(i >= 0 && i < count, "RawBuffer index \(i) outside 0..<\(count)")
            return base[i]
        }
        set {
            _internalInvariant(i >= 0 && i < count, "RawBuffer index \(i) outside 0..<\(count)")
            base[i] = newValue
        }
    }

    /// - Complexity: O(1) amortised.
    @inline(__always) mutating func append(_ e: Element) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: e)
        count += 1
        _checkInvariants()
    }

    /// Removes and returns the last element. Unchecked: the buffer must not be empty (checked only
    /// in builds with RETRYSTORM_INTERNAL_CHECKS).
    /// - Complexity: O(1).
    @inline(__always) mutating func removeLastUnchecked() -> Element {
        _internalInvariant(count > 0, "removeLastUnchecked on an empty RawBuffer")
        count -= 1
        _checkInvariants()
        return base[count]
    }

    /// Forgets every element, keeping the allocation.
    @inline(__always) mutating func removeAll() {
        count = 0
    }

    /// Moves the elements to an allocation of `newCapacity` (at least `count`).
    mutating func grow(to newCapacity: Int) {
        precondition(newCapacity >= count, "RawBuffer cannot shrink below its count")
        let fresh = Self.allocate(newCapacity)
        fresh.moveInitialize(from: base, count: count)
        LargeMemory.free(base)
        base = fresh
        capacity = newCapacity
        _checkInvariants()
    }

    /// Bytes held, for memory estimates and reports.
    var allocatedBytes: Int { capacity * MemoryLayout<Element>.stride }

    #if RETRYSTORM_INTERNAL_CHECKS
        @inline(never)
        func _checkInvariants() {
            precondition(count >= 0 && count <= capacity, "RawBuffer count \(count) outside 0...\(capacity)")
        }
    #else
        @inline(__always) func _checkInvariants() {}
    #endif
}
