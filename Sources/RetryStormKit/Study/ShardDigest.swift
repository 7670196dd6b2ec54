/// The SHA-256 digests a shard records in shard.json: of its study, and of each CSV file and the
/// rows of each task in it. Merge recomputes them from what it reads, so an edited, reordered,
/// duplicated or missing row, or a manifest of another study, is refused.
enum ShardDigest {
    /// The digest of the study a manifest describes: version, kind, replications, shard count,
    /// swept parameter paths, points (names and values), scenario text and file name, `--set`
    /// and `--seed` options, and the input files (key, setter, path, size and SHA-256 of each).
    ///
    /// Every field is written as its UTF-8 byte count, `:`, and its bytes, and every list as its
    /// length and `:` before its items, so two different studies never hash the same text.
    /// Version 2 added the input files.
    static func study(_ m: ShardManifest) -> String {
        var text = "retrystorm-study-2\n"
        func field(_ s: String) { text += "\(s.utf8.count):\(s)" }
        func list(_ xs: [String]) {
            text += "\(xs.count):"
            xs.forEach(field)
        }
        field(m.version)
        field(m.kind.rawValue)
        field(String(m.replications))
        field(String(m.shard.count))
        list(m.parameterPaths)
        text += "\(m.points.count):"
        for p in m.points {
            field(p.name)
            list(p.parameters)
        }
        field(m.scenario)
        field(m.scenarioFile)
        list(m.overrides)
        field(m.seed.map { String($0) } ?? "")
        // Added after the first version: only when set, so the digests of studies without one stay.
        if let b = m.baseline { field("baseline:" + b) }
        text += "\(m.inputs.count):"
        for r in m.inputs {
            [r.key, r.from, r.file, String(r.bytes), r.sha256].forEach(field)
        }
        return SHA256.hex(text)
    }

    /// The record of CSV file `name` holding `text`, written by shard `shard` of `study` (rows in
    /// task order, the first two columns `variant,replication`).
    static func file(name: String, text: String, study: Study, shard: Shard) -> ShardManifest.FileDigest {
        let bytes = Array(text.utf8)
        var whole = SHA256()
        whole.update(bytes)
        let headerEnd = bytes.firstIndex(of: newline) ?? bytes.count
        var position = min(headerEnd + 1, bytes.count)
        var tasks: [ShardManifest.FileDigest.TaskRows] = []
        for t in study.tasks(shard: shard) {
            let (p, r) = study.task(t)
            let prefix = Array("\(study.points[p].name),\(r),".utf8)
            var digest = SHA256()
            var rows = 0
            while position < bytes.count, bytes[position...].starts(with: prefix) {
                let end = bytes[position...].firstIndex(of: newline).map { $0 + 1 } ?? bytes.count
                digest.update(bytes[position..<end])
                rows += 1
                position = end
            }
            tasks.append(.init(task: t, rows: rows, sha256: digest.hexDigest()))
        }
        let lines = bytes.reduce(0) { $0 + ($1 == newline ? 1 : 0) }
        return ShardManifest.FileDigest(
            name: name, header: String(decoding: bytes[..<headerEnd], as: UTF8.self),
            rows: max(0, lines - 1), sha256: whole.hexDigest(), tasks: tasks)
    }

    static let newline = UInt8(ascii: "\n")
}
