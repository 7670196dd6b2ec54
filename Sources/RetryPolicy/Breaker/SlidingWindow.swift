/// Counts over a sliding time window, in 10 buckets of inline storage (48 bytes, no allocation):
/// Polly's rolling health metrics (10 buckets of `SamplingDuration / 10`), Finagle's
/// `WindowedAdder` (10 slices of `ttl / 10`) and the SRE book's 2-minute request/accept counts.
///
/// Each bucket holds two counters `a` and `b` (a breaker's calls and failures, a throttle's
/// requests and accepts, a budget's deposits and withdrawals). The window is the current bucket and
/// the 9 before it, so it spans between 9 and 10 bucket lengths, as Finagle's does.
///
/// The same storage serves as a ring of up to 256 outcomes (see `SlidingWindow+Ring.swift`): a
/// breaker uses one or the other, never both.
///
/// - Warning: Counters saturate at 65 535 per bucket: a client that sends more than that to one
///   host within one bucket (e.g. 5 461 requests per second with the SRE book's 2-minute window)
///   under-counts, which makes budgets and throttles err on the side of fewer retries.
public struct SlidingWindow: Sendable {
    /// Ten buckets, `a` in the high 16 bits and `b` in the low 16 bits of each.
    @usableFromInline var slots: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    /// In bucket mode, the absolute index (`time / bucket length`) of the newest bucket written;
    /// in ring mode, the packed head, count and failures.
    @usableFromInline var mark: Int64

    /// The number of buckets.
    public static let buckets = 10
    /// The largest value a bucket counter holds.
    public static let saturation = UInt32(UInt16.max)

    /// An empty window, not yet anchored in time or used as a ring (the first `add`, `sums` or
    /// `push` decides).
    public init() {
        slots = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        mark = .min
    }

    @inlinable func slot(_ i: Int) -> UInt32 {
        withUnsafeBytes(of: slots) { $0.load(fromByteOffset: i * 4, as: UInt32.self) }
    }

    @inlinable mutating func setSlot(_ i: Int, _ v: UInt32) {
        withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: v, toByteOffset: i * 4, as: UInt32.self) }
    }

    /// The bucket length for a window of `window` nanoseconds (at least 1 ns).
    @inlinable public static func bucketLength(_ window: Nanoseconds) -> Nanoseconds {
        Swift.max(1, window / Int64(buckets))
    }

    @inlinable static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    @inlinable static func index(_ bucket: Int64) -> Int {
        Int(((bucket % 10) + 10) % 10)
    }

    /// Moves the window to the bucket holding `now`, emptying the buckets that left it. Time that
    /// goes backwards leaves the window as it is.
    @inlinable mutating func advance(to now: Nanoseconds, bucket: Nanoseconds) {
        let current = Self.floorDiv(now, bucket)
        if mark == .min {
            mark = current
            return
        }
        guard current > mark else { return }
        let steps = Swift.min(current &- mark, Int64(Self.buckets))
        for k in 1...steps { setSlot(Self.index(mark &+ k), 0) }
        mark = current
    }

    /// Adds `a` and `b` to the bucket holding `now` (saturating).
    @inlinable public mutating func add(a: UInt32 = 0, b: UInt32 = 0, now: Nanoseconds, window: Nanoseconds) {
        let bucket = Self.bucketLength(window)
        advance(to: now, bucket: bucket)
        let i = Self.index(mark)
        let v = slot(i)
        let na = Swift.min(Self.saturation, (v >> 16) &+ a)
        let nb = Swift.min(Self.saturation, (v & 0xFFFF) &+ b)
        setSlot(i, na << 16 | nb)
    }

    /// The sums of `a` and `b` over the window ending at `now`.
    @inlinable public mutating func sums(now: Nanoseconds, window: Nanoseconds) -> (a: Int64, b: Int64) {
        advance(to: now, bucket: Self.bucketLength(window))
        var a: Int64 = 0
        var b: Int64 = 0
        for i in 0..<Self.buckets {
            let v = slot(i)
            a &+= Int64(v >> 16)
            b &+= Int64(v & 0xFFFF)
        }
        return (a, b)
    }

    /// Empties the window.
    @inlinable public mutating func reset() { self = SlidingWindow() }
}

extension SlidingWindow: Hashable, Codable {
    /// Equal when every bucket (or ring bit) and the mark are equal.
    public static func == (l: SlidingWindow, r: SlidingWindow) -> Bool {
        l.mark == r.mark && (0..<buckets).allSatisfy { l.slot($0) == r.slot($0) }
    }

    /// Hashes the mark and the ten buckets, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(mark)
        for i in 0..<Self.buckets { hasher.combine(slot(i)) }
    }

    enum CodingKeys: String, CodingKey { case slots, mark }

    /// Reads `{"slots": [10 numbers], "mark": …}`, the raw storage `encode(to:)` writes.
    ///
    /// - Throws: `DecodingError` when `slots` does not hold exactly 10 values.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let values = try c.decode([UInt32].self, forKey: .slots)
        guard values.count == Self.buckets else {
            throw DecodingError.dataCorruptedError(forKey: .slots, in: c, debugDescription: "expected \(Self.buckets) slots")
        }
        self.init()
        for (i, v) in values.enumerated() { setSlot(i, v) }
        mark = try c.decode(Int64.self, forKey: .mark)
    }

    /// Writes the raw storage, `{"slots": [10 numbers], "mark": …}`, so that a persisted
    /// ``HostGuard`` restores its windows exactly.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode((0..<Self.buckets).map { slot($0) }, forKey: .slots)
        try c.encode(mark, forKey: .mark)
    }
}
