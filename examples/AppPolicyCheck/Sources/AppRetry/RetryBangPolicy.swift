import RetryPolicy

/// The "Retry!" wrapper of the seed article "Retry! in the wild" (a `RepetitiveTask` run with a
/// retry count of 3), as an app's own policy: a failed task runs again, up to `retries` times;
/// when the server said how long to wait (CloudKit's retry delay, HTTP's Retry-After) the next
/// try waits exactly that long, otherwise it runs again at once. It classifies nothing: every
/// failure is retried until the count runs out.
public struct RetryBangPolicy: ClientPolicy {
    /// Retries after the first attempt.
    public var retries: Int32

    public init(retries: Int32 = 3) { self.retries = retries }

    public func decide<R: UniformSource & ~Copyable>(
        after failure: NormalizedError, record: inout OperationRecord,
        host: inout HostGuard, now: Nanoseconds, random: inout R
    ) -> RetryDecision {
        guard record.attemptCount <= retries else { return record.stop(.attemptsExhausted) }
        // A negative delay is gRPC's "do not retry", which this wrapper does not know: it waits 0.
        let wait = max(0, failure.retryAfter ?? 0)
        return record.retry(at: Time.adding(now, wait))
    }
}
