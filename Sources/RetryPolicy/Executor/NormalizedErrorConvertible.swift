/// An error that knows its ``NormalizedError``: conform your transport's error type once, and the
/// executor classifies it like the simulator does.
public protocol NormalizedErrorConvertible: Error {
    var normalizedError: NormalizedError { get }
}

extension NormalizedError: NormalizedErrorConvertible {
    public var normalizedError: NormalizedError { self }
}
