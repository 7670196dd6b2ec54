/// How far the event loop has got: the time of the event being handled, the events handled, when
/// the last operation ended, and the event limit and progress display that watch them.
struct LoopProgress {
    /// The time of the event being handled, nanoseconds: for the loop's checks and messages only;
    /// handlers act at the ``Moment`` they are given.
    var clock: Int64 = 0
    /// Events popped from the agenda and the server.
    var processed: Int64 = 0
    /// Attempt outcomes handled when the attempt was sent (see ``RunFeatures/settleAhead``).
    var settledAhead: Int64 = 0
    /// When the last operation ended (succeeded, gave up or was blocked), nanoseconds.
    var lastEnd: Int64 = 0
    /// See ``EngineOptions/maxEvents``.
    let eventLimit: Int64
    var eventLimitReached = false
    /// The server model outgrew its memory (``ServerModel/exhausted``) and the loop stopped.
    var memoryLimitReached = false
    /// Where the simulated time is posted for a progress display on another thread (nil: nowhere).
    let display: SimulationProgress?

    init(eventLimit: Int64, display: SimulationProgress?) {
        self.eventLimit = eventLimit
        self.display = display
    }

    /// The events of the run so far, those settled ahead included.
    var events: Int64 { processed &+ settledAhead }

    /// Posts the simulated time for a progress display and checks the event limit.
    /// - Returns: whether to stop (the limit is reached).
    mutating func pause() -> Bool {
        display?.post(clock)
        if events >= eventLimit {
            eventLimitReached = true
            return true
        }
        return false
    }
}
