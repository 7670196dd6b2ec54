/// A set of copies of one hedged attempt, by index (copy 0 is the first): at most
/// ``Hedging/maxCopies``, kept as a bitmask, so that it never allocates.
public struct CopySet: Sendable, Hashable, Sequence {
    /// Bit k: copy k is in the set.
    public var bits: UInt8

    /// The copies whose bits are set in `bits`.
    @inlinable public init(bits: UInt8 = 0) { self.bits = bits }

    /// Copies in the set.
    @inlinable public var count: Int { bits.nonzeroBitCount }

    /// Whether no copy is in the set.
    @inlinable public var isEmpty: Bool { bits == 0 }

    /// The copy sent last among those in the set (the highest index); nil when empty.
    @inlinable public var last: Int? { bits == 0 ? nil : 7 &- bits.leadingZeroBitCount }

    /// Whether copy `k` is in the set.
    @inlinable public func contains(_ k: Int) -> Bool { k >= 0 && k < 8 && bits & (1 << UInt8(k)) != 0 }

    @inlinable mutating func insert(_ k: Int) { bits |= 1 << UInt8(k) }
    @inlinable mutating func remove(_ k: Int) { bits &= ~(1 << UInt8(k)) }

    /// The copies in ascending order of index (the order they went out).
    public struct Iterator: IteratorProtocol, Sendable {
        @usableFromInline var rest: UInt8
        @inlinable init(rest: UInt8) { self.rest = rest }
        /// The next copy index in the set, lowest first; nil when none is left.
        @inlinable public mutating func next() -> Int? {
            guard rest != 0 else { return nil }
            let k = rest.trailingZeroBitCount
            rest &= rest &- 1
            return k
        }
    }

    /// The set's copy indices, lowest first.
    @inlinable public func makeIterator() -> Iterator { Iterator(rest: bits) }
}
