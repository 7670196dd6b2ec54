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
        for name in entries(parent) {
            guard let (target, kind) = leftover(name) else {
                removeAbandonedReservation(parent.appendingPathComponent(name))
                continue
            }
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

    /// Removes `dir` if it is a reserved `--out` whose run ended before its results arrived
    /// (only the marker in it, the marker's lock free); unlinks a marker left in results that
    /// did arrive (the run ended between moving them into place and removing it).
    static func removeAbandonedReservation(_ dir: URL) {
        // Most entries have no marker: one lstat and one failed open each, no directory listing.
        guard isDirectory(dir), case .abandoned(let marker) = OwnerMarker.probe(dir.path) else { return }
        let names = entries(dir)
        if names == [OwnerMarker.name] {
            marker.remove()
            rmdir(dir.path)
        } else if names.contains(markerName) {
            marker.remove()
        }
        marker.release()
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
