import RetryPolicy

/// The copies of one hedged call that are out (``RetryPolicy/hedging``): for each, the request
/// it is at the called service and when it went out. Kept beside the call, by its slot, only
/// when some edge hedges.
struct HedgeCopies {
    /// The call's generation when its first copy went out; copy k carries `base + k`.
    var base: UInt32 = 0
    /// Bit k: copy k is out (sent, not yet answered or timed out).
    var live: UInt8 = 0
    /// Copies after the first the policy wanted so far (``Counter/hedgesWanted``): sent, refused
    /// or not needed. In the padding after `live`, as `frozen` is: the struct stays 88 bytes.
    var wanted: UInt8 = 0
    /// Why no copy is wanted any more, once one was refused (the guard's reason) or came too
    /// late (``StopReason/elapsedExceeded``): the copies out go on, and when the last fails the
    /// operation ends for this reason. gRPC's `RetriableStream` freezes a call's hedging the same
    /// way once its throttle is at the threshold; asking again at every later delay counted one
    /// refusal many times (issue 38: 14,697 refusals for 3,093 operations wanting one copy each).
    var frozen: StopReason?
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

/// One hedged edge's copies after the first, by what became of them (``Counter/hedgesWanted``):
/// every copy its calls' policy wanted was sent, refused by a guard, or not needed (the call's
/// deadline had passed). The called service's recorder counts the same, summed over the edges
/// into it; these keep each edge's own, so that its law is checked (``GraphServer/checkCopies(_:)``).
struct EdgeCopies {
    var wanted: Int64 = 0
    var sent: Int64 = 0
    var refused: Int64 = 0
    var notNeeded: Int64 = 0
}
