import Foundation
import Synchronization

/// A progress bar with ETA on stderr while long work runs — only when stderr is a terminal, so
/// logs and pipes stay clean. Redraws at most ten times a second.
public final class Progress: Sendable {
    private struct State {
        var lastDraw = 0.0
        var drawn = false
    }

    private let label: String
    private let enabled: Bool
    private let clock = Stopwatch()
    private let state = Mutex(State())

    public init(label: String, enabled: Bool = isatty(2) == 1) {
        self.label = label
        self.enabled = enabled
    }

    /// Records that `done` of `total` units are finished (callable from any thread).
    public func update(_ done: Int, _ total: Int) {
        guard enabled, total > 0 else { return }
        let t = clock.seconds
        let line: String? = state.withLock { s in
            guard done == total || t - s.lastDraw >= 0.1 else { return nil }
            s.lastDraw = t
            s.drawn = true
            let fraction = Double(done) / Double(total)
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let eta = done > 0 ? t / Double(done) * Double(total - done) : 0
            return "\r\(label) [\(bar)] \(done)/\(total)  \(Format.fixed(t, 0)) s elapsed, ETA \(Format.fixed(eta, 0)) s "
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Clears the bar.
    public func finish() {
        guard enabled else { return }
        let drawn = state.withLock { $0.drawn }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
