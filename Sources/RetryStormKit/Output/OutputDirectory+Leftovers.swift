import Foundation

extension OutputDirectory {
    /// Removes what runs that ended (SIGKILL, a crash, a host or container gone) left in `parent`:
    /// `.NAME.tmp-ID` staging directories, and `.NAME.old-ID` results set aside by a commit, put
    /// back in place when their successor never arrived and removed when it did.
    ///
    /// A directory is a leftover only when its ``OwnerMarker`` is RetryStorm's and its lock can be
    /// taken; whatever its name, a directory without the marker is never renamed or deleted, and
    /// one whose marker is locked belongs to a live run, on this host or another.
    static func removeLeftovers(in parent: URL) {
        for name in entries(parent) where name.hasPrefix(".") {
            guard let (target, kind) = leftover(name) else { continue }
            let url = parent.appendingPathComponent(name)
            // lstat: a symbolic link with a leftover's name is not followed, let alone removed.
            guard isDirectory(url), case .abandoned(let marker) = OwnerMarker.probe(url.path) else { continue }
            let original = parent.appendingPathComponent(target)
            if kind == "old" && FileIdentity(original.path) == nil {
                if rename(url.path, original.path) == 0 {
                    unlink(original.appendingPathComponent(OwnerMarker.name).path)
                }
            } else {
                try? FileManager.default.removeItem(at: url)
            }
            marker.release()
        }
    }

    /// Parses `.NAME.tmp-ID` / `.NAME.old-ID` (ID: 16 hexadecimal digits).
    static func leftover(_ name: String) -> (target: String, kind: String)? {
        guard let dash = name.lastIndex(of: "-") else { return nil }
        let id = name[name.index(after: dash)...]
        guard id.count == 16, id.allSatisfy(\.isHexDigit) else { return nil }
        let stem = name[name.index(after: name.startIndex)..<dash]
        for kind in ["tmp", "old"] where stem.hasSuffix("." + kind) {
            let target = String(stem.dropLast(kind.count + 1))
            return target.isEmpty ? nil : (target, kind)
        }
        return nil
    }
}
