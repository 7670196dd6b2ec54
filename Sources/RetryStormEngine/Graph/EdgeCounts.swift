/// One edge's traffic after the warmup, as its caller saw it: edges.csv's counts. Each is counted
/// where the called service's recorder counts the same (``GraphServer``), at the same moment, and
/// only from ``GraphServer/warmupEnd`` on, the start of the first bucket services.csv counts: so
/// summed over the edges into a service, each equals that service's services.csv column
/// (``failed`` its `failed + rejected`). Counted in every run, unlike ``EdgeCalls``: a few adds
/// per call and attempt.
package struct EdgeCounts: Sendable, Equatable {
    /// Calls started (services.csv's `calls`).
    package var calls: Int64 = 0
    /// First attempts and retries sent, hedged copies included (`attempts`).
    package var attempts: Int64 = 0
    /// Attempts after a call's first (`retries`), its hedged copies included.
    package var retries: Int64 = 0
    /// Hedged copies after the first sent (each also one of ``retries``).
    package var hedges: Int64 = 0
    /// Retries and hedged copies the edge's retry budget refused (`budget_denied`).
    package var budgetDenied: Int64 = 0
    /// Attempts abandoned at the edge's timeout (`timed_out`).
    package var timedOut: Int64 = 0
    /// Attempts answered with an error: after service, or refused at the door (`failed + rejected`).
    package var failed: Int64 = 0

    package init() {}
}
