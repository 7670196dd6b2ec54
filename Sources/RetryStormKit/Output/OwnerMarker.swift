import Foundation

/// The file that marks a directory as being written by a live retrystorm run: a staging
/// directory, a reserved `--out`, results set aside while a commit replaces them. It holds the
/// run's ``RunIdentity`` and is locked (`flock`, exclusive) by the run for as long as the run
/// lives. The kernel, or the NFS lock manager, releases the lock when the process ends however it
/// ends (SIGKILL, a crash, a container stopped), so a leftover is a directory whose marker's lock
/// can be taken: a pid proves nothing across pid namespaces and hosts, a lock does.
///
/// A directory without a marker is never a leftover, whatever its name looks like.
final class OwnerMarker: @unchecked Sendable {
    /// The marker's file name inside the directory it marks.
    static let name = ".retrystorm-writing"
    /// The most bytes read from a marker: it holds a few short lines.
    static let maxBytes = 4096

    /// The locked marker file, open for as long as the lock is held; -1 once released.
    private var fd: Int32
    /// The directory marked.
    let directory: String

    private init(fd: Int32, directory: String) {
        self.fd = fd
        self.directory = directory
    }

    deinit { release() }

    /// Marks `directory` as this run's: the marker is written under a temporary name, locked, and
    /// only then renamed into place, so no other run ever finds it unlocked.
    /// - Throws: the system's reason when the file cannot be written or locked.
    static func create(in directory: String) throws(FileWriter.Failure) -> OwnerMarker {
        let temporary = (directory as NSString).appendingPathComponent("\(name).new-\(RunIdentity.randomHex())")
        let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileWriter.Failure(errno) }
        let text = RunIdentity.current.text
        let written = text.withCString { Foundation.write(fd, $0, strlen($0)) }
        guard written == text.utf8.count, flock(fd, LOCK_EX | LOCK_NB) == 0,
            rename(temporary, (directory as NSString).appendingPathComponent(name)) == 0
        else {
            let code = written < 0 || written == text.utf8.count ? errno : ENOSPC
            close(fd)
            unlink(temporary)
            throw FileWriter.Failure(code)
        }
        return OwnerMarker(fd: fd, directory: directory)
    }

    /// Marks `directory`, which already holds files (the results `--force` replaces), as being
    /// written by this run, unless another run's marker is there: the marker is written and
    /// locked under a temporary name, then linked into place, which fails rather than replace
    /// one; a marker left by a run that ended is removed and the link tried again.
    /// - Returns: the marker, or `.live` with the run that holds the directory.
    /// - Throws: the system's reason when the marker cannot be written or linked (a read-only
    ///   directory, a file system without hard links).
    static func claim(_ directory: String) throws(FileWriter.Failure) -> Claim {
        let path = (directory as NSString).appendingPathComponent(name)
        for _ in 0..<3 {
            let temporary = (directory as NSString).appendingPathComponent("\(name).new-\(RunIdentity.randomHex())")
            let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw FileWriter.Failure(errno) }
            let text = RunIdentity.current.text
            let written = text.withCString { Foundation.write(fd, $0, strlen($0)) }
            let linked = written == text.utf8.count && flock(fd, LOCK_EX | LOCK_NB) == 0 && link(temporary, path) == 0
            let code = written >= 0 && written < text.utf8.count ? ENOSPC : errno
            unlink(temporary)
            if linked { return .claimed(OwnerMarker(fd: fd, directory: directory)) }
            close(fd)
            guard code == EEXIST else { throw FileWriter.Failure(code) }
            switch probe(directory) {
            case .live(let owner): return .live(owner)
            case .abandoned(let marker):
                marker.remove()
                marker.release()
            case .unmarked:
                // A file of the marker's name that is no marker: not RetryStorm's to remove.
                throw FileWriter.Failure(EEXIST)
            }
        }
        throw FileWriter.Failure(EEXIST)
    }

    /// What ``claim(_:)`` found.
    enum Claim {
        case claimed(OwnerMarker)
        case live(RunIdentity)
    }

    /// Removes the marker file if it is still the one this run locked (a commit may have moved
    /// the directory, and another run put its own marker at the same path since).
    func removeIfHeld() {
        let path = (directory as NSString).appendingPathComponent(Self.name)
        var held = stat()
        var there = stat()
        guard fd >= 0, fstat(fd, &held) == 0, lstat(path, &there) == 0, held.st_dev == there.st_dev, held.st_ino == there.st_ino
        else { return }
        unlink(path)
    }

    /// Whether `name` is a marker being written under its temporary name (``create(in:)``,
    /// ``claim(_:)``): another run may see one for a moment before it becomes the marker.
    static func isTemporary(_ name: String) -> Bool {
        guard name.hasPrefix(Self.name + ".new-") else { return false }
        let id = name.dropFirst(Self.name.count + 5)
        return id.count == 16 && id.allSatisfy(\.isHexDigit)
    }

    /// Removes the marker file, keeping the lock until ``release()``.
    func remove() { unlink((directory as NSString).appendingPathComponent(Self.name)) }

    /// Releases the lock. Safe to call more than once.
    func release() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    /// What a directory's marker says of it.
    enum Probe {
        /// No marker, or a file of that name that is not a retrystorm marker: not a leftover.
        case unmarked
        /// A run holds the lock (or the lock cannot be tested, as on a file system without
        /// locks): alive, never to be touched.
        case live(RunIdentity)
        /// The lock was free: the run that wrote it has ended. The returned marker now holds the
        /// lock, so no other run cleans the same leftover at the same time.
        case abandoned(OwnerMarker)
    }

    /// Looks at `directory`'s marker without following symbolic links.
    static func probe(_ directory: String) -> Probe {
        let path = (directory as NSString).appendingPathComponent(name)
        // O_RDWR: NFS implements flock with POSIX locks, which need a writable file for an
        // exclusive lock; a marker this user cannot write is someone else's, and stays.
        let fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .unmarked }
        var info = stat()
        guard fstat(fd, &info) == 0, InputFile.kind(of: info.st_mode) == nil,
            let identity = RunIdentity(text: readAll(fd))
        else {
            close(fd)
            return .unmarked
        }
        // This process's own marker: POSIX locks (NFS) do not conflict within one process.
        if identity == RunIdentity.current {
            close(fd)
            return .live(identity)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return .live(identity)
        }
        return .abandoned(OwnerMarker(fd: fd, directory: directory))
    }

    /// At most ``maxBytes`` of `fd`, as text.
    private static func readAll(_ fd: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: maxBytes)
        var count = 0
        while count < maxBytes {
            let n = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + count, maxBytes - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
