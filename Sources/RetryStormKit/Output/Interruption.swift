import Dispatch
import Foundation
import Synchronization

/// Stops cleanly on SIGINT or SIGTERM: removes the staging directories of unfinished outputs,
/// leaves earlier results untouched, and exits with status 130.
public enum Interruption {
    private static let staging = Mutex<[URL]>([])
    private static let sources = Mutex<[DispatchSourceSignal]>([])

    /// Installs the handlers once; later calls do nothing.
    public static func install() {
        sources.withLock { list in
            guard list.isEmpty else { return }
            for sig in [SIGINT, SIGTERM] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler {
                    let dirs = staging.withLock { $0 }
                    for d in dirs { try? FileManager.default.removeItem(at: d) }
                    FileHandle.standardError.write(Data("\nretrystorm: interrupted; no results were written\n".utf8))
                    exit(130)
                }
                source.resume()
                list.append(source)
            }
        }
    }

    static func register(_ url: URL) { staging.withLock { $0.append(url) } }
    static func unregister(_ url: URL) { staging.withLock { $0.removeAll { $0 == url } } }
}
