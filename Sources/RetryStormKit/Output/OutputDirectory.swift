import Foundation

/// Writes a command's files into a hidden staging directory beside `--out` and moves it into
/// place only when everything is written, so that a failure or an interruption never leaves half
/// a result, and nothing RetryStorm did not write is ever replaced or deleted.
///
/// The rules, each tested in `Tests/CLITests/OutputSafetyTests`:
/// - A new `--out` is reserved at once with `mkdir` (atomic): of two runs into the same new
///   directory, the second is refused before it runs instead of silently winning.
/// - `--force` replaces only a directory RetryStorm wrote: one holding the ``markerName`` file
///   that every output directory gets, or (written before the marker existed) only files with
///   the names RetryStorm writes. Never the current directory or one of its ancestors.
/// - Commit checks that the directory it replaces is still the one it checked at the start (same
///   device and inode): a directory that appeared or was replaced during the run is never deleted.
/// - Every directory a run creates beside `--out` (staging, a reservation, results set aside
///   while they are replaced) carries an ``OwnerMarker`` locked for the run's life and a name no
///   other run picks (16 random hex digits, not a pid). The next run in the same parent, on any
///   host or in any container, removes such a leftover only when its marker is RetryStorm's and
///   its lock can be taken; a directory without the marker is never renamed or deleted.
package final class OutputDirectory: @unchecked Sendable {
    /// The file that marks a directory as RetryStorm's own; its text never changes, so result
    /// directories stay byte-identical.
    package static let markerName = ".retrystorm"
    static let markerText = "This directory was written by retrystorm; `retrystorm … --force` may replace it.\n"
    /// The file in a reserved `--out` while its results are being written: the writer's marker.
    static let reservationName = OwnerMarker.name

    package let final: URL
    package let staging: URL
    /// The path as the user gave it, for messages.
    package let given: String
    private let replacing: FileIdentity?
    private let reserved: FileIdentity?
    private let createdParents: [URL]
    /// The locks on the reservation (a new `--out`) and on the staging directory.
    private let reservationMarker: OwnerMarker?
    /// The lock on the directory `--force` replaces, while this run means to replace it.
    private let replacingMarker: OwnerMarker?
    private let stagingMarker: OwnerMarker
    private var committed = false
    private var abandoned = false
    /// Serialises writing, committing and abandoning: a signal handler that abandons the output
    /// from another thread waits for a write in progress, and no write starts after it (a file
    /// written into the staging directory while it is being removed would keep it, and its
    /// parents, alive).
    private let lock = NSRecursiveLock()

    /// Checks `path`, reserves or checks it, and creates the staging directory.
    /// - Throws: ``OutputError`` when `path` exists and `force` is false, when `force` would
    ///   replace something RetryStorm did not write, or when it cannot be created.
    package init(path: String, force: Bool) throws(OutputError) {
        // An interruption waits until this directory is set up and registered, so it can undo all of it.
        Interruption.setup.lock()
        defer { Interruption.setup.unlock() }
        given = path
        let shown = Self.shown(path)
        guard !path.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw OutputError(message: "--out is empty: name the directory to write the results into")
        }
        final = URL(fileURLWithPath: path).standardizedFileURL
        guard final.path != "/" else { throw OutputError(message: "\(shown): refusing to write results over the root directory") }
        let fm = FileManager.default
        let parent = final.deletingLastPathComponent()
        Self.removeLeftovers(in: parent)
        var replacing: FileIdentity?
        var reserved: FileIdentity?
        var reservation: OwnerMarker?
        var created: [URL] = []
        var claim: OwnerMarker?
        try Self.checkNoWriter(final, shown: shown)
        if let existing = FileIdentity(final.path) {
            guard existing.isDirectory else { throw OutputError(message: "\(shown) exists and is not a directory") }
            guard force else {
                throw OutputError(message: "\(shown) already exists; choose another --out or pass --force to replace it")
            }
            try Self.checkReplaceable(final, shown: shown)
            replacing = existing
            // Marked for the run's life, so that a second run into it, with --force or without,
            // is told who writes there instead of racing this one to the commit. Where no marker
            // can be written (a directory this user may not write in), the commit's identity
            // check alone keeps the runs from taking each other's results.
            switch try? OwnerMarker.claim(final.path) {
            case .claimed(let marker): claim = marker
            case .live(let owner): throw Self.busy(shown, owner)
            case nil: break
            }
        }
        if replacing == nil {
            created = try Self.createParents(of: final, shown: shown)
            guard mkdir(final.path, 0o777) == 0 else {
                let code = errno
                Self.removeCreated(created)
                if code == EEXIST {
                    try Self.checkNoWriter(final, shown: shown)
                    throw OutputError(message: "\(shown) was just created by someone else; choose another --out or pass --force to replace it")
                }
                throw OutputError(message: "cannot create \(shown): \(String(cString: strerror(code)))")
            }
            do {
                reservation = try OwnerMarker.create(in: final.path)
            } catch {
                rmdir(final.path)
                Self.removeCreated(created)
                throw OutputError(message: "cannot write in \(shown): \(error.reason)")
            }
            reserved = FileIdentity(final.path)
        }
        self.replacing = replacing
        self.replacingMarker = claim
        self.reserved = reserved
        self.reservationMarker = reservation
        self.createdParents = created
        let finalPath = final.path
        let undo = {
            claim?.removeIfHeld()
            if let reservation {
                reservation.remove()
                rmdir(finalPath)
            }
            Self.removeCreated(created)
        }
        // A name no other run picks, on this host or another: mkdir fails rather than share one.
        var staging: URL
        var made: Int32
        repeat {
            staging = parent.appendingPathComponent(".\(final.lastPathComponent).tmp-\(RunIdentity.randomHex())")
            made = mkdir(staging.path, 0o777)
        } while made != 0 && errno == EEXIST
        self.staging = staging
        guard made == 0 else {
            let code = errno
            undo()
            throw OutputError(message: "cannot write in \(Self.shown(parent.path)): \(String(cString: strerror(code)))")
        }
        do {
            stagingMarker = try OwnerMarker.create(in: staging.path)
        } catch {
            rmdir(staging.path)
            undo()
            throw OutputError(message: "cannot write in \(Self.shown(parent.path)): \(error.reason)")
        }
        do {
            try FileWriter.create(staging.appendingPathComponent(Self.markerName).path, Self.markerText)
        } catch {
            try? fm.removeItem(at: staging)
            undo()
            // Every property is set, so deinit runs: it must not undo again.
            abandoned = true
            throw OutputError(message: "cannot write in \(Self.shown(parent.path)): \(error.reason)")
        }
        Interruption.register(self)
    }

    deinit { if !committed { abandon() } }

    /// Runs `body` (which writes into the staging directory) unless the output was abandoned, and
    /// keeps it from being abandoned meanwhile.
    package func whileOpen<T>(_ body: () throws(OutputError) -> T) throws(OutputError) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard !abandoned else { throw OutputError(message: "interrupted") }
        return try body()
    }

    /// Writes `contents` to `name` inside the staging directory.
    package func write(_ name: String, _ contents: String) throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        guard !abandoned else { throw OutputError(message: "interrupted") }
        do {
            try FileWriter.create(staging.appendingPathComponent(name).path, contents)
        } catch {
            throw OutputError(message: "cannot write \(Self.shown(given))/\(name): \(error.reason)")
        }
    }

    /// Moves the staging directory to `--out`: into the reserved (empty) directory, or in place of
    /// the directory `--force` replaces, which is kept aside (marked as this run's) until the move
    /// succeeds. The staging marker moves with the results and is removed last.
    package func commit() throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        guard !abandoned else { throw OutputError(message: "interrupted") }
        let shown = Self.shown(given)
        if let reserved {
            guard FileIdentity(final.path) == reserved, Self.entries(final) == [Self.reservationName] else {
                abandon()
                throw OutputError(message: "\(shown) was changed by someone else during the run; nothing was written there")
            }
            reservationMarker?.remove()
            // rename(2) replaces an empty directory, and only an empty one.
            guard rename(staging.path, final.path) == 0 else {
                let code = errno
                abandon()
                throw OutputError(message: "cannot move the results into \(shown): \(String(cString: strerror(code)))")
            }
        } else if let replacing {
            guard FileIdentity(final.path) == replacing, (try? Self.checkReplaceable(final, shown: shown)) != nil else {
                abandon()
                throw OutputError(
                    message: "\(shown) was replaced or changed by someone else during the run; it was left as it is and nothing was written")
            }
            let aside = final.deletingLastPathComponent().appendingPathComponent(".\(final.lastPathComponent).old-\(RunIdentity.randomHex())")
            guard rename(final.path, aside.path) == 0 else {
                let code = errno
                abandon()
                throw OutputError(message: "cannot replace \(shown): \(String(cString: strerror(code)))")
            }
            // Marked as this run's, so that if this process dies before the next rename, the next
            // run puts the results back; unmarked (no room for the marker), they are only kept.
            let asideMarker = try? OwnerMarker.create(in: aside.path)
            guard rename(staging.path, final.path) == 0 else {
                let code = errno
                // The marker first: once renamed back, the results are at their own name again.
                asideMarker?.remove()
                _ = rename(aside.path, final.path)
                abandon()
                throw OutputError(message: "cannot move the results into \(shown): \(String(cString: strerror(code)))")
            }
            try? FileManager.default.removeItem(at: aside)
            asideMarker?.release()
        }
        unlink(final.appendingPathComponent(OwnerMarker.name).path)
        stagingMarker.release()
        reservationMarker?.release()
        replacingMarker?.release()
        committed = true
        Interruption.unregister(self)
        Interruption.committed(self)
    }

    /// Removes the staging directory, the reservation and the parents this run created; leaves
    /// everything else as it was. Safe to call more than once.
    package func abandon() {
        lock.lock()
        defer { lock.unlock() }
        guard !committed, !abandoned else { return }
        abandoned = true
        try? FileManager.default.removeItem(at: staging)
        stagingMarker.release()
        if let reservationMarker, FileIdentity(final.path) == reserved {
            reservationMarker.remove()
            rmdir(final.path)
        }
        reservationMarker?.release()
        replacingMarker?.removeIfHeld()
        replacingMarker?.release()
        Self.removeCreated(createdParents)
        Interruption.unregister(self)
    }

    // MARK: - Other writers

    /// How long a run waits for the marker of a `--out` another run has just created: `mkdir`
    /// and the marker's rename follow each other within microseconds, unless that run is stopped.
    static let reservationWait = 1.0

    /// Refuses `dir` while another run writes there (its marker is locked); removes what a run
    /// that ended left in it: its reservation (only the marker), or the marker alone.
    ///
    /// An empty directory may be a reservation whose marker is not in place yet: it is looked at
    /// again for up to ``reservationWait`` seconds before it is taken for an empty directory.
    static func checkNoWriter(_ dir: URL, shown: String) throws(OutputError) {
        let start = Date()
        while let existing = FileIdentity(dir.path), existing.isDirectory {
            switch OwnerMarker.probe(dir.path) {
            case .live(let owner):
                throw busy(shown, owner)
            case .abandoned(let marker):
                defer { marker.release() }
                if entries(dir) == [OwnerMarker.name] {
                    // A reservation left by a run that ended: take it over.
                    marker.remove()
                    rmdir(dir.path)
                } else if (try? checkReplaceable(dir, shown: shown)) != nil {
                    // Results a killed `--force` run was replacing: as they were, but for its marker.
                    marker.remove()
                }
                return
            case .unmarked:
                // Empty, or holding only the marker being written under its temporary name.
                let settling = entries(dir).allSatisfy(OwnerMarker.isTemporary)
                guard settling, Date().timeIntervalSince(start) < reservationWait, isNew(dir) else { return }
                usleep(10_000)
            }
        }
    }

    /// Whether `dir` changed within the last ``reservationWait`` seconds: an empty directory that
    /// did not is nobody's reservation in the making, and is not waited for.
    static func isNew(_ dir: URL) -> Bool {
        var info = stat()
        guard lstat(dir.path, &info) == 0 else { return false }
        #if os(Linux)
            let changed = info.st_ctim.tv_sec
        #else
            let changed = info.st_ctimespec.tv_sec
        #endif
        return Double(time(nil) - changed) <= reservationWait + 1
    }

    /// The refusal of a `--out` that the run `owner` is writing.
    static func busy(_ shown: String, _ owner: RunIdentity) -> OutputError {
        OutputError(
            message: "\(shown): another retrystorm run is writing there (host \(owner.host), pid \(owner.pid)); wait for it or choose another --out")
    }

    // MARK: - Ownership

    /// File names RetryStorm writes into a result directory.
    static let knownNames: Set<String> = [
        markerName, OwnerMarker.name, "summary.csv", "timeseries.csv", "tts_quantiles.csv", "compare.csv", "sweep.csv", "tune.csv",
        "tune.json", "table.txt", "scenario.yaml", "perf.json", "shard.json", "report.html", "populations.csv",
        "timeseries_populations.csv", InputRecord.listName
    ]

    /// Whether `name` is a file RetryStorm writes: a known name, a copy of an input file
    /// (`input-load-csv-<16 hex digits>.csv`, ``InputRecord/isCopyName(_:)``), a marker being
    /// written (``OwnerMarker/isTemporary(_:)``), or a chart (`name.svg`, `name.png`).
    static func isKnown(_ name: String) -> Bool {
        if knownNames.contains(name) || InputRecord.isCopyName(name) || OwnerMarker.isTemporary(name) { return true }
        guard name.hasSuffix(".svg") || name.hasSuffix(".png") else { return false }
        return name.dropLast(4).allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") } && name.count > 4
    }

    /// Refuses unless `dir` is RetryStorm's to replace: never the current directory or one of its
    /// ancestors; a directory with the marker, or one holding only files RetryStorm writes.
    static func checkReplaceable(_ dir: URL, shown: String) throws(OutputError) {
        let target = dir.resolvingSymlinksInPath().path
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
        if cwd == target || cwd.hasPrefix(target.hasSuffix("/") ? target : target + "/") {
            throw OutputError(message: "\(shown) holds the current directory; refusing to replace it")
        }
        let names = entries(dir)
        if names.contains(markerName) { return }
        let foreign = names.filter { !isKnown($0) || isDirectory(dir.appendingPathComponent($0)) }
        guard !foreign.isEmpty else { return }
        let list = foreign.sorted().prefix(3).map { shownName($0) }.joined(separator: ", ")
        throw OutputError(
            message:
                "\(shown) was not written by retrystorm (it holds \(list)\(foreign.count > 3 ? ", …" : "")); --force replaces only result directories: choose another --out"
        )
    }

    static func entries(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    static func isDirectory(_ url: URL) -> Bool { FileIdentity(url.path)?.isDirectory ?? false }

    // MARK: - Parents

    /// Creates the missing parents of `dir`, outermost first, and returns them.
    static func createParents(of dir: URL, shown: String) throws(OutputError) -> [URL] {
        var missing: [URL] = []
        var p = dir.deletingLastPathComponent()
        while FileIdentity(p.path) == nil && p.path != "/" {
            missing.append(p)
            p = p.deletingLastPathComponent()
        }
        var created: [URL] = []
        for m in missing.reversed() {
            guard mkdir(m.path, 0o777) == 0 || errno == EEXIST else {
                let code = errno
                removeCreated(created)
                throw OutputError(message: "cannot create \(Self.shown(m.path)) for \(shown): \(String(cString: strerror(code)))")
            }
            created.append(m)
        }
        if let p = FileIdentity(dir.deletingLastPathComponent().path), !p.isDirectory {
            removeCreated(created)
            throw OutputError(message: "cannot create \(shown): \(Self.shown(dir.deletingLastPathComponent().path)) is not a directory")
        }
        return created
    }

    /// Removes directories this run created, innermost first, each only if it is still empty.
    static func removeCreated(_ created: [URL]) {
        for url in created.reversed() { rmdir(url.path) }
    }

    // MARK: - Messages

    /// A path for messages, as given (the CLI escapes control characters in every message).
    static func shown(_ path: String) -> String { path }
    static func shownName(_ name: String) -> String { name }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return "the file system refused it"
    }

    /// The default `--out` of a scenario: `results/` and its name as one safe file-name component.
    package static func defaultPath(scenarioName name: String) -> String { "results/" + safeComponent(name) }

    /// `name` as a single file-name component: letters, digits, `-`, `_`, `.` and `+` kept, every
    /// other character (a `/`, a space, a control character) replaced by `-`, runs of `-`
    /// collapsed, dots and dashes trimmed from both ends (so `..`, `../x` or `.hidden` can name
    /// neither a parent nor a hidden directory); at most 100 characters; `scenario` if nothing is left.
    package static func safeComponent(_ name: String) -> String {
        var out = ""
        for c in name.unicodeScalars {
            let keep = c.isASCII && (CharacterSet.alphanumerics.contains(c) || "-_.+".unicodeScalars.contains(c))
            if keep { out.unicodeScalars.append(c) } else if !out.hasSuffix("-") { out += "-" }
        }
        let trimmed = out.trimmingCharacters(in: CharacterSet(charactersIn: ".-"))
        let short = String(trimmed.prefix(100)).trimmingCharacters(in: CharacterSet(charactersIn: ".-"))
        return short.isEmpty ? "scenario" : short
    }
}
