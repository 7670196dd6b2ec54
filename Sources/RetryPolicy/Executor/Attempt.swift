/// What the executor tells the operation about the attempt it runs.
public struct Attempt: Sendable, Hashable {
    /// 1 for the first attempt.
    public let number: Int
    /// The kind of the previous attempt's failure, if any.
    public let previousFailure: FailureKind?
    /// Send the operation's idempotency key with this attempt (``Idempotency/key``).
    public let sendsIdempotencyKey: Bool

    /// What the executor passes; public so that tests can call an operation closure directly.
    /// `number` starts at 1.
    public init(number: Int, previousFailure: FailureKind?, sendsIdempotencyKey: Bool) {
        self.number = number
        self.previousFailure = previousFailure
        self.sendsIdempotencyKey = sendsIdempotencyKey
    }

    /// Whether this attempt is a retry.
    public var isRetry: Bool { number > 1 }
}
