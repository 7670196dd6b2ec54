import Foundation

/// Standard output and standard error for every command, written with `write(2)`.
///
/// Why not `print` or `FileHandle.standardError.write`: with SIGPIPE ignored (``Interruption``),
/// a write to a closed pipe fails with EPIPE, and FileHandle turns that failure into a trap
/// (status 132 on Linux), while `print` drops it silently and the command goes on writing into
/// nothing. Here a closed pipe ends the command quietly with ``closedPipeStatus``, after the
/// outputs not yet committed are abandoned, as an interruption does; results already moved into
/// place stay.
package enum Terminal {
    /// The status of a command whose standard output or error was closed by its reader
    /// (`retrystorm schema | head -c1`): 128 + SIGPIPE, what a shell reports for a command that a
    /// closed pipe ended, so `set -o pipefail` scripts see what they see from `cat`.
    package static let closedPipeStatus: Int32 = 141

    /// Writes `text` to standard output.
    package static func out(_ text: String) { write(STDOUT_FILENO, text) }

    /// Writes `text` and a line break to standard output.
    package static func line(_ text: String) { write(STDOUT_FILENO, text + "\n") }

    /// Writes `text` to standard error.
    package static func error(_ text: String) { write(STDERR_FILENO, text) }

    /// Writes all of `text` to `fd`, retrying short writes and EINTR. EPIPE ends the command
    /// (``closedPipeStatus``); any other failure (EIO on a vanished terminal, EBADF when the
    /// stream was closed before the command started) drops the text: what a command prints is
    /// a copy of what it wrote to files, never the only record.
    static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n >= 0 {
                done += n
                continue
            }
            switch errno {
            case EINTR: continue
            case EPIPE: Interruption.closedPipe()
            default: return
            }
        }
    }
}
