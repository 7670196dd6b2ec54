import RetryPolicy

/// A caller's own ``ClientPolicy`` as one concrete type of the engine's, so that the event loop
/// for it is specialised here, when the engine is compiled, and no other module needs the loop's
/// code: each of the policy's calls goes through the caller's conformance (one existential call),
/// the rest of the loop is the same specialised code as for ``RetryPolicy``.
///
/// Why not the caller's type itself: a loop specialised for a type the engine never sees needs the
/// engine's generic code serialised into its interface (cross-module optimisation, or `@inlinable`
/// through the whole loop). SwiftPM refuses the first in a package another depends on by version,
/// and the second does not build with Swift 6.3 (noncopyable containers with a `deinit` cannot be
/// destroyed from inlinable code). Measured with `make bench`: policy-custom against policy-library.
struct CallerPolicy: ClientPolicy {
    let base: any ClientPolicy

    @inline(__always) func admit<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    ) -> Admission {
        base.admit(record: &record, host: &host, now: now, random: &random)
    }

    @inline(__always) func attemptStarted(record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds) {
        base.attemptStarted(record: &record, host: &host, now: now)
    }

    @inline(__always) func succeeded<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    ) {
        base.succeeded(record: &record, host: &host, now: now, random: &random)
    }

    @inline(__always) func decide<R: UniformSource & ~Copyable>(
        after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    ) -> RetryDecision {
        base.decide(after: failure, record: &record, host: &host, now: now, random: &random)
    }

    @inline(__always) func reconciled<R: UniformSource & ~Copyable>(
        _ result: ReconcileResult, record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    ) -> RetryDecision {
        base.reconciled(result, record: &record, host: &host, now: now, random: &random)
    }

    func restart(record: inout OperationRecord, now: Nanoseconds) -> Nanoseconds? { base.restart(record: &record, now: now) }

    func restart(host: inout HostGuard) { base.restart(host: &host) }

    func makeHostGuard() -> HostGuard { base.makeHostGuard() }

    var concurrency: ConcurrencyLimit? { base.concurrency }

    var ambiguity: AmbiguityPolicy { base.ambiguity }

    var keepsHostState: Bool { base.keepsHostState }

    var hedging: Hedging? { base.hedging }

    @inline(__always) func admitCopy<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R, afterFailure: Bool
    ) -> StopReason? {
        base.admitCopy(record: &record, host: &host, now: now, random: &random, afterFailure: afterFailure)
    }

    @inline(__always) func copySucceeded<R: UniformSource & ~Copyable>(
        othersInFlight: Int32, record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    ) {
        base.copySucceeded(othersInFlight: othersInFlight, record: &record, host: &host, now: now, random: &random)
    }

    @inline(__always) func copyFailed<R: UniformSource & ~Copyable>(
        after failure: NormalizedError, othersInFlight: Int32, record: inout OperationRecord, host: inout HostGuard,
        now: Nanoseconds, random: inout R
    ) -> HedgeDecision {
        base.copyFailed(after: failure, othersInFlight: othersInFlight, record: &record, host: &host, now: now, random: &random)
    }
}
