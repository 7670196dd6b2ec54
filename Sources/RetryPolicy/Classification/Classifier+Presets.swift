/// The classification tables of the libraries the presets follow.
extension Classifier {
    /// The AWS SDKs' standard mode (botocore `retries/standard.py`, aws-sdk-go-v2
    /// `aws/retry/standard.go`): 500, 502, 503, 504, connection errors, timeouts, the transient and
    /// throttling error codes. A bare 429 without a throttling code is **not** retried (429 is not
    /// in the transient status list), and no status refreshes credentials.
    public static let aws = Classifier(throttlingStatuses: [], authRefreshStatuses: [])

    /// gRPC A6 with the proposal's example `retryableStatusCodes: [UNAVAILABLE]`. HTTP statuses map
    /// to gRPC codes as gRPC's `http-grpc-status-mapping.md` does: 429, 502, 503, 504 → UNAVAILABLE
    /// (retried); 500 → UNKNOWN, 401 → UNAUTHENTICATED … (not retried). Transport failures are
    /// UNAVAILABLE; a timeout is DEADLINE_EXCEEDED, the end of the call (the deadline covers every
    /// attempt).
    public static let grpcUnavailable = Classifier(
        retryableStatuses: [502, 503, 504], throttlingStatuses: [429], authRefreshStatuses: [],
        retryTimeouts: false, retryTransientCodes: false, throttlingCodes: false)

    /// Finagle's default client: only requeues — failures that surely did not take effect (never
    /// written, or NACKed by the server, which the simulator's load-shedding rejections are).
    public static let finagleRequeues = Classifier(authRefreshStatuses: [], onlyUnprocessed: true)

    /// Envoy `retry_on: 5xx`: any 5xx, resets, connect failures and per-try timeouts; 409
    /// (`retriable-4xx`) and 429 (`retriable-status-codes`) only when configured.
    public static let envoy5xx = Classifier(
        retryableStatuses: StatusSet(500...599), throttlingStatuses: [], authRefreshStatuses: [],
        retryTransientCodes: false, throttlingCodes: false)

    /// Every failure is retried (resilience4j `Retry` and Polly's `ShouldHandle` retry every
    /// exception, cenkalti/backoff every error not wrapped in `Permanent`; the naive baseline).
    public static let everything = Classifier(authRefreshStatuses: [], retryEverything: true)

    /// urllib3 `Retry(3)` (`util/retry.py`): no `status_forcelist`, so statuses are retried only
    /// when they are 413, 429 or 503 **with** a Retry-After header; connect and read errors are
    /// retried (for the idempotent methods of `allowed_methods`).
    public static let urllib3 = Classifier(
        retryableStatuses: [], throttlingStatuses: [], authRefreshStatuses: [], retryTransientCodes: false,
        throttlingCodes: false, hintedStatuses: [413, 429, 503])

    /// RudderStack's mobile SDKs (`EventUploadResult.kt`): 400 (bad batch), 401 (invalid write key),
    /// 404 (source disabled) and 413 (batch too large) are fatal; every other HTTP error, network
    /// failure, timeout or unknown error is retried.
    public static let rudderstack = Classifier(
        authRefreshStatuses: [], permanentStatuses: [400, 401, 404, 413], retryUnlistedStatuses: true)
}
