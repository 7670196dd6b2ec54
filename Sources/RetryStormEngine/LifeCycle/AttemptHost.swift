import GSLSupport
import RetryPolicy

/// Where operations of a retry policy live and run: the clients (``Simulation``), and the services
/// of a call graph calling the next (``GraphServer``, whose operations are its calls). The life
/// cycle of an attempt is written once, in this protocol's extensions
/// (`AttemptHost+Sends.swift`, `AttemptHost+Outcomes.swift`): starting an attempt or holding it
/// back, a status query, an answer, a timeout, the policy's decision followed under the
/// operation's deadline, an ambiguous write reconciled. A host supplies the requirements below:
/// where an operation's state is, what it counts, how it schedules and sends. Both hosts are
/// concrete types, so every handler is specialised per host (no existential), and the lean loop
/// (``LoopKind``) still compiles out what it leaves out.
///
/// An operation is named by its slot in the host's table; every requirement that takes one acts
/// on the operation in that slot now (the handlers check generations before they call in).
///
/// Where the hosts differ on purpose, the difference is a requirement whose meaning each host
/// documents, never code that silently differs:
/// - ``refreshCredentials(_:at:)``: a client renews its credential; a call has none checked (a
///   called service checks no credentials of its callers).
/// - ``letGo(_:_:)``: an edge that propagates cancellation cancels the attempt its call stops
///   waiting for; a client's attempt goes on at the server.
/// - ``checkDeadlineAtSend(_:)`` and ``sendIsPastDeadline(_:_:)``: a client marks the sends that
///   may come at its deadline, so that the others test nothing; a call tests its request's
///   deadline at every send.
/// - ``send(_:_:query:_:_:_:)``: a client may be offline; a call keeps each hedged copy's request,
///   to cancel it at the called service.
protocol AttemptHost: ~Copyable {
    /// The policy type of the host's operations.
    associatedtype Policy: ClientPolicy
    /// What the handlers of one event are lent to reach a policy with: the clients' population-0
    /// policy, borrowed so that it is read in place (see ``LoopKind``); nothing on a call graph,
    /// whose policies are its edges'.
    associatedtype Lent
    /// The time handlers act at: a ``Moment`` at the clients, nanoseconds on a call graph.
    associatedtype Instant: HandlerTime

    /// Some operation may have a deadline (``deadline(of:)`` is not always `Int64.max`).
    var hasDeadlines: Bool { get }

    /// The host guard `op`'s attempts run against (its budget, breaker, throttle and concurrency
    /// slots, with their waiters): a client's per host; a call's edge's, the calling service's.
    func hostGuard(of op: UInt32) -> Int
    /// Lends `op`'s policy, its record, its host guard `g` (``hostGuard(of:)``) and the policies'
    /// random draws to `body`.
    mutating func withPolicy<R, C: LoopKind>(
        _ op: UInt32, guard g: Int, _ lent: borrowing Lent, _ loop: C.Type,
        _ body: (borrowing Policy, inout OperationRecord, inout HostGuard, inout RandomView) -> R
    ) -> R

    /// `op` has made an attempt: its next is a retry.
    func hasAttempted(_ op: UInt32) -> Bool
    /// When `op`'s operation must end, nanoseconds (`Int64.max`: never).
    func deadline(of op: UInt32) -> Int64
    /// The next send of `op` is a status query (``RetryDecision/reconcile(at:)``).
    func isReconciling(_ op: UInt32) -> Bool
    mutating func setReconciling(_ op: UInt32, _ on: Bool)
    /// The server applied one of `op`'s writes: what its status query finds.
    func hasApplied(_ op: UInt32) -> Bool
    /// `op` waits for an answer, or no longer does.
    mutating func setAwaiting(_ op: UInt32, _ on: Bool)
    /// A send of `op` starts (an attempt, or a status query if `query`): its generation moves on,
    /// it waits for the answer, the send is in flight. Returns the send's generation.
    mutating func beginSend(_ op: UInt32, query: Bool) -> UInt32
    /// `op`'s send in flight has its answer, or its timeout: no longer in flight.
    mutating func sendEnded(_ op: UInt32, query: Bool)
    /// Counts `what` for `op` now.
    mutating func count(_ what: AttemptCount, _ op: UInt32, _ now: Instant)
    /// Counts a failed answer `code` for `op` (rejected or failed) and returns it as the policy
    /// reads it (with the server's Retry-After).
    mutating func failure(_ code: ResponseCode, _ op: UInt32, _ now: Instant) -> NormalizedError

    /// Whether `op`'s next send is not a plain attempt: a status query, or one that may come at
    /// or after its deadline. A cheap test, so that a plain attempt tests nothing else.
    func sendIsUnusual<C: LoopKind>(_ op: UInt32, _ loop: C.Type) -> Bool
    /// Whether `op`'s send due now comes at or after its deadline (so the operation ends).
    mutating func sendIsPastDeadline(_ op: UInt32, _ now: Instant) -> Bool
    /// `op`'s next send may come at its deadline: the send must test it.
    mutating func checkDeadlineAtSend(_ op: UInt32)
    /// `op`'s next send is due at `time` (nothing at or after the horizon).
    mutating func scheduleSend(_ op: UInt32, at time: Int64)
    /// Puts `op`'s send `generation` on the wire (an attempt, or a status query if `query`): its
    /// timeout, then the server.
    mutating func send<C: LoopKind>(
        _ op: UInt32, _ generation: UInt32, query: Bool, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type)
    /// `op` stops waiting for its send in flight, which timed out.
    mutating func letGo(_ op: UInt32, _ now: Instant)
    /// `op` waits for a concurrency slot of its host guard `g`.
    mutating func park(_ op: UInt32, guard g: Int)
    /// An attempt of host guard `g` ended: its waiters may go.
    mutating func wake<C: LoopKind>(_ g: Int, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type)
    /// `op`'s credential is refreshed, complete at `time`, before its retry.
    mutating func refreshCredentials(_ op: UInt32, at time: Int64)

    /// The policy refused `op`'s next attempt before it was sent (`reason`): counted as a
    /// refusal, and as a refused retry where it was one (``Recorder/attemptRefused(_:retry:_:)``).
    mutating func attemptRefused(_ op: UInt32, _ reason: StopReason, _ now: Instant)
    /// The retry budget refused the retry `op`'s failed attempt asked for.
    mutating func retryRefusedByBudget(_ op: UInt32, _ now: Instant)
    /// `op` of host guard `g` succeeded (its policy told): its time to success, its guard's
    /// waiters, its end.
    mutating func operationSucceeded<C: LoopKind>(_ op: UInt32, guard g: Int, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type)
    /// A status query found `op`'s write applied: it ends, succeeded.
    mutating func confirmed(_ op: UInt32, _ now: Instant)
    /// `op` ends without success (`reason`: given up or blocked).
    mutating func endOperation(_ op: UInt32, reason: StopReason, _ now: Instant)

    // MARK: Hedging (`AttemptHost+Hedging.swift`)

    /// `op`'s current generation: its latest send's.
    func currentGeneration(of op: UInt32) -> UInt32
    /// Whether `op`'s attempt that has just begun is a hedged copy. For its `first` copy the host
    /// looks up the policy's ``ClientPolicy/hedging`` and, if it hedges, starts `op`'s copies
    /// (``withHedge(_:_:)``) with this generation as copy 0's.
    mutating func startsCopies<C: LoopKind>(_ op: UInt32, first: Bool, _ lent: borrowing Lent, _ loop: C.Type) -> Bool
    /// Lends `op`'s copies (``HedgedAttempt``) to `body`.
    mutating func withHedge<R>(_ op: UInt32, _ body: (inout HedgedAttempt) -> R) -> R
    /// Lends the latency window of `op`'s policy (nil unless its hedging delay is a percentile) to
    /// `body`: a client population's, or an edge's.
    mutating func withLatencies<R>(_ op: UInt32, _ body: (inout LatencyWindow?) -> R) -> R
    /// `op` stops waiting for its copy `copy`, which timed out (as ``letGo(_:_:)`` for an attempt).
    mutating func letGo(_ op: UInt32, copy: Int, _ now: Instant)
    /// `op`'s `copies` (copy k carrying `base + k`) are abandoned: counted so, no longer in
    /// flight, and cancelled where they wait if `cancel`.
    mutating func copiesAbandoned(_ op: UInt32, _ copies: CopySet, base: UInt32, cancel: Bool, _ now: Instant)
    /// A law of the life cycle does not hold (`message`): reported where the host's internal
    /// checks are (a run that checks its invariants fails with it).
    mutating func lawBroken(_ message: String)
}
