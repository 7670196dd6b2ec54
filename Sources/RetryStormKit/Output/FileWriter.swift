import Foundation

/// Writes files with `open`/`write`/`rename`, so that a failure is reported with the system's own
/// reason ("No space left on device", "File too large", "Disk quota exceeded") and never leaves
/// half a file behind. Foundation's `Data.write` loses the reason on Linux ("the file system
/// refused it") and leaves its temporary file when a write fails.
enum FileWriter {
    /// Why a write failed: `strerror` of the cause.
    struct Failure: Error {
        let reason: String
        init(_ code: Int32) {
            if code == EFBIG {
                // SIGXFSZ is ignored (Interruption): the limit shows up here, and is named.
                var limit = rlimit()
                let bytes =
                    getrlimit(Self.fileSizeResource, &limit) == 0 && limit.rlim_cur < rlim_t(1) << 62
                    ? " of \(Format.grouped(Int64(limit.rlim_cur))) bytes" : ""
                reason = "file too large for the file-size limit\(bytes) (ulimit -f)"
            } else {
                reason = String(cString: strerror(code))
            }
        }

        #if os(Linux)
            static let fileSizeResource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        #else
            static let fileSizeResource = RLIMIT_FSIZE
        #endif
    }

    /// Creates the file `path`, which must not exist, holding exactly `text`.
    /// On failure the partial file is removed.
    static func create(_ path: String, _ text: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw Failure(errno) }
        do {
            try writeAll(fd, text)
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
        guard close(fd) == 0 else {
            // NFS reports a write error (ENOSPC, EDQUOT) at close.
            let code = errno
            unlink(path)
            throw Failure(code)
        }
    }

    /// Replaces `path` with a file holding exactly `text`, atomically: written beside it under a
    /// hidden temporary name (removed if the command is interrupted meanwhile), then renamed over
    /// it, so a reader sees the old file or the new one, never half of either.
    static func replace(_ path: String, _ text: String) throws(Failure) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(RunIdentity.randomHex())").path
        Interruption.register(temporary: temporary)
        defer { Interruption.unregister(temporary: temporary) }
        try create(temporary, text)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(code)
        }
    }

    private static func writeAll(_ fd: Int32, _ text: String) throws(Failure) {
        var text = text
        let code: Int32 = text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return 0
        }
        if code != 0 { throw Failure(code) }
    }
}
