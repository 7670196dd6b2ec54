/// A value with the place it was written.
public struct Located<Value: Sendable>: Sendable {
    /// The value as read from its source.
    public var value: Value
    /// Where `value` was written: a file's line and column, or the option that gave it.
    public var location: SourceLocation
    /// Pairs `value` with `location`, the place it was written.
    public init(_ value: Value, _ location: SourceLocation) {
        self.value = value
        self.location = location
    }
}
