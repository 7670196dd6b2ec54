import Foundation

/// A result that cannot be written where asked.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
