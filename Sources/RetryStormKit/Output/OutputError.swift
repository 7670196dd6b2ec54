import Foundation

/// A result that cannot be written where asked.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    /// What could not be written and why, naming the path (and line, for a manifest) when known.
    public var message: String
    /// An error carrying `message` as it is.
    public init(message: String) { self.message = message }
    /// The ``message``, unchanged.
    public var description: String { message }
}
