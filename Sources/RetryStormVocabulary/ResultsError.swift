/// Why a results directory cannot be read, charted or reported: a missing directory or file, or a
/// CSV or JSON file that does not hold what RetryStorm writes. The message names the file, the line
/// and the column when there are ones, e.g.
/// `results/q/summary.csv:3: column 'tts_p99_s': expected a number (got 'x')`.
public struct ResultsError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The whole message, starting with the file it is about (then the line and column when known).
    public var message: String

    package init(_ message: String) {
        self.message = message
    }

    /// "file:line: column 'name': message" (the line and column when known).
    package init(file: String, line: Int? = nil, column: String? = nil, _ message: String) {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let column { text += "column '\(column)': " }
        self.message = text + message
    }

    /// The ``message``, unchanged.
    public var description: String { message }
}
