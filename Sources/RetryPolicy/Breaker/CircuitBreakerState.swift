/// The mutable side of a ``CircuitBreaker`` for one client and host: its phase with what only
/// that phase uses (the closed window, the open deadline, the half-open probes), and what lasts
/// across phases. Fixed-size (the window is a ``SlidingWindow``).
public struct CircuitBreakerState: Sendable, Hashable, Codable {
    /// Where the breaker stands, each phase carrying its own state.
    public enum Phase: Sendable, Hashable, Codable {
        /// Attempts pass and their outcomes are counted.
        case closed(Closed)
        /// Attempts are refused until this instant; the first one after it turns the breaker half-open.
        case open(until: Nanoseconds)
        /// Probes go through; the other attempts wait.
        case halfOpen(HalfOpen)
    }

    /// What a closed breaker counts.
    public struct Closed: Sendable, Hashable, Codable {
        /// Outcomes: a ring for count windows, buckets for time windows.
        public var window = SlidingWindow()
        /// Failures in a row, for consecutive windows.
        public var consecutiveFailures: Int32 = 0

        /// An empty window and no failures: a breaker that has just closed.
        public init() {}
    }

    /// A half-open breaker's probes.
    public struct HalfOpen: Sendable, Hashable, Codable {
        /// Probes let through since it turned half-open.
        public var probesAdmitted: UInt16 = 0
        /// Probes that have ended, and how many of those failed.
        public var probeOutcomes: UInt16 = 0
        /// Probes that have ended in a failure the breaker counts (≤ `probeOutcomes`).
        public var probeFailures: UInt16 = 0
        /// Until when attempts other than the probes wait: one open duration after the last probe
        /// was let through, as Polly pushes `blockedUntil`.
        public var othersWaitUntil: Nanoseconds

        /// A breaker that has just turned half-open: no probe out yet, other attempts blocked until
        /// `othersWaitUntil` (nanoseconds, the caller's clock).
        public init(othersWaitUntil: Nanoseconds) { self.othersWaitUntil = othersWaitUntil }
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

    /// Where the breaker stands, with that phase's own state; closed with an empty window at first.
    public var phase: Phase = .closed(Closed())
    /// Bumped at every change of phase; an attempt's outcome counts only if it was admitted in the
    /// current epoch (``OperationRecord/breakerEpoch``).
    public var epoch: UInt32 = 0
    /// Consecutive trips without closing in between: the `n` of ``CircuitBreaker/openDuration``.
    public var trips: UInt16 = 0
    /// The latest open duration.
    public var lastOpenDuration: Nanoseconds = 0
    /// The open-duration backoff's memory (for decorrelated jitters).
    public var openMemory: Double = 0

    /// A closed breaker with no history: epoch 0, no trips.
    public init() {}

    /// The shortest wait for probes (and for an attempt the breaker refused), so that a zero open
    /// duration or backoff cannot make callers ask again at the same instant forever.
    public static let minimumWait: Nanoseconds = 1_000_000

    /// When an open breaker turns half-open; nil unless open.
    public var openUntil: Nanoseconds? {
        if case .open(let until) = phase { until } else { nil }
    }

    /// Whether an attempt may go now. Turns an open breaker half-open once its deadline has passed.
    @inlinable public mutating func check(_ b: CircuitBreaker, now: Nanoseconds) -> Gate {
        switch phase {
        case .closed:
            return .pass
        case .open(let until):
            guard now >= until else { return .blocked(until: until) }
            phase = .halfOpen(HalfOpen(othersWaitUntil: now))
            epoch &+= 1
            return .probe
        case .halfOpen(var h):
            if Int(h.probesAdmitted) < b.halfOpenProbes { return .probe }
            if now >= h.othersWaitUntil {
                h.othersWaitUntil = Time.adding(now, Swift.max(lastOpenDuration, Self.minimumWait))
                phase = .halfOpen(h)
            }
            return .blocked(until: h.othersWaitUntil)
        }
    }

    /// Commits a probe that ``check(_:now:)`` offered.
    @inlinable public mutating func admitProbe(now: Nanoseconds) {
        guard case .halfOpen(var h) = phase else { return }
        h.probesAdmitted &+= 1
        h.othersWaitUntil = Time.adding(now, Swift.max(lastOpenDuration, Self.minimumWait))
        phase = .halfOpen(h)
    }

    /// Gives back a probe whose attempt was cancelled before it ended, so another may go.
    @inlinable public mutating func releaseProbe(epoch e: UInt32) {
        guard case .halfOpen(var h) = phase, e == epoch, h.probesAdmitted > h.probeOutcomes else { return }
        h.probesAdmitted &-= 1
        phase = .halfOpen(h)
    }

    /// Forgets probes whose attempts will never report (an app restart): the ones still out may go again.
    @inlinable public mutating func forgetProbesInFlight() {
        guard case .halfOpen(var h) = phase else { return }
        h.probesAdmitted = h.probeOutcomes
        phase = .halfOpen(h)
    }

    /// Records the outcome of an attempt admitted in epoch `e`; stale outcomes are ignored.
    @inlinable public mutating func record<R: UniformSource & ~Copyable>(
        _ b: CircuitBreaker, failed: Bool, epoch e: UInt32, now: Nanoseconds, random: inout R
    ) {
        guard e == epoch else { return }
        switch phase {
        case .open:
            return
        case .halfOpen(var h):
            h.probeOutcomes &+= 1
            if failed { h.probeFailures &+= 1 }
            if case .consecutive = b.window {
                if failed {
                    open(b, now: now, random: &random)
                } else if Int(h.probeOutcomes) >= b.halfOpenProbes {
                    close()
                } else {
                    phase = .halfOpen(h)
                }
                return
            }
            guard Int(h.probeOutcomes) >= b.halfOpenProbes else {
                phase = .halfOpen(h)
                return
            }
            let rate = Double(h.probeFailures) / Double(h.probeOutcomes)
            let reopen = b.comparison == .atLeast ? rate >= b.failureRateThreshold : rate > b.failureRateThreshold
            if reopen { open(b, now: now, random: &random) } else { close() }
        case .closed(var c):
            let calls: Int
            let failures: Int
            switch b.window {
            case .consecutive(let n):
                c.consecutiveFailures = failed ? c.consecutiveFailures &+ 1 : 0
                if Int(c.consecutiveFailures) >= n { open(b, now: now, random: &random) } else { phase = .closed(c) }
                return
            case .count(let size):
                c.window.push(failed: failed, size: size)
                calls = c.window.ringCount
                failures = c.window.ringFailures
            case .time(let span):
                c.window.add(a: 1, b: failed ? 1 : 0, now: now, window: span)
                let sums = c.window.sums(now: now, window: span)
                calls = Int(sums.a)
                failures = Int(sums.b)
            }
            phase = .closed(c)
            guard failed || b.evaluateOnSuccess else { return }
            if b.trips(calls: calls, failures: failures) { open(b, now: now, random: &random) }
        }
    }

    @inlinable mutating func open<R: UniformSource & ~Copyable>(_ b: CircuitBreaker, now: Nanoseconds, random: inout R) {
        trips = trips == .max ? trips : trips &+ 1
        let d = b.openDuration.delay(retry: Int(trips), memory: &openMemory, random: &random)
        lastOpenDuration = d
        phase = .open(until: Time.adding(now, d))
        epoch &+= 1
    }

    @inlinable mutating func close() {
        phase = .closed(Closed())
        epoch &+= 1
        trips = 0
        openMemory = 0
    }
}
