/// Where a value came from: a line and column of a scenario file, or a command-line option.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public enum Origin: Sendable, Hashable {
        /// A scenario file (path as the user gave it).
        case file(String)
        /// A command-line option such as `--set`.
        case option(String)
        /// The built-in default.
        case defaultValue
    }

    public var origin: Origin
    /// 1-based line and column, for files.
    public var line: Int?
    public var column: Int?

    public init(origin: Origin, line: Int? = nil, column: Int? = nil) {
        self.origin = origin
        self.line = line
        self.column = column
    }

    public var description: String {
        switch origin {
        case .file(let path):
            var s = path
            if let line { s += ":\(line)" }
            if let column { s += ":\(column)" }
            return s
        case .option(let option):
            return option
        case .defaultValue:
            return "default"
        }
    }
}

/// A scenario that cannot be used: one message naming the file, line and field.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    /// The dotted path of the field, when the problem is one field.
    public var field: String?
    public var messageText: String

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

/// A value with the place it was written.
public struct Located<Value: Sendable>: Sendable {
    public var value: Value
    public var location: SourceLocation
    public init(_ value: Value, _ location: SourceLocation) {
        self.value = value
        self.location = location
    }
}
