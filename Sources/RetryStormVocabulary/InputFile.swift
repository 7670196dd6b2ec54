import Foundation

/// The one reader of every file RetryStorm takes as input (scenario files, `load.csv` and
/// `server.capacity_csv`, a result or shard directory's CSV and JSON files): the whole file,
/// bounded by the bytes actually read, never by the size the file system reports.
///
/// A file in `/proc` reports size 0 and may yield gigabytes (`/proc/self/pagemap`), a file can
/// grow while it is read, and a network file system can report a stale size: so the reader
/// stops after `cap` bytes whatever `st_size` says, and refuses the file (``Failure/tooLarge``).
/// It opens with `O_NONBLOCK` and checks the opened file, not the path, so that a FIFO or device
/// never blocks the process and a path swapped between the check and the read is not read.
package enum InputFile {
    /// Why a file was not read; ``message`` is one line without the path.
    package enum Failure: Error, Sendable, Equatable {
        /// Nothing at the path, or it could not be opened (`strerror` of the cause).
        case cannotOpen(String)
        /// Not a regular file: a directory, a FIFO, a device or a socket (its kind, for the message).
        case notRegular(String)
        /// More than `cap` bytes were there to read.
        case tooLarge(cap: Int)
        /// A read failed (`strerror` of the cause).
        case cannotRead(String)

        /// One line, without the path: "is a FIFO (named pipe), not a regular file".
        package var message: String {
            switch self {
            case .cannotOpen(let reason): "cannot read the file: \(reason)"
            case .notRegular(let kind): "is \(kind), not a regular file"
            case .tooLarge(let cap): "holds more than \(Format.grouped(Int64(cap))) bytes, the most read from one file"
            case .cannotRead(let reason): "cannot read the file: \(reason)"
            }
        }
    }

    /// The most bytes read from a scenario file, the one a command names or the copy a results
    /// directory keeps: a scenario is a page of keys, and reading a huge file (or a device) whole
    /// would exhaust memory before any check.
    package static let maxScenarioBytes = 16 << 20

    /// Reads the regular file at `path` whole.
    /// - Parameter cap: the most bytes accepted; a file with more is refused once a read passes
    ///   `cap`, before its bytes are kept, so memory use is bounded by `cap` (and one 64 KiB
    ///   buffer) whatever the file is.
    /// - Returns: the file's bytes.
    /// - Throws: ``Failure``.
    package static func read(_ path: String, cap: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotRead(String(cString: strerror(errno))) }
        if let kind = kind(of: info.st_mode) { throw .notRegular(kind) }
        var bytes: [UInt8] = []
        // The reported size is a hint for the first allocation only, never a bound.
        bytes.reserveCapacity(min(max(Int(info.st_size), 0), cap) + 1)
        let chunk = 1 << 16
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            // Whole chunks, even near the cap: some kernel files refuse reads of other sizes
            // (/proc/self/pagemap answers EINVAL to a length that is not a multiple of 8).
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, chunk) }
            if n < 0 {
                if errno == EINTR { continue }
                // EAGAIN: a procfs or sysfs file that would block (kmsg): not a file to read whole.
                throw .cannotRead(String(cString: strerror(errno)))
            }
            if n == 0 { return bytes }
            if n > cap - bytes.count { throw .tooLarge(cap: cap) }
            bytes.append(contentsOf: buffer[..<n])
        }
    }

    /// Reads the file at `path` as UTF-8 text (see ``read(_:cap:)``).
    /// - Returns: nil when the bytes are not UTF-8.
    package static func text(_ path: String, cap: Int) throws(Failure) -> String? {
        let bytes = try read(path, cap: cap)
        return String(validating: bytes, as: UTF8.self)
    }

    /// The kind of a file that is not regular, for messages; nil for a regular file.
    package static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
