/// The engine's one heap: an implicit 4-ary min-heap of trivial values over a ``RawBuffer``.
///
/// A 4-ary heap halves the depth of a binary one and keeps a node's four children in one span (96
/// bytes of events), so a sift-down touches fewer cache lines. It holds the pending events of the
/// server models and of the timing wheel's late and overflow lists (ordered by (time, sequence)),
/// the `--event-queue heap` alternative to the wheel, and the FIFO queue's worker free times; the
/// wheel's crowded buckets are sorted with ``sortDescending(_:)``, a heapsort with the same sift.
/// Cancelled events are never removed (they go stale by generation), so there is no removal from
/// the middle. Generic over the element and specialised where it is used (same module, release
/// builds): no existentials or reference counting.
/// - Complexity: `push`, `removeMinUnchecked` and `replaceMinUnchecked` are O(log n).
package struct MinHeap<Element: Comparable>: ~Copyable {
    private var heap: RawBuffer<Element>

    package init(capacity: Int) { heap = RawBuffer(capacity: capacity) }

    /// A heap holding a copy of `other`'s elements in the same order.
    package init(copying other: borrowing MinHeap<Element>) { heap = RawBuffer(copying: other.heap) }

    package var count: Int { heap.count }
    package var allocatedBytes: Int { heap.allocatedBytes }

    @inline(__always) package mutating func push(_ e: Element) {
        heap.append(e)
        _checkInvariants(along: Self.siftUp(heap.base, heap.count - 1))
    }

    /// The least element without removing it.
    @inline(__always) package func peek() -> Element? { heap.count > 0 ? heap[0] : nil }

    /// The least element. Unchecked: the heap must not be empty (the FIFO queue's worker heap
    /// always holds one free time per worker); builds with RETRYSTORM_INTERNAL_CHECKS check it.
    @inline(__always) package var minUnchecked: Element {
        _internalInvariant(heap.count > 0, "minUnchecked of an empty heap")
        return heap.base[0]
    }

    /// Removes the least element. Unchecked: the heap must not be empty (the callers have just
    /// seen the element through ``peek()``); builds with RETRYSTORM_INTERNAL_CHECKS check it.
    @inline(__always) package mutating func removeMinUnchecked() {
        _internalInvariant(heap.count > 0, "removeMinUnchecked on an empty heap")
        let last = heap.removeLastUnchecked()
        if heap.count > 0 { _checkInvariants(along: Self.siftDown(heap.base, count: heap.count, from: 0, placing: last)) }
    }

    /// Replaces the least element by `e` in one sift (a pop and a push would take two). Unchecked:
    /// the heap must not be empty.
    @inline(__always) package mutating func replaceMinUnchecked(_ e: Element) {
        _internalInvariant(heap.count > 0, "replaceMinUnchecked on an empty heap")
        _checkInvariants(along: Self.siftDown(heap.base, count: heap.count, from: 0, placing: e))
    }

    /// Sorts `a` greatest first, in place and without allocating (heapsort: each extracted least
    /// element goes to the end). O(n log n) for any input, which the wheel needs when a
    /// synchronized burst puts a million events in one bucket.
    package static func sortDescending(_ a: UnsafeMutableBufferPointer<Element>) {
        guard let h = a.baseAddress, a.count > 1 else { return }
        let n = a.count
        var start = (n - 2) >> 2 + 1
        while start > 0 {
            start -= 1
            siftDown(h, count: n, from: start, placing: h[start])
        }
        var end = n
        while end > 1 {
            end -= 1
            let least = h[0]
            siftDown(h, count: end, from: 0, placing: h[end])
            h[end] = least
        }
    }

    /// Moves the element at `start` up to its place; returns that place.
    @discardableResult
    @inline(__always) private static func siftUp(_ h: UnsafeMutablePointer<Element>, _ start: Int) -> Int {
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

    /// Places `e` at `start` of the first `n` elements (whose subtrees below `start` are heaps),
    /// moving it down to its place; returns that place.
    @discardableResult
    @inline(__always) private static func siftDown(_ h: UnsafeMutablePointer<Element>, count n: Int, from start: Int, placing e: Element) -> Int {
        var i = start
        while true {
            let c = 4 * i + 1
            if c >= n { break }
            var m = c
            var me = h[c]
            let end = Swift.min(c + 4, n)
            var j = c + 1
            while j < end {
                let je = h[j]
                if je < me {
                    m = j
                    me = je
                }
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
        /// The heap order where a change moved elements: along the path from the root to `i` (the
        /// moved element's place), and between `i` and its children. O(log n).
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

        /// Every element is at or after its parent. O(n).
        @inline(never)
        package func _checkAllInvariants() {
            let h = heap.base
            for j in 1..<Swift.max(heap.count, 1) {
                precondition(!(h[j] < h[(j - 1) >> 2]), "heap order broken between \(j) and its parent")
            }
        }

        /// Every element is earlier than `end` (nanoseconds). O(n).
        @inline(never)
        package func _checkAll(before end: Int64, time: (Element) -> Int64) {
            _checkAllInvariants()
            for j in 0..<heap.count { precondition(time(heap[j]) < end, "an element at \(time(heap[j])) ns, not before \(end) ns") }
        }
    #else
        @inline(__always) func _checkInvariants(along i: Int) {}
        @inline(__always) package func _checkAllInvariants() {}
        @inline(__always) package func _checkAll(before end: Int64, time: (Element) -> Int64) {}
    #endif
}
