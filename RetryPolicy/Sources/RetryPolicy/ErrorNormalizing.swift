/// An error that knows its ``NormalizedError``: conform your transport's error type once, and the
/// executor classifies it like the simulator does.
public protocol NormalizedErrorConvertible: Error {
    var normalizedError: NormalizedError { get }
}

extension NormalizedError: NormalizedErrorConvertible {
    public var normalizedError: NormalizedError { self }
}

/// Maps any thrown error to a ``NormalizedError``, for error types you cannot conform (e.g.
/// `URLError`): the executor's one extension point for errors.
public protocol ErrorNormalizer: Sendable {
    func normalize(_ error: any Error) -> NormalizedError
}

/// Uses ``NormalizedErrorConvertible`` where the error conforms; any other error is an unknown
/// transport failure whose request may have reached the server.
public struct DefaultErrorNormalizer: ErrorNormalizer {
    public init() {}
    public func normalize(_ error: any Error) -> NormalizedError {
        (error as? any NormalizedErrorConvertible)?.normalizedError ?? NormalizedError(transport: .other, reachedServer: .unknown)
    }
}

/// The error ``retrying(_:clock:isolation:operation:)`` throws when the policy stops: why, the last error
/// the operation threw (nil if it never ran, e.g. rejected by the throttle), and the record.
public struct RetryStopped: Error, Sendable {
    public let reason: StopReason
    public let lastError: (any Error)?
    public let record: OperationRecord

    public init(reason: StopReason, lastError: (any Error)?, record: OperationRecord) {
        self.reason = reason
        self.lastError = lastError
        self.record = record
    }
}

/// What the executor tells the operation about the attempt it runs.
public struct Attempt: Sendable, Hashable {
    /// 1 for the first attempt.
    public let number: Int
    /// The kind of the previous attempt's failure, if any.
    public let previousFailure: FailureKind?
    /// Send the operation's idempotency key with this attempt (``Idempotency/key``).
    public let sendsIdempotencyKey: Bool

    public init(number: Int, previousFailure: FailureKind?, sendsIdempotencyKey: Bool) {
        self.number = number
        self.previousFailure = previousFailure
        self.sendsIdempotencyKey = sendsIdempotencyKey
    }

    /// Whether this attempt is a retry.
    public var isRetry: Bool { number > 1 }
}
