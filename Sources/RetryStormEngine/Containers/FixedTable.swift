/// A fixed number of values in one allocation, owned: made whole at init, destroyed whole at
/// `deinit` (after swift-collections' `RigidArray`, without its growth). The call graph keeps its
/// services, edges, policies, guards and recorders in these, so that none of it is reference
/// counted, none goes through an existential, and nobody frees by hand what the table owns.
///
/// Elements may be non-copyable (a service's ``FrontDoor``); element access is in place, as
/// through a pointer, and its index is checked under RETRYSTORM_INTERNAL_CHECKS only.
struct FixedTable<Element: ~Copyable>: ~Copyable {
    private let base: UnsafeMutablePointer<Element>
    let count: Int

    /// A table of `count` elements, element `i` being `make(i)`.
    init(count: Int, _ make: (Int) -> Element) {
        precondition(count >= 0, "a table of \(count) elements")
        self.count = count
        base = .allocate(capacity: Swift.max(1, count))
        for i in 0..<count { (base + i).initialize(to: make(i)) }
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inline(__always) subscript(i: Int) -> Element {
        unsafeAddress {
            _internalInvariant(i >= 0 && i < count, "FixedTable index \(i) outside 0..<\(count)")
            return UnsafePointer(base + i)
        }
        unsafeMutableAddress {
            _internalInvariant(i >= 0 && i < count, "FixedTable index \(i) outside 0..<\(count)")
            return base + i
        }
    }
}
