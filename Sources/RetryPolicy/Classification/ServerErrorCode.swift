/// Service error codes that change how a failure is treated, whatever the HTTP status.
public enum ServerErrorCode: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// The AWS SDKs' throttling codes (`Throttling`, `ThrottlingException`, `SlowDown`, …).
    case throttling
    /// The AWS SDKs' transient codes (`RequestTimeout`, `RequestTimeoutException`, `PriorRequestNotComplete`).
    case transient
    /// The SRE book's "overloaded; don't retry" (Site Reliability Engineering, ch. 21).
    case overloadedDoNotRetry
    /// A code this library does not single out.
    case other

    /// Normalises a service's error-code string: the AWS SDKs' throttling and transient lists
    /// (botocore `retries/standard.py`, aws-sdk-go-v2 `aws/retry/standard.go`).
    public init(code: String) {
        switch code {
        case "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
            "TooManyRequestsException", "ProvisionedThroughputExceededException",
            "TransactionInProgressException", "RequestLimitExceeded", "BandwidthLimitExceeded",
            "LimitExceededException", "RequestThrottled", "SlowDown", "EC2ThrottledException":
            self = .throttling
        case "RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete":
            self = .transient
        case "OverloadedDoNotRetry":
            self = .overloadedDoNotRetry
        default:
            self = .other
        }
    }
}
