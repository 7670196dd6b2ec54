/// Maps any thrown error to a ``NormalizedError``, for error types you cannot conform (e.g.
/// `URLError`): the executor's one extension point for errors.
///
/// ```swift
/// struct MyNormalizer: ErrorNormalizer {
///     func normalize(_ error: any Error) -> NormalizedError {
///         switch error {
///         case let e as MyHTTPError: .http(e.status)
///         case is MyConnectError: .transport(.connectionRefused)
///         default: DefaultErrorNormalizer().normalize(error)
///         }
///     }
/// }
/// let value = try await retrying(host: host, record: &record, random: &random, normalizer: MyNormalizer()) { _ in
///     try await api.call()
/// }
/// ```
public protocol ErrorNormalizer: Sendable {
    /// The failure `error` stands for. Called once per failed attempt, never for
    /// `CancellationError` (cancellation ends the operation without a decision).
    func normalize(_ error: any Error) -> NormalizedError
}

/// Uses ``NormalizedErrorConvertible`` where the error conforms; any other error is an unknown
/// transport failure whose request may have reached the server.
public struct DefaultErrorNormalizer: ErrorNormalizer {
    /// The normalizer the executor uses when given none.
    public init() {}
    /// The error's ``NormalizedErrorConvertible/normalizedError``, else
    /// `NormalizedError(transport: .other, reachedServer: .unknown)`.
    public func normalize(_ error: any Error) -> NormalizedError {
        (error as? any NormalizedErrorConvertible)?.normalizedError ?? NormalizedError(transport: .other, reachedServer: .unknown)
    }
}
