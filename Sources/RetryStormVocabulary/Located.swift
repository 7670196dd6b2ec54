/// A value with the place it was written.
public struct Located<Value: Sendable>: Sendable {
    public var value: Value
    public var location: SourceLocation
    public init(_ value: Value, _ location: SourceLocation) {
        self.value = value
        self.location = location
    }
}
