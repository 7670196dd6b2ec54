import Foundation
import Synchronization

/// How every command ends when something outside it stops it: a signal, a closed pipe, a file-size
/// limit. Installed first thing by every command, so none of them ever dies by a signal.
///
/// - SIGINT, SIGTERM, SIGHUP, and the other signals that would end it (SIGQUIT, SIGUSR1, SIGUSR2,
///   SIGALRM; a batch system's time limit sends one of these): every unfinished output is
///   abandoned (its staging directory, its reservation, the parents it created, a file
///   half-replaced by `chart` or `report`), earlier results stay untouched, and the command exits
///   with status 130.
/// - SIGXCPU (a `ulimit -t` CPU-time limit): the same clean-up, then status 2 naming the limit,
///   before the hard limit's SIGKILL.
/// - SIGPIPE is ignored: a write to a closed pipe fails with EPIPE instead, which ``Terminal``
///   turns into a quiet exit with ``Terminal/closedPipeStatus`` after the same clean-up. Any other
///   failed write to standard output or error (a full disk, `/dev/full`, `ulimit -f`, EIO) is the
///   same clean-up, then ``Terminal/unwritableStatus`` and one line saying what was written.
/// - SIGXFSZ (a `ulimit -f` file-size limit) is ignored: the write that would pass the limit fails
///   with EFBIG ("File too large"), which the writer reports like any other write error (status 2,
///   nothing left behind).
package enum Interruption {
    /// Held weakly: an output its owner dropped abandons itself in `deinit`.
    private struct Entry: Sendable { weak var output: OutputDirectory? }
    private static let outputs = Mutex<[ObjectIdentifier: Entry]>([:])
    /// Temporary files being written beside their final names (``AtomicFile``), removed on an interruption.
    private static let temporaries = Mutex<Set<String>>([])
    private static let installed = Mutex(false)
    /// What the command leaves if it ends now, for its last message: nil while it has neither
    /// opened an output nor said what it writes (``leaves(_:)``), as `keys` or `validate`, which
    /// write no files; then "no results were written" until an output is committed.
    private static let kept = Mutex<String?>(nil)
    /// What an interruption says the command leaves when it has not said otherwise.
    static let nothingKept = "no results were written"
    /// Held while an output directory creates what it will have to undo; the handler takes it too.
    static let setup = NSRecursiveLock()

    /// The status of a command stopped by SIGINT, SIGTERM or SIGHUP.
    package static let interruptedStatus: Int32 = 130

    /// The signals handled: all that would end the process and can be caught, but SIGPIPE and
    /// SIGXFSZ (ignored, their writes fail instead) and the profilers' SIGPROF and SIGVTALRM.
    static let handled = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU]

    /// Installs the handlers once; later calls do nothing.
    ///
    /// A signal handler may do almost nothing (async-signal-safe calls only), so it writes the
    /// signal's number into a pipe, and a thread of its own, waiting on that pipe, does the
    /// clean-up. That thread has a small stack (``watcherStack``) and is started here, before
    /// anything else: under a tight `ulimit -v`, Dispatch's signal sources wait forever for a
    /// thread of 8 MiB that can never be mapped (seen: `retrystorm keys` hung at `ulimit -v 80000`).
    package static func install() {
        installed.withLock { done in
            guard !done else { return }
            done = true
            Terminal.holdClosedStreams()
            signal(SIGPIPE, SIG_IGN)
            signal(SIGXFSZ, SIG_IGN)
            var fds: [Int32] = [-1, -1]
            // A parent may hand these signals down blocked (Foundation's Process does): a blocked
            // signal never reaches its handler, so the command would run on through a SIGTERM.
            var handled = sigset_t()
            sigemptyset(&handled)
            for sig in Self.handled { sigaddset(&handled, sig) }
            if pipe(&fds) == 0, startWatcher(reading: fds[0]) {
                wakeFD = fds[1]
                for sig in Self.handled { signal(sig, onSignal) }
                pthread_sigmask(SIG_UNBLOCK, &handled, nil)
            } else {
                // No thread to clean up with: end at once; the next run removes the leftovers
                // (their markers' locks are free once this process is gone).
                for sig in Self.handled { signal(sig, exitAtOnce) }
                pthread_sigmask(SIG_UNBLOCK, &handled, nil)
            }
        }
    }

    /// Bytes of the watcher thread's stack: clean-up removes directories through Foundation,
    /// a few frames deep.
    static let watcherStack = 512 * 1024

    /// The pipe's write end, set once before any handler is installed.
    nonisolated(unsafe) private static var wakeFD: Int32 = -1

    private static let onSignal: @convention(c) (Int32) -> Void = { sig in
        var byte = UInt8(truncatingIfNeeded: sig)
        _ = write(Interruption.wakeFD, &byte, 1)
    }

    private static let exitAtOnce: @convention(c) (Int32) -> Void = { _ in
        let text = "\nretrystorm: interrupted\n"
        _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        _exit(interruptedStatus)
    }

    /// Starts the thread that waits for a signal's byte on `fd`, then ends the command.
    private static func startWatcher(reading fd: Int32) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, watcherStack)
        let box = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        box.initialize(to: fd)
        #if os(Linux)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let started = pthread_create(
            &thread, &attributes,
            { context in
                #if os(Linux)
                    let fd = context!.assumingMemoryBound(to: Int32.self).pointee
                #else
                    let fd = context.assumingMemoryBound(to: Int32.self).pointee
                #endif
                var byte: UInt8 = 0
                while read(fd, &byte, 1) < 0 && errno == EINTR {}
                let kept = Interruption.kept.withLock { $0 } ?? Interruption.nothingKept
                if Int32(byte) == SIGXCPU {
                    Interruption.end(status: 2, message: "\nretrystorm: error: the CPU-time limit (ulimit -t) was reached; \(kept)\n")
                }
                Interruption.end(status: Interruption.interruptedStatus, message: "\nretrystorm: interrupted; \(kept)\n")
            }, box)
        if started != 0 { box.deallocate() }
        return started == 0
    }

    /// Says what the command leaves if it ends now, when it is not "no results were written"
    /// (`chart`, `report`: "files not yet replaced are as they were"; once their files are all
    /// written, where they are).
    package static func leaves(_ text: String) { kept.withLock { $0 = text } }

    /// Ends the command quietly because its standard output or error was closed (EPIPE).
    static func closedPipe() -> Never { end(status: Terminal.closedPipeStatus, message: nil) }

    /// Ends the command because `stream` ("standard output", "standard error") could not be
    /// written for `code` (ENOSPC, EFBIG, EIO, …): status ``Terminal/unwritableStatus`` and one
    /// line naming the reason and, for a command that writes files, what it leaves (the results
    /// committed and where, or that none were). The line goes to standard error, which may be
    /// the stream that failed: then the status alone says it.
    static func unwritable(_ stream: String, code: Int32) -> Never {
        let leaves = kept.withLock { $0 }.map { "; " + $0 } ?? ""
        let reason = FileWriter.Failure(code).reason
        end(status: Terminal.unwritableStatus, message: "retrystorm: error: \(stream) could not be written: \(reason)\(leaves)\n")
    }

    /// Records that `output`'s results are in place, for the message of a later failure.
    static func committed(_ output: OutputDirectory) {
        kept.withLock { $0 = "the results were written to \(MessageText.escaped(output.given))" }
    }

    /// Undoes everything unfinished and exits. The message goes straight to standard error with
    /// one `write(2)`: ``Terminal`` could call back here if stderr is the closed pipe.
    fileprivate static func end(status: Int32, message: String?) -> Never {
        setup.lock()
        abandonAll()
        if let message { _ = message.withCString { Foundation.write(STDERR_FILENO, $0, strlen($0)) } }
        exit(status)
    }

    /// Abandons every output not yet committed and removes every temporary file (before exiting
    /// on an error, or on a signal).
    package static func abandonAll() {
        let pending = outputs.withLock { $0.values.compactMap(\.output) }
        for o in pending { o.abandon() }
        for path in temporaries.withLock({ $0 }) { unlink(path) }
    }

    static func register(_ output: OutputDirectory) {
        outputs.withLock { $0[ObjectIdentifier(output)] = Entry(output: output) }
        kept.withLock { $0 = $0 ?? nothingKept }
    }
    static func unregister(_ output: OutputDirectory) { _ = outputs.withLock { $0.removeValue(forKey: ObjectIdentifier(output)) } }
    static func register(temporary path: String) { _ = temporaries.withLock { $0.insert(path) } }
    static func unregister(temporary path: String) { _ = temporaries.withLock { $0.remove(path) } }
}
