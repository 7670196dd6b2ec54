/// Why a run directory cannot be charted or reported: a missing directory or file, or a CSV or
/// JSON file that does not hold what RetryStorm writes. The message names the file (and the line
/// when there is one), e.g. `results/q/summary.csv:3: column 'tts_p99_s': expected a number (got 'x')`.
public struct RunDirectoryError: Error, Sendable, CustomStringConvertible, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
