/// One edge's calls by what became of them: every call that started (`calls`) succeeded, was
/// confirmed applied by a status query, gave up, was blocked, or is still open, so
/// `calls = succeeded + confirmed + gaveUp + blocked + open` (``GraphServer/invariantViolation(atEnd:)``).
/// The called service's recorder counts the same, summed over the edges into it; these keep each
/// edge's own. `open` moves with the graph's call table, apart from the counts, so a call that
/// ends uncounted (or is counted without ending) breaks the law.
struct EdgeCalls {
    var calls: Int64 = 0
    var succeeded: Int64 = 0
    var confirmed: Int64 = 0
    var gaveUp: Int64 = 0
    var blocked: Int64 = 0
    var open: Int64 = 0

    /// Calls that ended, whatever the end.
    var ended: Int64 { succeeded + confirmed + gaveUp + blocked }
}
