import Foundation

/// Writes a run's files into a temporary directory beside `--out` and moves it into place only
/// when everything is written, so a failure or an interruption never leaves half a result and never
/// touches earlier results. An existing `--out` is replaced only with `force`.
public final class OutputDirectory: @unchecked Sendable {
    public let final: URL
    public let staging: URL
    private let force: Bool
    private var committed = false

    /// Checks `path` and creates the staging directory.
    /// - Throws: ``OutputError`` when `path` exists and `force` is false, or cannot be created.
    public init(path: String, force: Bool) throws(OutputError) {
        final = URL(fileURLWithPath: path).standardizedFileURL
        self.force = force
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: final.path, isDirectory: &isDirectory) {
            guard force else {
                throw OutputError(message: "\(path) already exists; choose another --out or pass --force to replace it")
            }
            guard isDirectory.boolValue else { throw OutputError(message: "\(path) exists and is not a directory") }
        }
        let parent = final.deletingLastPathComponent()
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw OutputError(message: "cannot create \(parent.path): \(error.localizedDescription)")
        }
        staging = parent.appendingPathComponent(".\(final.lastPathComponent).tmp-\(getpid())")
        try? fm.removeItem(at: staging)
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw OutputError(message: "cannot write in \(parent.path): \(error.localizedDescription)")
        }
        Interruption.register(staging)
    }

    deinit { if !committed { abandon() } }

    /// Writes `contents` to `name` inside the staging directory.
    public func write(_ name: String, _ contents: String) throws(OutputError) {
        do {
            try Data(contents.utf8).write(to: staging.appendingPathComponent(name))
        } catch {
            throw OutputError(message: "cannot write \(name): \(error.localizedDescription)")
        }
    }

    /// Moves the staging directory to `--out`, replacing an old one (kept until the move succeeds).
    public func commit() throws(OutputError) {
        let fm = FileManager.default
        var old: URL?
        if fm.fileExists(atPath: final.path) {
            let aside = final.deletingLastPathComponent().appendingPathComponent(".\(final.lastPathComponent).old-\(getpid())")
            try? fm.removeItem(at: aside)
            do { try fm.moveItem(at: final, to: aside) } catch {
                throw OutputError(message: "cannot replace \(final.path): \(error.localizedDescription)")
            }
            old = aside
        }
        do {
            try fm.moveItem(at: staging, to: final)
        } catch {
            if let old { try? fm.moveItem(at: old, to: final) }
            throw OutputError(message: "cannot move results into \(final.path): \(error.localizedDescription)")
        }
        committed = true
        Interruption.unregister(staging)
        if let old { try? fm.removeItem(at: old) }
    }

    /// Removes the staging directory and everything in it.
    public func abandon() {
        try? FileManager.default.removeItem(at: staging)
        Interruption.unregister(staging)
    }
}

/// A result that cannot be written where asked.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
