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
