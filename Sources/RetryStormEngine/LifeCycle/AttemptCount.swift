/// What a host counts of its operations' sends (``AttemptHost/count(_:_:_:)``), each where the
/// host counts it: the clients' recorder (and the operation's population), or the called
/// service's recorder (and the edge, after the warmup).
enum AttemptCount {
    /// An attempt went out: the operation's first, or a retry.
    case firstAttempt, retry
    /// A status query went out.
    case query
    /// The policy held the next attempt back (a wait, or a full concurrency limit).
    case heldBack
    /// An attempt succeeded.
    case succeeded
    /// An attempt timed out.
    case timedOut
    /// A hedged operation wanted one more copy (``Counter/hedgesWanted``), which was then sent,
    /// refused by a guard, or not needed (its deadline had passed).
    case copyWanted, copySent, copyRefused, copyNotNeeded
}
