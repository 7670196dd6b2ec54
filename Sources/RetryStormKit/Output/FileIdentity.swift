import Foundation

/// Which file a path names, to tell whether a directory is still the one seen earlier.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64
    let isDirectory: Bool

    /// The identity of what `path` names (without following a final symbolic link), nil if nothing.
    init?(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
    }
}
