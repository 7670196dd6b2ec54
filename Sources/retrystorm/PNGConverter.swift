import Foundation

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
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-w", "1200", "-b", "white", svg, "-o", png]
        let errors = Pipe()
        process.standardError = errors
        do { try process.run() } catch { return error.localizedDescription }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? "exit status \(process.terminationStatus)" : text
        }
        return nil
    }
}
