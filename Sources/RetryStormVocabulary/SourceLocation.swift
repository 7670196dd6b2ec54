/// Where a value came from: a line and column of a scenario file, or a command-line option.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// What kind of source a value came from, and which one.
    public enum Origin: Sendable, Hashable {
        /// A scenario file (path as the user gave it).
        case file(String)
        /// A command-line option such as `--set`.
        case option(String)
        /// The built-in default.
        case defaultValue
    }

    /// The file or option the value came from, or the built-in default.
    public var origin: Origin
    /// 1-based line and column, for files.
    public var line: Int?
    /// 1-based column within ``line``; nil when not known (options and the default have none).
    public var column: Int?

    package init(origin: Origin, line: Int? = nil, column: Int? = nil) {
        self.origin = origin
        self.line = line
        self.column = column
    }

    /// `path:line:column` for a file (the parts known), the option's text, or `default`.
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
