import RetryPolicy

/// The copies of one hedged call that are out (``RetryPolicy/hedging``): for each, the request
/// it is at the called service and when it went out. Kept beside the call, by its slot, only
/// when some edge hedges.
struct HedgeCopies {
    /// The call's generation when its first copy went out; copy k carries `base + k`.
    var base: UInt32 = 0
    /// Bit k: copy k is out (sent, not yet answered or timed out).
    var live: UInt8 = 0
    /// Copy k's request at the called service: its slot in the high half, its generation in the low.
    var requests = InlineArray<5, UInt64>(repeating: 0)
    /// When copy k went out, nanoseconds.
    var sentAt = InlineArray<5, Int64>(repeating: 0)

    /// Copies out.
    var count: Int32 { Int32(live.nonzeroBitCount) }

    /// Counts into `window`, as Finagle's backup requests do, the winning copy `winner`'s latency
    /// at `now` and each copy it supersedes (still out) its time out so far: a loser's latency is
    /// at least that, and leaving it out would pull the percentile down. Timed-out copies count
    /// their timeout where they time out; failures, fast, do not count.
    func recordWin(_ winner: Int, into window: inout LatencyWindow, now: Int64) {
        window.record(now &- sentAt[winner], now: now)
        var rest = live & ~(1 << UInt8(winner))
        while rest != 0 {
            let k = rest.trailingZeroBitCount
            rest &= rest - 1
            window.record(now &- sentAt[k], now: now)
        }
    }

    /// The index of the copy that carries `generation`, if it is out.
    @inline(__always) func index(of generation: UInt32) -> Int? {
        let k = generation &- base
        return k < 5 && live & (1 << k) != 0 ? Int(k) : nil
    }
}
