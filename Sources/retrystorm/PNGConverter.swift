import Foundation
import RetryStormKit

/// `rsvg-convert`, found on PATH.
struct PNGConverter {
    let executable: URL

    static func find() -> PNGConverter? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("rsvg-convert")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return PNGConverter(executable: candidate) }
        }
        return nil
    }

    /// Converts at 1200 px wide on white; nil on success, else what went wrong.
    func convert(svg: String, png: String) -> String? {
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(executable.path, ["-w", "1200", "-b", "white", svg, "-o", png], stdout: .discard)
        } catch {
            return error.description
        }
        let outcome = child.finish()
        guard outcome.termination == .exited(0) else {
            let text = String(decoding: outcome.stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { return text }
            switch outcome.termination {
            case .exited(let status): return "exit status \(status)"
            case .signalled(let signal): return "ended by signal \(signal)"
            }
        }
        return nil
    }
}
