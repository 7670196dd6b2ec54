import Foundation

/// One CSV file of a shard, read and checked against what its shard.json records, so that merge
/// only ever merges rows exactly as the shard wrote them.
///
/// Checks, in order, naming `DIRECTORY/FILE:LINE` of the first problem: the header is exactly
/// this version's (a renamed, swapped, added or missing column is named); every row is whole
/// (ends with a line break, one field per column); belongs to this shard (task `t` with
/// `t mod n = i`); comes in increasing task order and is not a copy of an earlier row; has values
/// as retrystorm writes them (so no value can trap or mislead the statistics and charts); each
/// task has the rows, and the SHA-256 of its rows, that shard.json records; and the whole file
/// has the recorded SHA-256.
struct ShardTable: Sendable {
    /// The file's bytes.
    let bytes: [UInt8]
    /// The tasks that have rows, in task order, with the byte range of their rows (line breaks
    /// included).
    let groups: [(task: Int, rows: Range<Int>)]

    /// The path of file `f` of `shard`'s manifest.
    static func path(_ shard: ShardManifestFile, file f: Int) -> String {
        (shard.directory as NSString).appendingPathComponent(shard.manifest.files[f].name)
    }

    /// Reads and checks file `f` of `shard`'s manifest, charging it to `budget`; `points` maps
    /// the study's point names to their indices.
    /// - Throws: ``OutputError`` naming the file and line of the first problem.
    static func read(_ shard: ShardManifestFile, file f: Int, points: [String: Int], budget: inout ResultsBudget) throws(OutputError) -> ShardTable {
        let record = shard.manifest.files[f]
        let path = path(shard, file: f)
        let read: [UInt8]?
        do { read = try budget.read(path, cap: Int.max) } catch { throw OutputError(message: error.message) }
        guard let data = read else {
            throw shard.error("files[\(f)].name", "lists \(record.name), but \(path) cannot be read")
        }
        var scan = Scan(bytes: data, path: path, shard: shard, record: record, points: points)
        try scan.run()
        return ShardTable(bytes: scan.bytes, groups: scan.groups)
    }

    /// The walk through one file, row by row.
    private struct Scan {
        let bytes: [UInt8]
        let path: String
        let shard: ShardManifestFile
        let record: ShardManifest.FileDigest
        let points: [String: Int]
        let columns: [String]
        let rules: [FieldRule]
        var groups: [(task: Int, rows: Range<Int>)] = []
        /// The task whose rows are being read.
        var current: Group?
        /// The first line of every task already read, to tell a repeated task from a misplaced one.
        var firstLines: [Int: Int] = [:]
        /// The current row's fields (kept to reuse its storage).
        var fields: [Range<Int>] = []
        /// The next entry of `record.tasks` to match.
        var entry = 0
        var line = 1

        struct Group {
            var task: Int
            var recorded: ShardManifest.FileDigest.TaskRows
            var start: Int
            /// Just past the line break of the task's last row read.
            var end: Int
            var firstLine: Int
            var rows = 0
            var digest = SHA256()
            /// The rows read so far, by their FNV-1a hash: the first row with that hash (its line
            /// and bytes), to name a row given twice. (Hashing with `Hasher`, byte by byte, took
            /// 40% of a merge.)
            var seen: [UInt64: (line: Int, bytes: Range<Int>)] = [:]
        }

        init(bytes: [UInt8], path: String, shard: ShardManifestFile, record: ShardManifest.FileDigest, points: [String: Int]) {
            self.bytes = bytes
            self.path = path
            self.shard = shard
            self.record = record
            self.points = points
            columns = ShardManifest.columns(record.name)
            rules = columns.map { FieldRule(file: record.name, column: $0) }
        }

        func fail(_ line: Int, _ message: String) -> OutputError { OutputError(message: "\(path):\(line): \(message)") }

        /// "'base' replication 2", for messages.
        func describe(_ task: Int) -> String {
            let m = shard.manifest
            let p = task / m.replications
            let name = p < m.points.count ? m.points[p].name : "?"
            return "'\(name)' replication \(task % m.replications)"
        }

        mutating func run() throws(OutputError) {
            guard let headerEnd = bytes.firstIndex(of: ShardDigest.newline) else {
                throw fail(
                    1,
                    bytes.isEmpty
                        ? "is empty; shard.json records a header and \(record.rows) rows"
                        : "the header line is cut short (the file is truncated)")
            }
            try checkHeader(bytes[..<headerEnd])
            var position = headerEnd + 1
            while position < bytes.count {
                line += 1
                guard let end = bytes[position...].firstIndex(of: ShardDigest.newline) else {
                    throw fail(line, "the last line is cut short (no line break at its end): the file is truncated")
                }
                try row(bytes[position..<end], start: position)
                position = end + 1
            }
            try finish(current, next: nil)
            current = nil
            if let missing = record.tasks[entry...].first(where: { $0.rows > 0 }) {
                throw fail(
                    line,
                    "the file ends here, but shard.json records \(missing.rows) row\(missing.rows == 1 ? "" : "s") of \(describe(missing.task)) after it: rows are missing (the file is truncated)"
                )
            }
            var whole = SHA256()
            whole.update(bytes)
            // Unreachable when every task's rows match, unless shard.json's file digest itself was edited.
            guard whole.hexDigest() == record.sha256 else {
                throw shard.error(
                    "files[\(shard.manifest.files.firstIndex { $0.name == record.name } ?? 0)].sha256",
                    "the SHA-256 of \(path) is not the one recorded here (shard.json or the file was edited)")
            }
        }

        func checkHeader(_ header: ArraySlice<UInt8>) throws(OutputError) {
            // Bytes first: String equality would take one Unicode spelling for another.
            guard !header.elementsEqual(columns.joined(separator: ",").utf8) else { return }
            let found = header.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            for (c, name) in columns.enumerated() where c < found.count && found[c] != name {
                let other = columns.firstIndex(of: found[c]).map { " (the column that belongs at \($0 + 1))" } ?? ""
                throw fail(
                    1,
                    "column \(c + 1) is '\(ShardManifestFile.shown(found[c]))'\(other), where retrystorm writes '\(name)': the columns were renamed or swapped"
                )
            }
            if found.count == columns.count {
                throw fail(1, "is not the header retrystorm writes (a column name differs in its bytes)")
            }
            if found.count > columns.count {
                throw fail(
                    1,
                    "has \(found.count) columns, retrystorm writes \(columns.count): column \(columns.count + 1) '\(ShardManifestFile.shown(found[columns.count]))' was added"
                )
            }
            throw fail(1, "has \(found.count) columns, retrystorm writes \(columns.count): column '\(columns[found.count])' is missing")
        }

        mutating func row(_ text: ArraySlice<UInt8>, start: Int) throws(OutputError) {
            fields.removeAll(keepingCapacity: true)
            var from = text.startIndex
            for i in text.indices where text[i] == UInt8(ascii: ",") {
                fields.append(from..<i)
                from = i + 1
                // A row with far too many fields is refused without splitting all of it.
                if fields.count > columns.count { break }
            }
            if fields.count <= columns.count { fields.append(from..<text.endIndex) }
            guard fields.count == columns.count else {
                throw fail(
                    line,
                    "has \(fields.count > columns.count ? "more than \(columns.count)" : String(fields.count)) fields, the header has \(columns.count)"
                )
            }
            let m = shard.manifest
            let variant = String(decoding: bytes[fields[0]], as: UTF8.self)
            guard let p = points[variant] else {
                throw fail(line, "variant '\(ShardManifestFile.shown(variant))' is not one of this study's points")
            }
            guard let r = FieldRule.replication(bytes[fields[1]]), r < m.replications else {
                throw fail(
                    line,
                    "replication '\(ShardManifestFile.shown(String(decoding: bytes[fields[1]], as: UTF8.self)))' is not one of this study's 0…\(m.replications - 1)"
                )
            }
            let task = p * m.replications + r
            guard task % m.shard.count == m.shard.index else {
                throw fail(
                    line,
                    "the row of \(describe(task)) (task \(task)) belongs to shard \(task % m.shard.count)/\(m.shard.count), not to this shard \(m.shard.description)"
                )
            }
            if current?.task != task { try begin(task, start: start) }
            for c in 2..<columns.count where !rules[c].admits(bytes[fields[c]]) {
                throw fail(
                    line,
                    "column '\(columns[c])': '\(ShardManifestFile.shown(String(decoding: bytes[fields[c]], as: UTF8.self)))' is not \(rules[c].description)"
                )
            }
            // Taken out of `current` so that the dictionary and digest are changed in place, not copied.
            guard var group = current.take() else { return }
            let hash = Self.fnv1a(text)
            if let earlier = group.seen[hash], bytes[earlier.bytes] == text {
                throw fail(line, "repeats line \(earlier.line): a row is duplicated")
            }
            guard group.rows < group.recorded.rows else {
                throw fail(
                    line,
                    "one row more of \(describe(task)) than the \(group.recorded.rows) shard.json records (they begin at line \(group.firstLine)): a row was added"
                )
            }
            if group.seen[hash] == nil { group.seen[hash] = (line, text.startIndex..<text.endIndex) }
            group.digest.update(bytes[start...text.endIndex])
            group.rows += 1
            group.end = text.endIndex + 1
            current = group
        }

        /// FNV-1a, 64 bits (Fowler, Noll and Vo; the offset basis and prime of the reference).
        static func fnv1a(_ bytes: ArraySlice<UInt8>) -> UInt64 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            return h
        }

        /// Closes the current task and opens `task`, whose first row is on `line`.
        mutating func begin(_ task: Int, start: Int) throws(OutputError) {
            if let c = current, task < c.task {
                if let first = firstLines[task] {
                    throw fail(line, "repeats rows of \(describe(task)), which begin at line \(first): rows are duplicated")
                }
                throw fail(line, "the row of \(describe(task)) comes after those of \(describe(c.task)): the rows are out of task order")
            }
            try finish(current, next: task)
            while entry < record.tasks.count, record.tasks[entry].task < task {
                let skipped = record.tasks[entry]
                guard skipped.rows == 0 else {
                    throw fail(
                        line,
                        "found a row of \(describe(task)) where shard.json records the \(skipped.rows) row\(skipped.rows == 1 ? "" : "s") of \(describe(skipped.task)): rows are missing or out of order"
                    )
                }
                entry += 1
            }
            // Every task of this shard has an entry (checked with shard.json), so this holds.
            guard entry < record.tasks.count, record.tasks[entry].task == task else {
                throw fail(line, "shard.json records no rows of \(describe(task))")
            }
            current = Group(task: task, recorded: record.tasks[entry], start: start, end: start, firstLine: line)
            firstLines[task] = line
            entry += 1
        }

        /// Checks that `group` has its recorded rows; `next` is the task that follows (nil at the end of the file).
        mutating func finish(_ group: Group?, next: Int?) throws(OutputError) {
            guard let g = group else { return }
            let last = next == nil ? line : line - 1
            if g.rows < g.recorded.rows {
                let had = "\(describe(g.task)) has \(g.rows) of the \(g.recorded.rows) rows shard.json records (from line \(g.firstLine))"
                if let next {
                    throw fail(line, "found a row of \(describe(next)), but \(had): rows are missing or out of order")
                }
                throw fail(line, "the file ends here, but \(had): rows are missing (the file is truncated)")
            }
            guard g.digest.hexDigest() == g.recorded.sha256 else {
                throw fail(
                    g.firstLine,
                    "the rows of \(describe(g.task)) (lines \(g.firstLine)–\(last)) are not those the shard wrote (their SHA-256 differs from shard.json's): a value was edited or rows were reordered"
                )
            }
            groups.append((g.task, g.start..<g.end))
        }
    }
}
