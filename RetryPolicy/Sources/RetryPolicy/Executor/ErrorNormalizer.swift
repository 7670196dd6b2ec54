/// Maps any thrown error to a ``NormalizedError``, for error types you cannot conform (e.g.
/// `URLError`): the executor's one extension point for errors.
public protocol ErrorNormalizer: Sendable {
    func normalize(_ error: any Error) -> NormalizedError
}
