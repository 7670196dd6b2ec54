import RetryPolicy

/// The retry logic of the iOS `NetworkClient` in the seed article on automatic retries (its
/// `requestWithRetry(with:retries:completionHandler:)`), as an app's own policy: after a response
/// that is not 2xx — a 404 or a 400 included — it calls itself again at once, up to `retries`
/// (3) times; after a transport error (URLSession's `error != nil`, a timeout included) it hands
/// the error back and stops.
///
/// The library's `naive-immediate` preset is the nearest configuration (3 immediate retries of
/// anything); unlike this code, it also retries timeouts.
public struct SeedNetworkClientPolicy: ClientPolicy {
    /// Retries after the first attempt.
    public var retries: Int32

    public init(retries: Int32 = 3) { self.retries = retries }

    public func decide<R: UniformSource & ~Copyable>(
        after failure: NormalizedError, record: inout OperationRecord,
        host: inout HostGuard, now: Nanoseconds, random: inout R
    ) -> RetryDecision {
        // No response at all: the completion handler gets the error and the request ends.
        guard failure.status != nil else { return record.stop(.nonRetryable) }
        // attemptCount counts the attempt that just failed: 1 + retries attempts in all.
        return record.attemptCount <= retries ? record.retry(at: now) : record.stop(.attemptsExhausted)
    }
}
