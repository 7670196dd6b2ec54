import RetryPolicy

/// Which of the engine's optional paths a run takes, decided once when it starts from the
/// scenario, the policies and the server model. The handlers branch on these on every event; each
/// branch goes the same way for the whole run.
struct RunFeatures {
    /// Whether every attempt has the same timeout: its timeouts then come in the order they are
    /// scheduled and go to the agenda's FIFO.
    let uniformTimeout: Bool
    /// Whether operations have an end-to-end deadline (`clients.deadline`, in any population):
    /// attempts' timeouts are then cut to it (so they are not uniform) and no attempt starts past it.
    let deadline: Bool
    /// Whether attempt outcomes are settled when the attempt is sent rather than queued as events:
    /// whenever the server settles requests on arrival (``ServerModel/settleAhead``, set up only
    /// where ``Simulation/canSettleAhead(_:_:)`` holds).
    /// Exact when nothing can touch an operation between its send and its outcome and the order of
    /// outcomes cannot matter: the server settles requests on arrival, the policy keeps no state
    /// across operations (no budget, breaker, throttle or concurrency limit), and no fleet-wide
    /// happening (restart wave, reconnect nudge), expiring credentials, network hop, error mix or
    /// applied-write tracking is modelled. Random draws then come in another order, so the results
    /// agree with the all-events run in distribution (and exactly when no draw moves).
    let settleAhead: Bool
    /// Track which writes the server applied (duplicates without idempotency keys, reconciliation).
    let trackApplied: Bool
    /// Count writes applied more than once (some policy sends no idempotency key).
    let countDuplicates: Bool
    /// The clients' offline window (nil: none).
    let offline: Scenario.Offline?
    /// The restart wave (nil: none).
    let restart: Scenario.Restart?
    /// Whether some population's policy hedges (``ClientPolicy/hedging``): its operations send
    /// copies while none has answered (`Simulation+Hedging.swift`), in the general loop only.
    let hedging: Bool
}
