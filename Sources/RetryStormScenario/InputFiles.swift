import Foundation
import RetryPolicy
import RetryStormEngine
import RetryStormVocabulary
import Synchronization

/// The input files of one command: every file a scenario key of kind `.file` names (`load.csv`,
/// `server.capacity_csv`), read once, hashed and parsed once, and shared by every point that
/// names it.
///
/// A command resolves its scenario many times — the base, each variant, each `--vary` value and
/// grid point — and each resolution that names a file gets the same arrays from here (Swift
/// arrays are copy-on-write, so the points share one storage): a ten-million-row profile under
/// five `--vary` values is held once, not six times (`compare` of a 10,000,000-row, 129 MB
/// load.csv under five `--vary policy.backoff.base` values: 1.93 GB resident and 86 s when each
/// point read and parsed the file, 393 MB and 6–10 s with this cache). The bytes are kept too,
/// because the results keep a copy of every input file (``copies``), byte for byte what was
/// parsed, and the hash recorded in shard.json (``records``) is of those bytes.
///
/// Created by ``ScenarioLoader`` for a scenario read from the file system; a results directory's
/// scenario is read with ``init(copiesIn:records:listedIn:)`` instead, from the copies that
/// directory keeps, each checked against its recorded SHA-256, never from the files the scenario
/// first named.
///
/// Thread-safe: a lock guards the cache (loading is sequential in practice; a file is read outside
/// the lock, and the first read of it wins).
package final class InputFiles: Sendable {
    /// One file as read.
    struct File: Sendable {
        let bytes: [UInt8]
        let sha256: String
    }

    /// A key of the derived capacity profiles: the file, the nominal capacity and the horizon
    /// the replay was built with.
    struct CapacityKey: Hashable {
        var path: String
        var capacity: UInt64
        var horizon: Int64
    }

    /// A record's identity: the same key set to the same text by the same kind of setter names
    /// the same file (paths are relative to the scenario file or to the working directory).
    struct RecordKey: Hashable {
        var key: String
        var from: String
        var file: String
    }

    struct State {
        /// By resolved path.
        var files: [String: File] = [:]
        /// The points parsed from a file, by resolved path and value column.
        var points: [String: [String: [LoadProfile.Point]]] = [:]
        var loads: [String: LoadProfile] = [:]
        var capacities: [CapacityKey: CapacityProfile] = [:]
        var records: [RecordKey: InputRecord] = [:]
        /// What the imports of policy files said (``PolicyImportKeys``), each once, in order.
        var notes: [String] = []
    }

    /// A results directory's copies, and the records that say which file each one is.
    struct Copies: Sendable {
        let directory: String
        let records: [InputRecord]
        /// The file the records come from, for messages (`DIR/shard.json`, `DIR/inputs.json`).
        let listedIn: String
    }

    private let state = Mutex(State())
    private let copiesIn: Copies?

    /// Reads files as their paths resolve: relative to the scenario file when the file sets the
    /// key, to the working directory when an option does.
    package init() { copiesIn = nil }

    /// Reads the files of a results directory's scenario from the copies in `directory`: a path
    /// an option set (`--set`, `--vary`, `--grid`) is looked up in `records` and read from its
    /// copy; a path the scenario sets is relative to `directory` (a results directory's
    /// scenario.yaml names its copies). Every copy listed in `records` must have its recorded
    /// SHA-256; `listedIn` names the file the records come from, for messages.
    package init(copiesIn directory: String, records: [InputRecord], listedIn: String) {
        copiesIn = Copies(directory: directory, records: records, listedIn: listedIn)
    }

    /// What importing policy files (`policy.import.file`) said so far: where the simulator's
    /// meaning is close to the file's but not the same, each line once, prefixed with the file.
    /// The command prints them on stderr, so that no approximation is silent.
    package var importNotes: [String] { state.withLock { $0.notes } }

    /// Records a note of an import (once).
    func note(_ line: String) {
        state.withLock { state in
            if !state.notes.contains(line) { state.notes.append(line) }
        }
    }

    /// The records of every file read so far, ordered by key, setter and path.
    package var records: [InputRecord] {
        state.withLock { $0.records.values.sorted { ($0.key, $0.from, $0.file) < ($1.key, $1.from, $1.file) } }
    }

    /// The copies results keep: one per distinct name (``InputRecord/copyName(key:sha256:)``),
    /// with the bytes that were read, ordered by name.
    package var copies: [(name: String, bytes: [UInt8])] {
        state.withLock { state in
            var out: [String: [UInt8]] = [:]
            for r in state.records.values where out[r.copy] == nil {
                if let f = state.files.values.first(where: { $0.sha256 == r.sha256 }) { out[r.copy] = f.bytes }
            }
            return out.sorted { $0.key < $1.key }.map { (name: $0.key, bytes: $0.value) }
        }
    }

    /// Every array this cache holds, by storage address (``ResourceEstimate/address(of:)``), with
    /// its size in bytes: the files' bytes, the points parsed from them, the load profiles (the
    /// points and their integrals) and the capacity profiles replayed from them. A load profile
    /// holds its file's points (one storage), so an address appears once, at its largest size.
    package var heldArrays: [Int: Int] {
        state.withLock { state in
            var out: [Int: Int] = [:]
            func add(_ address: Int, _ bytes: Int) { out[address] = max(out[address] ?? 0, bytes) }
            for f in state.files.values { add(ResourceEstimate.address(of: f.bytes), f.bytes.count) }
            for byColumn in state.points.values {
                for p in byColumn.values { add(ResourceEstimate.address(of: p), p.count * MemoryLayout<LoadProfile.Point>.stride) }
            }
            for l in state.loads.values { add(ResourceEstimate.address(of: l.points), ResourceEstimate.bytes(of: l)) }
            for c in state.capacities.values { add(ResourceEstimate.address(of: c.segments), ResourceEstimate.bytes(of: c)) }
            return out
        }
    }

    /// Bytes of input data this cache holds (``heldArrays``), for the memory checks of reading.
    var heldBytes: Double { heldArrays.values.reduce(0) { $0 + Double($1) } }

    /// The load profile of `load.csv` set to `value` at `location`.
    func loadProfile(_ value: String, setAt location: SourceLocation) throws(ScenarioError) -> LoadProfile {
        let (path, _, points) = try self.points(key: "load.csv", value: value, setAt: location)
        if let known = state.withLock({ $0.loads[path] }) { return known }
        let profile = LoadProfile(points: points)
        return state.withLock { state in
            if let known = state.loads[path] { return known }
            state.loads[path] = profile
            return profile
        }
    }

    /// The capacity profile of `key` (`server.capacity_csv`, or a service's
    /// `services.NAME.server.capacity_csv`) set to `value` at `location`, for a server of nominal
    /// `capacity` per second until `horizon`: the file's rows as fractions of nominal.
    func capacityProfile(
        _ value: String, key: String, setAt location: SourceLocation, capacity: Double, horizon: Nanoseconds
    ) throws(ScenarioError) -> CapacityProfile {
        let (path, _, points) = try self.points(key: key, value: value, setAt: location)
        let key = CapacityKey(path: path, capacity: capacity.bitPattern, horizon: horizon)
        if let known = state.withLock({ $0.capacities[key] }) { return known }
        let profile = CapacityProfile.replay(points.lazy.map { (time: $0.time, fraction: $0.multiplier / capacity) }, until: horizon)
        return state.withLock { state in
            if let known = state.capacities[key] { return known }
            state.capacities[key] = profile
            return profile
        }
    }

    /// Reads (once) and parses (once per column) the file that `key` set to `value` at
    /// `location` names, and records it.
    /// - Returns: the resolved path (the cache's key), the SHA-256 of the file, and the points.
    func points(key: String, value: String, setAt location: SourceLocation) throws(ScenarioError) -> (
        path: String, sha256: String, points: [LoadProfile.Point]
    ) {
        guard case .file(let column?)? = ScenarioSchema.field(at: key)?.kind else {
            throw ScenarioError(location, field: key, "is not a key that names a CSV file")
        }
        let (path, file) = try read(key: key, value: value, setAt: location)
        if let known = state.withLock({ $0.points[path]?[column] }) { return (path, file.sha256, known) }
        let rows = file.bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        try CurveFile.checkRoom(rows: rows, bytes: file.bytes.count, held: heldBytes - Double(file.bytes.count), file: path, field: key, at: location)
        let parsed = try CurveFile.parse(file.bytes, file: path, field: key, column: column)
        return (
            path, file.sha256,
            state.withLock { state in
                if let known = state.points[path]?[column] { return known }
                state.points[path, default: [:]][column] = parsed
                return parsed
            }
        )
    }

    /// Reads the file `key` names (once per path) and records it: where it is, its bytes and their
    /// SHA-256.
    func read(key: String, value: String, setAt location: SourceLocation) throws(ScenarioError) -> (String, File) {
        let from = InputRecord.setter(location)
        let path: String
        var expected: InputRecord?
        if let copiesIn, from != InputRecord.scenario {
            guard let r = copiesIn.records.first(where: { $0.key == key && $0.from == from && $0.file == value }) else {
                throw ScenarioError(
                    location, field: key,
                    "\(value) is not one of the input files \(copiesIn.listedIn) lists, so this results directory keeps no copy of it")
            }
            path = (copiesIn.directory as NSString).appendingPathComponent(r.copy)
            expected = r
        } else {
            path = CurveFile.resolve(value, setAt: location)
            expected = copiesIn?.records.first { $0.key == key && $0.copy == value }
        }
        let file: File
        if let known = state.withLock({ $0.files[path] }) {
            file = known
        } else {
            // A policy file is a page of settings: its own, smaller bound.
            let isPolicy: Bool
            if case .file(nil)? = ScenarioSchema.field(at: key)?.kind { isPolicy = true } else { isPolicy = false }
            let bytes = try CurveFile.read(
                path, setAt: location, field: key, held: heldBytes, cap: isPolicy ? PolicyImporter.maxBytes : CurveFile.maxBytes)
            var hash = SHA256()
            hash.update(bytes)
            file = state.withLock { state in
                if let known = state.files[path] { return known }
                let read = File(bytes: bytes, sha256: hash.hexDigest())
                state.files[path] = read
                return read
            }
        }
        if let expected, let copiesIn, file.sha256 != expected.sha256 {
            throw ScenarioError(
                location, field: key,
                "\(path) has SHA-256 \(file.sha256), but \(copiesIn.listedIn) records \(expected.sha256) for it: the copy was changed")
        }
        let record = InputRecord(key: key, from: from, file: value, sha256: file.sha256, bytes: file.bytes.count)
        state.withLock { state in
            let id = RecordKey(key: key, from: from, file: value)
            if state.records[id] == nil { state.records[id] = record }
        }
        return (path, file)
    }

    /// Reads every file `records` list from the copies (``init(copiesIn:records:listedIn:)``),
    /// checking each one's SHA-256, so that ``copies`` holds them all, including those no point
    /// of the scenario as loaded names (a `--vary` or grid value).
    package func readAllCopies() throws(ScenarioError) {
        guard let copiesIn else { return }
        for r in copiesIn.records {
            let location =
                r.from == InputRecord.scenario
                ? SourceLocation(origin: .file((copiesIn.directory as NSString).appendingPathComponent("scenario.yaml")))
                : SourceLocation(origin: .option("\(r.from) \(r.key)=\(r.file)"))
            let value = r.from == InputRecord.scenario ? r.copy : r.file
            if case .file(nil)? = ScenarioSchema.field(at: r.key)?.kind {
                _ = try read(key: r.key, value: value, setAt: location)
            } else {
                _ = try points(key: r.key, value: value, setAt: location)
            }
        }
    }
}
