/// One edge's calls by what became of them: every call that started (`calls`) succeeded, was
/// confirmed applied by a status query, gave up, was blocked, was cancelled, or is still open, so
/// `calls = succeeded + confirmed + gaveUp + blocked + cancelled + open` (``GraphServer/invariantViolation(atEnd:)``).
/// The called service's recorder counts the same, summed over the edges into it; these keep each
/// edge's own. `open` is what the counts leave, and the graph's call table holds the calls apart
/// from them: summed over the edges, `open` must be the table's live slots after every event, and
/// each edge's its live calls there at the end, so a call that ends uncounted (or is counted
/// without ending) breaks the law. Two counts per call, and only in a run that checks its laws
/// (``GraphServer/checksLaws``).
struct EdgeCalls {
    var calls: Int64 = 0
    var succeeded: Int64 = 0
    var confirmed: Int64 = 0
    var gaveUp: Int64 = 0
    var blocked: Int64 = 0
    /// Ended because the request making them was cancelled (``GraphServer/abandonCall(_:_:_:)``).
    var cancelled: Int64 = 0

    /// Calls that ended, whatever the end.
    var ended: Int64 { succeeded + confirmed + gaveUp + blocked + cancelled }
    /// Calls still open, by the counts.
    var open: Int64 { calls - ended }
}
