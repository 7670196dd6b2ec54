/// The mutable side of a ``CircuitBreaker`` for one client and host: its phase, the window of
/// outcomes, and the half-open probes. Fixed-size (its window is a ``SlidingWindow``).
public struct CircuitBreakerState: Sendable, Hashable, Codable {
    public enum Phase: UInt8, Sendable, Hashable, Codable {
        case closed, open, halfOpen
    }

    /// What ``check(_:now:)`` says about the next attempt.
    public enum Gate: Sendable, Hashable {
        /// Closed: go.
        case pass
        /// Half-open and a probe is free: go as a probe (commit with ``admitProbe(now:)``).
        case probe
        /// Open, or half-open with every probe out: not before this instant.
        case blocked(until: Nanoseconds)
    }

    /// Bumped at every change of phase; an attempt's outcome counts only if it was admitted in the
    /// current epoch (``OperationRecord/breakerEpoch``).
    public var epoch: UInt32 = 0
    public var consecutiveFailures: Int32 = 0
    /// Consecutive trips without closing in between: the `n` of ``CircuitBreaker/openDuration``.
    public var trips: UInt16 = 0
    public var probesAdmitted: UInt16 = 0
    public var probeOutcomes: UInt16 = 0
    public var probeFailures: UInt16 = 0
    public var phase: Phase = .closed
    /// While open: when it turns half-open. While half-open: until when the other attempts wait
    /// for the probes (one open duration after the last probe was let through, as Polly pushes
    /// `blockedUntil`).
    public var openUntil: Nanoseconds = 0
    /// The latest open duration.
    public var lastOpenDuration: Nanoseconds = 0
    /// The open-duration backoff's memory (for decorrelated jitters).
    public var openMemory: Double = 0
    /// Closed-state outcomes: a ring for count windows, buckets for time windows.
    public var window = SlidingWindow()

    public init() {}

    /// The shortest wait for probes (and for an attempt the breaker refused), so that a zero open
    /// duration or backoff cannot make callers ask again at the same instant forever.
    public static let minimumWait: Nanoseconds = 1_000_000

    /// Whether an attempt may go now. Turns an open breaker half-open once `openUntil` has passed.
    @inlinable public mutating func check(_ b: CircuitBreaker, now: Nanoseconds) -> Gate {
        switch phase {
        case .closed:
            return .pass
        case .open:
            guard now >= openUntil else { return .blocked(until: openUntil) }
            phase = .halfOpen
            epoch &+= 1
            probesAdmitted = 0
            probeOutcomes = 0
            probeFailures = 0
            openUntil = now
            return .probe
        case .halfOpen:
            if Int(probesAdmitted) < b.halfOpenProbes { return .probe }
            if now >= openUntil { openUntil = Time.adding(now, Swift.max(lastOpenDuration, Self.minimumWait)) }
            return .blocked(until: openUntil)
        }
    }

    /// Commits a probe that ``check(_:now:)`` offered.
    @inlinable public mutating func admitProbe(now: Nanoseconds) {
        probesAdmitted &+= 1
        openUntil = Time.adding(now, Swift.max(lastOpenDuration, Self.minimumWait))
    }

    /// Gives back a probe whose attempt was cancelled before it ended, so another may go.
    @inlinable public mutating func releaseProbe(epoch e: UInt32) {
        if phase == .halfOpen && e == epoch && probesAdmitted > probeOutcomes { probesAdmitted &-= 1 }
    }

    /// Forgets probes whose attempts will never report (an app restart): the ones still out may go again.
    @inlinable public mutating func forgetProbesInFlight() {
        if phase == .halfOpen { probesAdmitted = probeOutcomes }
    }

    /// Records the outcome of an attempt admitted in epoch `e`; stale outcomes are ignored.
    @inlinable public mutating func record<R: UniformSource & ~Copyable>(
        _ b: CircuitBreaker, failed: Bool, epoch e: UInt32, now: Nanoseconds, random: inout R
    ) {
        guard e == epoch else { return }
        switch phase {
        case .open:
            return
        case .halfOpen:
            probeOutcomes &+= 1
            if failed { probeFailures &+= 1 }
            if case .consecutive = b.window {
                if failed { open(b, now: now, random: &random) }
                else if Int(probeOutcomes) >= b.halfOpenProbes { close() }
                return
            }
            guard Int(probeOutcomes) >= b.halfOpenProbes else { return }
            let rate = Double(probeFailures) / Double(probeOutcomes)
            let reopen = b.comparison == .atLeast ? rate >= b.failureRateThreshold : rate > b.failureRateThreshold
            if reopen { open(b, now: now, random: &random) } else { close() }
        case .closed:
            let calls: Int
            let failures: Int
            switch b.window {
            case .consecutive(let n):
                consecutiveFailures = failed ? consecutiveFailures &+ 1 : 0
                if Int(consecutiveFailures) >= n { open(b, now: now, random: &random) }
                return
            case .count(let size):
                window.push(failed: failed, size: size)
                calls = window.ringCount
                failures = window.ringFailures
            case .time(let span):
                window.add(a: 1, b: failed ? 1 : 0, now: now, window: span)
                let sums = window.sums(now: now, window: span)
                calls = Int(sums.a)
                failures = Int(sums.b)
            }
            guard failed || b.evaluateOnSuccess else { return }
            if b.trips(calls: calls, failures: failures) { open(b, now: now, random: &random) }
        }
    }

    @inlinable mutating func open<R: UniformSource & ~Copyable>(_ b: CircuitBreaker, now: Nanoseconds, random: inout R) {
        trips = trips == .max ? trips : trips &+ 1
        let d = b.openDuration.delay(retry: Int(trips), memory: &openMemory, random: &random)
        lastOpenDuration = d
        openUntil = Time.adding(now, d)
        phase = .open
        epoch &+= 1
        consecutiveFailures = 0
        window.reset()
    }

    @inlinable mutating func close() {
        phase = .closed
        epoch &+= 1
        trips = 0
        openMemory = 0
        consecutiveFailures = 0
        window.reset()
    }
}
