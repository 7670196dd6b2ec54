import Foundation
import RetryStormEngine
import Synchronization

/// Progress of a study on stderr: replications done of all (or, for a single replication, the
/// simulated time reached of the horizon), the time elapsed and an ETA. A timer thread draws it,
/// so a replication that runs for minutes still shows it is moving; short work prints nothing
/// (lines start after ``lineInterval``, the bar after ``barDelay``).
/// - Warning: `@unchecked Sendable` for the Dispatch timer it holds, set once by ``start()`` on the
///   thread that owns the progress and thread-safe after; every other mutable field is behind the mutex.
package final class Progress: @unchecked Sendable {
    private struct State {
        var done = 0
        var total = 0
        var lastLine = 0.0
        var drawn = false
        var running = false
    }

    /// Seconds between lines in `lines` mode.
    package static let lineInterval = 2.0
    /// Seconds before a bar first appears.
    static let barDelay = 0.5

    private let label: String
    private let mode: ProgressMode
    private let clock = Stopwatch()
    private let state = Mutex(State())
    /// Where a study of one replication posts its simulated time.
    package let simulation: SimulationProgress?
    private let horizon: Int64
    /// Made by ``start()`` only: Dispatch traps when a source is released without ever being resumed.
    private var timer: DispatchSourceTimer?

    /// - Parameters:
    ///   - mode: `auto` resolves to `bar` on a terminal, `lines` otherwise.
    ///   - study: its task count and horizon; a single-task study reports simulated time.
    package init(label: String, mode: ProgressMode, study: Study) {
        self.label = label
        switch mode {
        case .auto: self.mode = isatty(2) == 1 ? .bar : .lines
        default: self.mode = mode
        }
        let single = study.taskCount == 1
        simulation = single ? SimulationProgress() : nil
        horizon = single ? max(1, study.points[0].scenario.horizon) : 1
        state.withLock { $0.total = study.taskCount }
    }

    /// Starts drawing (a no-op with `none`).
    package func start() {
        guard mode != .none, timer == nil else { return }
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(mode == .bar ? 100 : 500))
        source.setEventHandler { [weak self] in self?.tick() }
        timer = source
        state.withLock { $0.running = true }
        source.resume()
    }

    /// Records that `done` of `total` tasks are finished (callable from any thread).
    package func update(_ done: Int, _ total: Int) {
        state.withLock {
            $0.done = done
            $0.total = total
        }
    }

    /// Stops drawing and clears the bar.
    package func finish() {
        let (running, drawn) = state.withLock { s -> (Bool, Bool) in
            let r = s.running
            s.running = false
            return (r, s.drawn)
        }
        if running { timer?.cancel() }
        if mode == .bar && drawn { Terminal.error("\r\u{1B}[K") }
    }

    private func tick() {
        let t = clock.seconds
        let line: String? = state.withLock { s in
            guard s.running else { return nil }
            switch mode {
            case .bar where t >= Self.barDelay:
                s.drawn = true
                return "\r" + text(s, t, bar: true) + " \u{1B}[K"
            case .lines where t - s.lastLine >= Self.lineInterval:
                s.lastLine = t
                return text(s, t, bar: false) + "\n"
            default:
                return nil
            }
        }
        if let line { Terminal.error(line) }
    }

    private func text(_ s: State, _ t: Double, bar: Bool) -> String {
        var fraction = s.total > 0 ? Double(s.done) / Double(s.total) : 0
        var what = "\(Format.grouped(s.done))/\(Format.grouped(s.total)) replications"
        if let simulation, s.done == 0 {
            let now = simulation.simulatedNanoseconds
            fraction = min(1, Double(now) / Double(horizon))
            what = "simulated \(Format.fixed(Double(now) / 1e9, 0)) s of \(Format.fixed(Double(horizon) / 1e9, 0)) s"
        }
        let eta = fraction > 0 ? t / fraction * (1 - fraction) : 0
        let times = "\(Format.fixed(t, 0)) s elapsed" + (fraction > 0 ? ", about \(Format.fixed(eta, 0)) s left" : "")
        let percent = Format.fixed(fraction * 100, 0) + "%"
        if bar {
            let width = 30
            let filled = max(0, min(width, Int((fraction * Double(width)).rounded(.down))))
            return "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: "-", count: width - filled))] \(what), \(percent), \(times)"
        }
        return "\(label): \(what), \(percent), \(times)"
    }
}
