import Foundation
import Synchronization

/// Standard output and standard error for every command, written with `write(2)`.
///
/// Why not `print` or `FileHandle.standardError.write`: with SIGPIPE ignored (``Interruption``),
/// a write to a closed pipe fails with EPIPE, and FileHandle turns that failure into a trap
/// (status 132 on Linux), while `print` drops it silently and the command goes on writing into
/// nothing. Here every write is checked, and a failed one ends the command at once, after the
/// outputs not yet committed are abandoned, as an interruption does; results already moved into
/// place stay:
/// - a closed pipe (EPIPE) ends it quietly with ``closedPipeStatus``;
/// - any other failure (ENOSPC on `/dev/full` or a full disk, EFBIG past `ulimit -f`, EIO, EBADF
///   on a stream closed before the command started) ends it with ``unwritableStatus`` and one
///   line on standard error naming the stream, the reason and what was written. Nothing reports
///   success after a write failed: `policy export … > envoy.json && deploy envoy.json` never
///   deploys a cut file.
package enum Terminal {
    /// The status of a command whose standard output or error was closed by its reader
    /// (`retrystorm schema | head -c1`): 128 + SIGPIPE, what a shell reports for a command that a
    /// closed pipe ended, so `set -o pipefail` scripts see what they see from `cat`.
    package static let closedPipeStatus: Int32 = 141

    /// The status of a command whose standard output or error could not be written for any reason
    /// but a closed pipe: 2, as for any other file that cannot be written.
    package static let unwritableStatus: Int32 = 2

    /// The standard streams that were closed when the command started (`>&-`), each held open
    /// on `/dev/null` since by ``holdClosedStreams()``.
    private static let closedAtStart = Mutex<Set<Int32>>([])

    /// Opens `/dev/null` in place of each of the standard streams that is closed, so that no file
    /// or pipe the command opens takes its number (results written as stdout, a signal pipe read
    /// as stdin), and remembers them: a write to standard output or error closed at the start
    /// still fails, with EBADF. Called first by ``Interruption/install()``.
    static func holdClosedStreams() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // The lowest free number: this one, the ones below being open by now.
            guard open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY) == fd else { continue }
            _ = closedAtStart.withLock { $0.insert(fd) }
        }
    }

    /// Writes `text` to standard output.
    package static func out(_ text: String) { write(STDOUT_FILENO, text) }

    /// Writes `text` and a line break to standard output.
    package static func line(_ text: String) { write(STDOUT_FILENO, text + "\n") }

    /// Writes `text` to standard error.
    package static func error(_ text: String) { write(STDERR_FILENO, text) }

    /// Writes all of `text` to `fd`, retrying short writes and EINTR, and waiting while a
    /// non-blocking stream is full (EAGAIN). Returns only once every byte is written: EPIPE ends
    /// the command with ``closedPipeStatus``, every other failure with ``unwritableStatus``.
    static func write(_ fd: Int32, _ text: String) {
        let stream = fd == STDOUT_FILENO ? "standard output" : "standard error"
        if closedAtStart.withLock({ $0.contains(fd) }) { Interruption.unwritable(stream, code: EBADF) }
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n >= 0 {
                done += n
                continue
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                // A stream inherited in non-blocking mode (a parent's pipe): wait until it drains.
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
            case EPIPE: Interruption.closedPipe()
            default: Interruption.unwritable(stream, code: code)
            }
        }
    }
}
