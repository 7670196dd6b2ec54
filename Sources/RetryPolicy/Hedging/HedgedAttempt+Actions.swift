/// What a host does after an input of ``HedgedAttempt``.
extension HedgedAttempt {
    /// After ``HedgedAttempt/sent(generation:at:)``.
    public enum SentAction: Sendable, Hashable {
        /// Arm the next-copy timer with `generation` (the copy just sent), if a next copy is due.
        case armTimer(generation: UInt32)
    }

    /// After ``HedgedAttempt/answered(generation:ok:at:)`` or ``HedgedAttempt/timedOut(generation:at:)``.
    public enum OutcomeAction: Sendable, Hashable {
        /// The copy is not out: ignore it (an answer's work was wasted).
        case stale
        /// A copy won: the attempt ended (see ``Win``).
        case won(Win)
        /// Copy `copy` failed after `outFor` nanoseconds out, `othersOut` copies still out: the
        /// policy decides (``RetryPolicy/copyFailed(after:othersInFlight:record:host:now:random:)``).
        case failed(copy: Int, othersOut: Int32, outFor: Nanoseconds)
    }

    /// After ``HedgedAttempt/wantCopy(at:deadline:)`` or ``HedgedAttempt/delayElapsed(generation:at:deadline:)``.
    public enum WantAction: Sendable, Hashable {
        /// A timer armed for an older copy, or no attempt under way: nothing.
        case stale
        /// One more copy is wanted (count it): ask the policy, then report ``HedgedAttempt/sent(generation:at:)``
        /// or ``HedgedAttempt/refused(_:)``.
        case admit
        /// A copy was wanted (count it) past the deadline: not needed, and hedging froze
        /// (``StopReason/elapsedExceeded``).
        case notNeeded(Then)
        /// No copy is wanted (not counted): hedging froze earlier, or ``Hedging/maxCopies``
        /// copies have gone out (``StopReason/attemptsExhausted``).
        case notWanted(Then)
    }

    /// Whether the attempt goes on without one more copy.
    public enum Then: Sendable, Hashable {
        /// Copies are out: wait for them.
        case wait
        /// No copy is out: the attempt ended for this reason (stop the operation's record with it).
        case end(StopReason)
    }

    /// After ``HedgedAttempt/abandonAll()``.
    public enum AbandonAction: Sendable, Hashable {
        /// No copy was out.
        case none
        /// These copies were out (copy k carries `base + k`): count them abandoned and cancel
        /// them at the server.
        case cancel(CopySet, base: UInt32)
    }

    /// A copy's success ended the attempt: the winner, and the copies it outran, still out.
    public struct Win: Sendable, Hashable {
        /// The winning copy's index.
        public let copy: Int
        /// The copies still out, outrun: count them abandoned and cancel them at the server.
        public let outrun: CopySet
        /// Copy 0's generation: copy k carries `base + k`.
        public let base: UInt32
        /// When the winner answered, nanoseconds.
        public let at: Nanoseconds
        @usableFromInline let sentAt: PerCopy<Nanoseconds>

        @inlinable init(copy: Int, outrun: CopySet, base: UInt32, at: Nanoseconds, sentAt: PerCopy<Nanoseconds>) {
            self.copy = copy
            self.outrun = outrun
            self.base = base
            self.at = at
            self.sentAt = sentAt
        }

        /// The winner's latency, nanoseconds.
        @inlinable public var latency: Nanoseconds { at &- sentAt[copy] }

        /// How long copy `k` had been out when the winner answered, nanoseconds.
        @inlinable public func outFor(_ k: Int) -> Nanoseconds { at &- sentAt[k] }

        /// Counts into `window`, as Finagle's backup requests do, the winner's latency and each
        /// outrun copy's time out so far: a loser's latency is at least that, and leaving it out
        /// would pull the percentile down. (Timed-out copies count their timeout where they time
        /// out; failures, fast, do not count.)
        @inlinable public func record(into window: inout LatencyWindow) {
            window.record(latency, now: at)
            for k in outrun { window.record(outFor(k), now: at) }
        }
    }
}
