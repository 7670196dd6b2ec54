import Dispatch
import Foundation
import Synchronization

/// Stops cleanly on SIGINT, SIGTERM or SIGHUP: abandons every unfinished output (its staging
/// directory, its reservation, the parents it created), leaves earlier results untouched, and
/// exits with status 130. SIGPIPE is ignored, so a closed pipe on stdout makes a write fail
/// instead of killing the process mid-commit.
public enum Interruption {
    /// Held weakly: an output its owner dropped abandons itself in `deinit`.
    private struct Entry: Sendable { weak var output: OutputDirectory? }
    private static let outputs = Mutex<[ObjectIdentifier: Entry]>([:])
    private static let sources = Mutex<[DispatchSourceSignal]>([])
    /// Held while an output directory creates what it will have to undo; the handler takes it too.
    static let setup = NSRecursiveLock()

    /// Installs the handlers once; later calls do nothing.
    public static func install() {
        sources.withLock { list in
            guard list.isEmpty else { return }
            signal(SIGPIPE, SIG_IGN)
            for sig in [SIGINT, SIGTERM, SIGHUP] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler {
                    setup.lock()
                    abandonAll()
                    FileHandle.standardError.write(Data("\nretrystorm: interrupted; no results were written\n".utf8))
                    exit(130)
                }
                source.resume()
                list.append(source)
            }
        }
    }

    /// Abandons every output not yet committed (before exiting on an error, or on a signal).
    public static func abandonAll() {
        let pending = outputs.withLock { $0.values.compactMap(\.output) }
        for o in pending { o.abandon() }
    }

    static func register(_ output: OutputDirectory) { outputs.withLock { $0[ObjectIdentifier(output)] = Entry(output: output) } }
    static func unregister(_ output: OutputDirectory) { _ = outputs.withLock { $0.removeValue(forKey: ObjectIdentifier(output)) } }
}
