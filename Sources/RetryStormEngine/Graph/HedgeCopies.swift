import RetryPolicy

/// One hedged call's copies (``RetryPolicy/hedging``): the bookkeeping every host shares
/// (``HedgedAttempt``), and what only an edge needs, each copy's request at the called service,
/// to cancel it there. Kept beside the call, by its slot, only when some edge hedges.
struct HedgeCopies {
    /// The copies out, their send times, the timer and the freeze.
    var attempt = HedgedAttempt()
    /// Copy k's request at the called service: its slot in the high half, its generation in the low.
    var requests = PerCopy<UInt64>(repeating: 0)

    /// The copies out, as a bitmask (bit k: copy k).
    var live: UInt8 { attempt.copiesOut.bits }
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
