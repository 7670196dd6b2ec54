/// The bookkeeping of one hedged attempt's copies (``RetryPolicy/hedging``): which are out, when
/// each went out, how many more were wanted, and whether hedging froze. A state machine in the
/// shape of swift-nio's (`NIOThrowingAsyncSequenceProducerStateMachine`): every input is a
/// mutating function that returns an action for the host to apply. It counts nothing, schedules
/// nothing and allocates nothing; the policy decides (``RetryPolicy/admitCopy(record:host:now:random:afterFailure:)``,
/// ``RetryPolicy/copyFailed(after:othersInFlight:record:host:now:random:)``), this keeps the copies.
///
/// The simulator's clients, a call graph's hedged edges and the app's
/// ``hedging(host:record:random:normalizer:operation:)`` all drive this one type, so an app ships
/// the bookkeeping that is simulated.
///
/// Copies are named by generation: copy k carries `base + k` (wrapping), the host's counter for
/// its attempts. The next-copy timer a host arms after ``sent(generation:at:)`` carries the
/// latest copy's generation, so that a timer armed for an older copy is stale
/// (``delayElapsed(generation:at:deadline:)``). Times are ``Nanoseconds`` on the host's clock.
///
/// Life: ``init(base:)`` is idle; the first ``sent(generation:at:)`` starts hedging; the attempt
/// ends at a win (``answered(generation:ok:at:)``), at ``abandonAll()``, or when a copy is not
/// wanted with none out (``Then/end(_:)``). Hedging freezes after a refusal or past the deadline:
/// no copy is wanted again and the copies out go on, as gRPC's `RetriableStream` stops hedging
/// once throttled.
///
/// Each wanted copy is exactly one of sent, refused or not needed: a host that counts
/// ``WantAction/admit`` and ``WantAction/notNeeded(_:)`` as wanted, and then the sends and
/// refusals, keeps `wanted = sent + refused + not needed`.
public struct HedgedAttempt: Sendable, Hashable {
    /// Where the attempt is.
    @usableFromInline enum State: Sendable, Hashable {
        /// No copy sent yet; copy 0 will carry `base`.
        case idle(base: UInt32)
        /// Copy 0 has gone out and no copy has won.
        case hedging(Copies)
        /// A copy won, or the attempt was abandoned or ended with no copy out.
        case ended
    }

    /// The copies of an attempt under way.
    @usableFromInline struct Copies: Sendable, Hashable {
        /// When copy k went out (k < `sent`).
        @usableFromInline var sentAt: PerCopy<Nanoseconds>
        /// Copy 0's generation.
        @usableFromInline var base: UInt32
        /// The copies out: sent, not yet answered or timed out.
        @usableFromInline var out: CopySet
        /// Copies sent, copy 0 included; the next copy is copy `sent`.
        @usableFromInline var sent: UInt8
        /// Copies after the first wanted so far: sent, refused or not needed.
        @usableFromInline var wanted: UInt8
        /// A wanted copy waits for the policy's word (``WantAction/admit``): ``sent(generation:at:)``
        /// or ``refused(_:)`` comes next.
        @usableFromInline var asking: Bool
        /// Why no copy is wanted any more, once one was refused (the guard's reason) or came
        /// too late (``StopReason/elapsedExceeded``).
        @usableFromInline var frozen: StopReason?

        @inlinable init(base: UInt32, firstAt now: Nanoseconds) {
            sentAt = PerCopy(repeating: now)
            self.base = base
            out = CopySet(bits: 1)
            sent = 1
            wanted = 0
            asking = false
            frozen = nil
        }
    }

    @usableFromInline var state: State

    /// An attempt with no copy sent yet, whose copy 0 will carry generation `base`.
    @inlinable public init(base: UInt32 = 0) { state = .idle(base: base) }

    // MARK: Reading

    /// The copies out (sent, not answered, not timed out); empty unless hedging.
    @inlinable public var copiesOut: CopySet {
        if case .hedging(let c) = state { c.out } else { CopySet() }
    }

    /// Copies sent so far, the first included (0 when idle or ended).
    @inlinable public var sent: Int {
        if case .hedging(let c) = state { Int(c.sent) } else { 0 }
    }

    /// Copies after the first wanted so far: sent, refused or not needed (0 when idle or ended).
    @inlinable public var wanted: Int {
        if case .hedging(let c) = state { Int(c.wanted) } else { 0 }
    }

    /// Why hedging froze (no copy is wanted again), if it did.
    @inlinable public var frozen: StopReason? {
        if case .hedging(let c) = state { c.frozen } else { nil }
    }

    /// Whether the attempt ended (a win, ``abandonAll()``, or ``Then/end(_:)``).
    @inlinable public var isEnded: Bool {
        if case .ended = state { true } else { false }
    }

    /// The generation the live next-copy timer carries (the latest copy's); nil unless hedging.
    @inlinable public var timerGeneration: UInt32? {
        if case .hedging(let c) = state { c.base &+ UInt32(c.sent) &- 1 } else { nil }
    }

    /// When the copy carrying `generation` went out, nanoseconds, if it is out; nil otherwise.
    @inlinable public func sentAt(generation: UInt32) -> Nanoseconds? {
        guard case .hedging(let c) = state, let k = c.index(of: generation) else { return nil }
        return c.sentAt[k]
    }
}

extension HedgedAttempt.Copies {
    /// The index of the copy that carries `generation`, if it is out.
    @inlinable func index(of generation: UInt32) -> Int? {
        let k = generation &- base
        return k < UInt32(Hedging.maxCopies) && out.contains(Int(k)) ? Int(k) : nil
    }
}
