/// The inputs of ``HedgedAttempt``: each returns what the host must do.
extension HedgedAttempt {
    /// The copy carrying `generation` went out at `now`: copy 0 from idle (`generation` is the
    /// base), or the next copy after ``WantAction/admit`` and the policy's yes.
    ///
    /// - Precondition: `generation` is the next copy's, fewer than ``Hedging/maxCopies`` have
    ///   gone out, the attempt has not ended, and a later copy was admitted.
    /// - Returns: arm the next-copy timer with the returned generation, if the policy has a
    ///   delay and a next copy is due (``RetryPolicy/nextCopyAt(record:delay:)``).
    @inlinable public mutating func sent(generation: UInt32, at now: Nanoseconds) -> SentAction {
        switch state {
        case .idle(let base):
            precondition(generation == base, "copy 0 of a hedged attempt carries its base \(base), not \(generation)")
            state = .hedging(Copies(base: base, firstAt: now))
        case .hedging(var c):
            let k = Int(c.sent)
            precondition(k < Hedging.maxCopies, "copy \(k) of a hedged attempt (at most \(Hedging.maxCopies))")
            precondition(generation == c.base &+ UInt32(k), "copy \(k) carries \(c.base &+ UInt32(k)), not \(generation)")
            _policyInvariant(c.asking, "copy \(k) sent without being admitted")
            c.asking = false
            c.sentAt[k] = now
            c.out.insert(k)
            c.sent &+= 1
            state = .hedging(c)
        case .ended:
            preconditionFailure("a copy sent after its hedged attempt ended")
        }
        _checkInvariants()
        return .armTimer(generation: generation)
    }

    /// An answer (`ok`: a success) for the copy carrying `generation`, at `now`.
    ///
    /// - Returns: ``OutcomeAction/stale`` if that copy is not out (outrun, timed out, or of an
    ///   attempt that ended): its work was wasted. ``OutcomeAction/won(_:)``: the attempt ended,
    ///   and the copies still out were outrun (abandon and cancel them). ``OutcomeAction/failed(copy:othersOut:outFor:)``:
    ///   the policy decides.
    @inlinable public mutating func answered(generation: UInt32, ok: Bool, at now: Nanoseconds) -> OutcomeAction {
        guard case .hedging(var c) = state, let k = c.index(of: generation) else { return .stale }
        c.out.remove(k)
        if ok {
            state = .ended
            return .won(Win(copy: k, outrun: c.out, base: c.base, at: now, sentAt: c.sentAt))
        }
        state = .hedging(c)
        _checkInvariants()
        return .failed(copy: k, othersOut: Int32(c.out.count), outFor: now &- c.sentAt[k])
    }

    /// The copy carrying `generation` timed out at `now`: its host stops waiting for it (it goes
    /// on at the server).
    ///
    /// - Returns: ``OutcomeAction/stale`` if that copy is not out, else
    ///   ``OutcomeAction/failed(copy:othersOut:outFor:)``, whose `outFor` a percentile delay counts.
    @inlinable public mutating func timedOut(generation: UInt32, at now: Nanoseconds) -> OutcomeAction {
        answered(generation: generation, ok: false, at: now)
    }

    /// The next-copy timer armed with `generation` went off at `now`; `deadline` is the
    /// operation's (`Nanoseconds.max` for none).
    ///
    /// - Returns: ``WantAction/stale`` for a timer armed for an older copy or an attempt that is
    ///   not under way; otherwise as ``wantCopy(at:deadline:)``.
    @inlinable public mutating func delayElapsed(generation: UInt32, at now: Nanoseconds, deadline: Nanoseconds) -> WantAction {
        guard generation == timerGeneration else { return .stale }
        return wantCopy(at: now, deadline: deadline)
    }

    /// The host would send one more copy at `now` (its delay passed, or a copy failed and the
    /// policy said ``HedgeDecision/sendNow``); `deadline` is the operation's (`Nanoseconds.max`
    /// for none). The rules every host shares: none after hedging froze, none past
    /// ``Hedging/maxCopies`` (a caller's policy may ask for more), none that could not finish
    /// before the deadline.
    ///
    /// - Returns: ``WantAction/admit``: wanted; ask the policy, then ``sent(generation:at:)`` or
    ///   ``refused(_:)``. ``WantAction/notNeeded(_:)``: wanted, past the deadline; hedging froze.
    ///   ``WantAction/notWanted(_:)``: not wanted (frozen earlier, or the five-copy guard).
    ///   ``WantAction/stale``: no attempt under way. With ``Then/end(_:)`` no copy is out and the
    ///   attempt ended for that reason.
    @inlinable public mutating func wantCopy(at now: Nanoseconds, deadline: Nanoseconds) -> WantAction {
        guard case .hedging(var c) = state else { return .stale }
        _policyInvariant(!c.asking, "a copy wanted while the last one waits for the policy")
        if let reason = c.frozen { return .notWanted(end(c, reason)) }
        if Int(c.sent) >= Hedging.maxCopies { return .notWanted(end(c, .attemptsExhausted)) }
        c.wanted &+= 1
        if now >= deadline {
            // No copy starts that cannot finish in time; the ones out time out at the deadline.
            c.frozen = .elapsedExceeded
            state = .hedging(c)
            let then = end(c, .elapsedExceeded)
            _checkInvariants()
            return .notNeeded(then)
        }
        c.asking = true
        state = .hedging(c)
        _checkInvariants()
        return .admit
    }

    /// The policy refused the copy ``WantAction/admit`` asked for, for `reason`: hedging freezes
    /// (no copy is wanted again; gRPC's `RetriableStream` stops hedging once throttled, and
    /// asking again at every later delay would count one refusal many times).
    ///
    /// - Precondition: the last input was ``wantCopy(at:deadline:)`` or ``delayElapsed(generation:at:deadline:)``
    ///   returning ``WantAction/admit``.
    /// - Returns: ``Then/wait`` while copies are out; ``Then/end(_:)`` (`reason`) with none out.
    @inlinable public mutating func refused(_ reason: StopReason) -> Then {
        guard case .hedging(var c) = state else { preconditionFailure("a copy refused for a hedged attempt not under way") }
        _policyInvariant(c.asking, "a copy refused without being asked for")
        c.asking = false
        c.frozen = reason
        state = .hedging(c)
        let then = end(c, reason)
        _checkInvariants()
        return then
    }

    /// The host gives up on the copies out (the operation stopped, the app restarted or the
    /// task was cancelled): the attempt ends.
    ///
    /// - Returns: ``AbandonAction/cancel(_:base:)`` with the copies that were out (abandon them,
    ///   and cancel them at the server); ``AbandonAction/none`` when none was.
    @inlinable public mutating func abandonAll() -> AbandonAction {
        guard case .hedging(let c) = state else {
            state = .ended
            return .none
        }
        state = .ended
        return c.out.isEmpty ? .none : .cancel(c.out, base: c.base)
    }

    /// ``Then/end(_:)`` for `reason` if no copy is out (the attempt ends here), else ``Then/wait``.
    @inlinable mutating func end(_ c: Copies, _ reason: StopReason) -> Then {
        guard c.out.isEmpty else { return .wait }
        state = .ended
        return .end(reason)
    }
}
