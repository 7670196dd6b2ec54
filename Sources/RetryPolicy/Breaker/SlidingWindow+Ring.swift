/// The window's storage read as a ring of the last `size` outcomes (size ≤ 256), one bit each —
/// resilience4j's COUNT_BASED sliding window. `mark` packs the write position, the number of
/// outcomes held and how many of them failed.
extension SlidingWindow {
    /// The most outcomes a ring holds.
    public static let ringCapacity = 256

    @inlinable var ringHead: Int { Int(UInt64(bitPattern: mark) & 0xFFFF) }
    /// Outcomes held (at most the ring's size).
    @inlinable public var ringCount: Int { Int((UInt64(bitPattern: mark) >> 16) & 0xFFFF) }
    /// Failures among the outcomes held.
    @inlinable public var ringFailures: Int { Int((UInt64(bitPattern: mark) >> 32) & 0xFFFF) }

    @inlinable mutating func setRing(head: Int, count: Int, failures: Int) {
        mark = Int64(bitPattern: UInt64(head) | UInt64(count) << 16 | UInt64(failures) << 32)
    }

    @inlinable func bit(_ i: Int) -> Bool {
        slot(i >> 5) & (1 << UInt32(i & 31)) != 0
    }

    @inlinable mutating func setBit(_ i: Int, _ on: Bool) {
        let w = slot(i >> 5)
        let m: UInt32 = 1 << UInt32(i & 31)
        setSlot(i >> 5, on ? w | m : w & ~m)
    }

    /// Records one outcome in a ring of `size` (1…256), dropping the oldest once full.
    @inlinable public mutating func push(failed: Bool, size: Int) {
        if mark == .min { setRing(head: 0, count: 0, failures: 0) }
        let size = Swift.min(Swift.max(size, 1), Self.ringCapacity)
        var head = ringHead
        var count = ringCount
        var failures = ringFailures
        if head >= size { head = 0 }
        if count == size {
            if bit(head) { failures -= 1 }
        } else {
            count += 1
        }
        setBit(head, failed)
        if failed { failures += 1 }
        head += 1
        if head == size { head = 0 }
        setRing(head: head, count: count, failures: failures)
    }
}
