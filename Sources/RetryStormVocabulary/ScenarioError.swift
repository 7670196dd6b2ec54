/// A scenario that cannot be used: one message naming the file, line and field.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    /// Where the problem is: the file, line and column, or the command-line option that set the value.
    public var location: SourceLocation
    /// The dotted path of the field, when the problem is one field.
    public var field: String?
    package var messageText: String
    /// Further problems found in the same input, each its own line after this one (a policy
    /// file's refusals are listed together, so that one run shows them all).
    package var more: [ScenarioError] = []

    /// A problem at `location`, in the field at the dotted path `field` (nil when it is not one field),
    /// described by `message` (without the location or field: ``description`` adds them).
    public init(_ location: SourceLocation, field: String? = nil, _ message: String) {
        self.location = location
        self.field = field
        self.messageText = message
    }

    /// The message with the field but without the location, for lists.
    public var message: String { field.map { "field '\($0)': \(self.messageText)" } ?? messageText }

    /// `file:line:column: field 'x.y': message`.
    public var description: String {
        if let field { return "\(location): field '\(field)': \(messageText)" }
        return "\(location): \(messageText)"
    }
}
