/// An error that knows its ``NormalizedError``: conform your transport's error type once, and the
/// executor classifies it like the simulator does.
///
/// ```swift
/// struct HTTPFailure: Error, NormalizedErrorConvertible {
///     var status: Int
///     var retryAfterHeader: String?
///     var normalizedError: NormalizedError {
///         let now = Duration.seconds(Date().timeIntervalSince1970)  // the date form needs Unix time
///         return .http(status, retryAfter: retryAfterHeader.flatMap { RetryAfterHeader.retryAfter($0, now: now) })
///     }
/// }
/// ```
public protocol NormalizedErrorConvertible: Error {
    /// This error as the policy sees it: status, transport failure, timeout, server delay, and
    /// whether the request reached the server.
    var normalizedError: NormalizedError { get }
}

extension NormalizedError: NormalizedErrorConvertible {
    /// Itself: an operation may throw a ``NormalizedError`` directly.
    public var normalizedError: NormalizedError { self }
}
