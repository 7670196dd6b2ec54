import Foundation

/// A shard directory's shard.json, read back and checked before merge uses any of its numbers:
/// every field present with its type and nothing else, counts within bounds, the lists consistent
/// with one another, and the study digest matching the fields. Messages name
/// `DIRECTORY/shard.json:LINE`, the directory spelled as the user gave it.
struct ShardManifestFile: Sendable {
    /// The shard directory as given.
    let directory: String
    /// `directory/shard.json`.
    let path: String
    let manifest: ShardManifest
    /// The line of each field, by the name messages use: `replications`, `shard.index`,
    /// `points[3]`, `files[1].tasks[4].rows`.
    private let lines: [String: Int]

    /// Bounds on the manifest's numbers: those the command line accepts (`--shard i/n` with
    /// n ≤ 100000, `--replications` ≤ 100000, three swept parameters), and a million points, so
    /// that nothing sized from them can exhaust memory or overflow.
    static let maxShards = 100_000
    static let maxReplications = 100_000
    static let maxPoints = 1_000_000
    static let maxParameters = 3
    /// Input files of one study: every file key set by the scenario and its variants, and by
    /// every value of up to three swept or varied keys.
    static let maxInputs = 100_000
    /// More rows than any simulation writes into one file, and far from overflowing a sum.
    static let maxRows = 1_000_000_000_000

    /// The line of `field` (1 when unknown).
    func line(_ field: String) -> Int { lines[field] ?? 1 }

    /// A refusal naming `path:line-of-field`.
    func error(_ field: String, _ message: String) -> OutputError {
        OutputError(message: "\(path):\(line(field)): \(message)")
    }

    /// The most bytes of shard.json read (its reader's cap). It lists, per file and task of the
    /// shard, the task's rows and their SHA-256: about 150 bytes per task and file, so 1 GiB is
    /// a shard of about 1.4 million tasks with five files. A larger study is cut into more shards.
    static let maxBytes = 1 << 30

    /// Reads and checks `directory/shard.json`, charging it to `budget`.
    /// - Throws: ``OutputError`` naming the file and line of the first problem.
    static func read(directory: String, budget: inout ResultsBudget) throws(OutputError) -> ShardManifestFile {
        let path = (directory as NSString).appendingPathComponent("shard.json")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw OutputError(message: "\(directory): no such directory (merge takes the directories written with --shard)")
        }
        let read: [UInt8]?
        do { read = try budget.read(path, cap: maxBytes, expansion: ResultsBudget.jsonExpansion) } catch {
            throw OutputError(message: error.message)
        }
        guard let data = read else {
            throw OutputError(message: "\(path): cannot read the file (is \(directory) a directory written with --shard?)")
        }
        let root: LocatedJSON
        do {
            root = try LocatedJSON.parse(data)
        } catch {
            throw OutputError(message: "\(path):\(error.line): not a shard manifest: \(error.message)")
        }
        var reader = Reader(path: path)
        if case .object(let members) = root.value, !members.contains(where: { $0.key == "studySHA256" }),
            members.contains(where: { $0.key == "scenario" })
        {
            throw OutputError(
                message: "\(path):1: written by an older retrystorm (no digests of its rows and study); re-run the shard with this version")
        }
        if case .object(let members) = root.value, !members.contains(where: { $0.key == "inputs" }),
            members.contains(where: { $0.key == "studySHA256" })
        {
            throw OutputError(message: "\(path):1: written by an older retrystorm (no hashes of its input files); re-run the shard with this version")
        }
        let manifest = try reader.manifest(root)
        // What it says is sound; how it says it must be too: the bytes this version writes for
        // it, so that no edit (a stray byte between fields, an escaped letter) passes unnoticed.
        // Compared as bytes: String equality would take one Unicode spelling for another.
        let canonical = Array(manifest.json.utf8)
        let found = data
        if canonical != found {
            let same = zip(canonical, found).prefix { $0.0 == $0.1 }.count
            let line = 1 + found[..<same].reduce(0) { $0 + ($1 == ShardDigest.newline ? 1 : 0) }
            throw OutputError(message: "\(path):\(line): is not as retrystorm writes this line (shard.json was edited)")
        }
        return ShardManifestFile(directory: directory, path: path, manifest: manifest, lines: reader.lines)
    }

    /// A string from a file, for a one-line message: at most 60 characters, control characters
    /// escaped.
    static func shown(_ s: some StringProtocol) -> String {
        var out = ""
        for scalar in s.unicodeScalars.prefix(60) {
            out += scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return s.unicodeScalars.count > 60 ? out + "…" : out
    }

    /// Whether `s` can stand unquoted in a CSV field and a one-line message: not empty, at most
    /// `limit` bytes, no comma, quote or control character.
    static func isCSVSafe(_ s: String, limit: Int = 1000) -> Bool {
        !s.isEmpty && s.utf8.count <= limit && s.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && $0 != "," && $0 != "\"" }
    }

    static func isDigest(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Turns the JSON tree into a manifest, recording lines and refusing what retrystorm does not write.
    private struct Reader {
        let path: String
        var lines: [String: Int] = [:]

        func fail(_ line: Int, _ message: String) -> OutputError { OutputError(message: "\(path):\(line): \(message)") }

        func fail(_ field: String, _ message: String) -> OutputError { fail(lines[field] ?? 1, message) }

        /// The members of object `v` (named `field`), which must be exactly `keys`.
        mutating func object(_ v: LocatedJSON?, _ field: String, keys: [String], optional: [String] = []) throws(OutputError) -> [String: LocatedJSON]
        {
            guard let v, case .object(let members) = v.value else {
                throw fail(field, "'\(field.isEmpty ? "the manifest" : field)' must be an object (got \(v?.kindName ?? "nothing"))")
            }
            var out: [String: LocatedJSON] = [:]
            for m in members {
                let name = field.isEmpty ? m.key : "\(field).\(m.key)"
                guard keys.contains(m.key) || optional.contains(m.key) else {
                    throw fail(m.value.line, "unknown field '\(ShardManifestFile.shown(name))'")
                }
                out[m.key] = m.value
                lines[name] = m.value.line
            }
            for k in keys where out[k] == nil {
                throw fail(v.line, "'\(field.isEmpty ? k : "\(field).\(k)")' is missing")
            }
            return out
        }

        func string(_ v: LocatedJSON?, _ field: String) throws(OutputError) -> String {
            guard let v, case .string(let s) = v.value else { throw fail(field, "'\(field)' must be a string (got \(v?.kindName ?? "nothing"))") }
            return s
        }

        func array(_ v: LocatedJSON?, _ field: String) throws(OutputError) -> [LocatedJSON] {
            guard let v, case .array(let a) = v.value else { throw fail(field, "'\(field)' must be a list (got \(v?.kindName ?? "nothing"))") }
            return a
        }

        /// A whole number in `range`; fractions, exponents and overflowing numbers are refused
        /// by `Int`'s checked parse, never converted through a Double.
        func int(_ v: LocatedJSON?, _ field: String, _ range: ClosedRange<Int>) throws(OutputError) -> Int {
            let bounds = "a whole number from \(range.lowerBound) to \(range.upperBound)"
            guard let v, case .number(let text) = v.value else { throw fail(field, "'\(field)' must be \(bounds) (got \(v?.kindName ?? "nothing"))") }
            guard let n = Int(text), range.contains(n) else {
                throw fail(field, "'\(field)' must be \(bounds) (got \(ShardManifestFile.shown(text)))")
            }
            return n
        }

        mutating func strings(_ v: LocatedJSON?, _ field: String, max: Int) throws(OutputError) -> [String] {
            let items = try array(v, field)
            guard items.count <= max else { throw fail(field, "'\(field)' has \(items.count) items; at most \(max) are possible") }
            var out: [String] = []
            for (k, item) in items.enumerated() {
                lines["\(field)[\(k)]"] = item.line
                out.append(try string(item, "\(field)[\(k)]"))
            }
            return out
        }

        mutating func manifest(_ root: LocatedJSON) throws(OutputError) -> ShardManifest {
            let top = try object(
                root, "",
                keys: [
                    "files", "inputs", "kind", "overrides", "parameterPaths", "points", "replications",
                    "scenario", "scenarioFile", "shard", "studySHA256", "version"
                ], optional: ["seed", "baseline"])
            let version = try string(top["version"], "version")
            guard version == RetryStormVersion.current else {
                throw fail(
                    "version",
                    "written by retrystorm \(ShardManifestFile.shown(version)), this is \(RetryStormVersion.current): re-run the shard with this version"
                )
            }
            let kindText = try string(top["kind"], "kind")
            guard let kind = Study.Kind(rawValue: kindText), kind != .tune else {
                let tune = kindText == "tune" ? " (tune cannot be sharded)" : ""
                throw fail("kind", "'kind' is '\(ShardManifestFile.shown(kindText))'\(tune); a shard's kind is run, compare or sweep")
            }
            let shardObject = try object(top["shard"], "shard", keys: ["count", "index"])
            let count = try int(shardObject["count"], "shard.count", 1...ShardManifestFile.maxShards)
            let index = try int(shardObject["index"], "shard.index", 0...ShardManifestFile.maxShards)
            guard index < count else {
                throw fail("shard.index", "'shard.index' is \(index), but a shard of \(count) has an index from 0 to \(count - 1)")
            }
            let replications = try int(top["replications"], "replications", 1...ShardManifestFile.maxReplications)
            let paths = try strings(top["parameterPaths"], "parameterPaths", max: ShardManifestFile.maxParameters)
            let swept = kind == .sweep ? 1...ShardManifestFile.maxParameters : 0...0
            guard swept.contains(paths.count) else {
                throw fail(
                    "parameterPaths",
                    "a \(kind.rawValue) shard has \(swept.lowerBound == 0 ? "no" : "one to three") swept parameters (got \(paths.count))")
            }
            for (k, p) in paths.enumerated() {
                guard ShardManifestFile.isCSVSafe(p, limit: 200), !paths[..<k].contains(p) else {
                    throw fail(
                        "parameterPaths[\(k)]",
                        "'parameterPaths[\(k)]' is not a parameter path (empty, repeated, or holding a comma, quote or control character)")
                }
            }
            let points = try self.points(top["points"], kind: kind, parameters: paths.count)
            let scenario = try string(top["scenario"], "scenario")
            let scenarioFile = try string(top["scenarioFile"], "scenarioFile")
            guard ShardManifestFile.isCSVSafe(scenarioFile, limit: 255), !scenarioFile.contains("/") else {
                throw fail("scenarioFile", "'scenarioFile' must be a file name (no directory, no control character)")
            }
            let overrides = try strings(top["overrides"], "overrides", max: 100_000)
            var seed: UInt64?
            if let v = top["seed"] {
                guard case .number(let text) = v.value, let n = UInt64(text) else {
                    throw fail("seed", "'seed' must be a whole number from 0 to \(UInt64.max) (got \(v.kindName))")
                }
                seed = n
            }
            var baseline: String?
            if let v = top["baseline"] {
                let name = try string(v, "baseline")
                guard points.contains(where: { $0.name == name }) else { throw fail("baseline", "'baseline' names no point of the study") }
                baseline = name
            }
            let inputs = try self.inputs(top["inputs"])
            let study = try string(top["studySHA256"], "studySHA256")
            guard ShardManifestFile.isDigest(study) else { throw fail("studySHA256", "'studySHA256' must be 64 lowercase hexadecimal digits") }
            let shard = Shard(index: index, count: count)
            let tasks = ShardManifest.taskCount(of: shard, in: points.count * replications)
            let files = try self.files(top["files"], kind: kind, shard: shard, tasks: tasks)
            let manifest = ShardManifest(
                version: version, kind: kind, shard: shard, replications: replications, parameterPaths: paths,
                points: points, scenario: scenario, scenarioFile: scenarioFile, overrides: overrides, seed: seed, baseline: baseline,
                inputs: inputs, files: files, studySHA256: study)
            guard ShardDigest.study(manifest) == study else {
                throw fail("studySHA256", "the study's digest does not match the study this file describes (shard.json was edited)")
            }
            return manifest
        }

        /// The input files: each a file key, its setter, a path, a size a curve file can have,
        /// a digest and the copy's name that digest gives; in order, none twice.
        mutating func inputs(_ v: LocatedJSON?) throws(OutputError) -> [InputRecord] {
            let items = try array(v, "inputs")
            guard items.count <= ShardManifestFile.maxInputs else {
                throw fail("inputs", "'inputs' has \(items.count) files; at most \(ShardManifestFile.maxInputs) are possible")
            }
            var out: [InputRecord] = []
            for (k, item) in items.enumerated() {
                let field = "inputs[\(k)]"
                lines[field] = item.line
                let o = try object(item, field, keys: ["bytes", "copy", "file", "from", "key", "sha256"])
                let key = try string(o["key"], "\(field).key")
                guard case .file? = LoadedScenario.kind(of: key) else {
                    throw fail("\(field).key", "'\(field).key' is '\(ShardManifestFile.shown(key))', which is not a scenario key naming a file")
                }
                let from = try string(o["from"], "\(field).from")
                guard from == InputRecord.scenario || ["--set", "--vary", "--grid"].contains(from) else {
                    throw fail("\(field).from", "'\(field).from' must be scenario, --set, --vary or --grid (got '\(ShardManifestFile.shown(from))')")
                }
                let file = try string(o["file"], "\(field).file")
                guard !file.isEmpty, file.utf8.count <= 4096, !file.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    throw fail("\(field).file", "'\(field).file' must be a path (not empty, no control character)")
                }
                let bytes = try int(o["bytes"], "\(field).bytes", 0...InputRecord.maxBytes)
                let sha = try string(o["sha256"], "\(field).sha256")
                guard ShardManifestFile.isDigest(sha) else {
                    throw fail("\(field).sha256", "'\(field).sha256' must be 64 lowercase hexadecimal digits")
                }
                let record = InputRecord(key: key, from: from, file: file, sha256: sha, bytes: bytes)
                let copy = try string(o["copy"], "\(field).copy")
                guard copy == record.copy else {
                    throw fail(
                        "\(field).copy", "'\(field).copy' is '\(ShardManifestFile.shown(copy))', but its key and SHA-256 name the copy \(record.copy)"
                    )
                }
                if let last = out.last, (last.key, last.from, last.file) >= (key, from, file) {
                    throw fail(
                        field, "'\(field)' is out of order or repeats '\(ShardManifestFile.shown(file))': inputs are ordered by key, from and file")
                }
                out.append(record)
            }
            return out
        }

        mutating func points(_ v: LocatedJSON?, kind: Study.Kind, parameters: Int) throws(OutputError) -> [ShardManifest.PointInfo] {
            let items = try array(v, "points")
            let allowed = kind == .run ? 1...1 : 1...ShardManifestFile.maxPoints
            guard allowed.contains(items.count) else {
                throw fail(
                    "points",
                    "a \(kind.rawValue) shard has \(allowed.upperBound == 1 ? "one point" : "1 to \(allowed.upperBound) points") (got \(items.count))"
                )
            }
            var out: [ShardManifest.PointInfo] = []
            var names = Set<String>()
            for (k, item) in items.enumerated() {
                let field = "points[\(k)]"
                lines[field] = item.line
                let o = try object(item, field, keys: ["name", "parameters"])
                let name = try string(o["name"], "\(field).name")
                guard ShardManifestFile.isCSVSafe(name, limit: 1000) else {
                    throw fail("\(field).name", "'\(field).name' is not a variant name (empty, or holding a comma, quote or control character)")
                }
                guard names.insert(name).inserted else { throw fail("\(field).name", "the point name '\(name)' appears twice") }
                let values = try strings(o["parameters"], "\(field).parameters", max: ShardManifestFile.maxParameters)
                guard values.count == parameters, values.allSatisfy({ ShardManifestFile.isCSVSafe($0, limit: 200) }) else {
                    throw fail(
                        "\(field).parameters",
                        "'\(field).parameters' must hold one value per swept parameter (\(parameters)), each without a comma, quote or control character"
                    )
                }
                out.append(.init(name: name, parameters: values))
            }
            return out
        }

        mutating func files(_ v: LocatedJSON?, kind: Study.Kind, shard: Shard, tasks: Int) throws(OutputError) -> [ShardManifest.FileDigest] {
            let items = try array(v, "files")
            // Which list applies shows in the count (the scenario's populations and services add
            // their files) and, where populations and services add as many, in the first name they add.
            let plain = ShardManifest.fileNames(kind)
            let withPopulations = ShardManifest.fileNames(kind, populations: true)
            let withServices = ShardManifest.fileNames(kind, services: true)
            let lists = [plain, withPopulations, withServices, ShardManifest.fileNames(kind, populations: true, services: true)]
            guard var names = lists.first(where: { $0.count == items.count }) else {
                throw fail(
                    "files",
                    "a \(kind.rawValue) shard has \(plain.joined(separator: ", ")), and with populations \(withPopulations.dropFirst(plain.count).joined(separator: ", ")) too, with services \(withServices.dropFirst(plain.count).joined(separator: ", ")) (got \(items.count) files)"
                )
            }
            var out: [ShardManifest.FileDigest] = []
            for (f, item) in items.enumerated() {
                let field = "files[\(f)]"
                lines[field] = item.line
                let o = try object(item, field, keys: ["header", "name", "rows", "sha256", "tasks"])
                let name = try string(o["name"], "\(field).name")
                if name != names[f], let other = lists.first(where: { $0.count == names.count && $0[..<f] == names[..<f] && $0[f] == name }) {
                    names = other
                }
                guard name == names[f] else {
                    throw fail(
                        "\(field).name",
                        "'\(field).name' is '\(ShardManifestFile.shown(name))'; a \(kind.rawValue) shard has \(names.joined(separator: ", ")), in that order"
                    )
                }
                let header = try string(o["header"], "\(field).header")
                guard header == ShardManifest.columns(name).joined(separator: ",") else {
                    throw fail("\(field).header", "'\(field).header' is not the header retrystorm \(RetryStormVersion.current) writes in \(name)")
                }
                let rows = try int(o["rows"], "\(field).rows", 0...ShardManifestFile.maxRows)
                let digest = try string(o["sha256"], "\(field).sha256")
                guard ShardManifestFile.isDigest(digest) else {
                    throw fail("\(field).sha256", "'\(field).sha256' must be 64 lowercase hexadecimal digits")
                }
                let entries = try array(o["tasks"], "\(field).tasks")
                guard entries.count == tasks else {
                    throw fail(
                        "\(field).tasks", "'\(field).tasks' lists \(entries.count) tasks, but shard \(shard.description) of this study has \(tasks)")
                }
                var records: [ShardManifest.FileDigest.TaskRows] = []
                records.reserveCapacity(entries.count)
                var total = 0
                for (k, entry) in entries.enumerated() {
                    let at = "\(field).tasks[\(k)]"
                    lines[at] = entry.line
                    let e = try object(entry, at, keys: ["rows", "sha256", "task"])
                    let expected = shard.index + k * shard.count
                    let task = try int(e["task"], "\(at).task", 0...Int.max)
                    guard task == expected else {
                        throw fail(
                            "\(at).task",
                            "'\(at).task' is \(task); the tasks of shard \(shard.description) are \(shard.index), \(shard.index + shard.count), … so this one is \(expected)"
                        )
                    }
                    let range = name == "summary.csv" ? 1...1 : 0...ShardManifestFile.maxRows
                    let n = try int(e["rows"], "\(at).rows", range)
                    let sha = try string(e["sha256"], "\(at).sha256")
                    guard ShardManifestFile.isDigest(sha) else {
                        throw fail("\(at).sha256", "'\(at).sha256' must be 64 lowercase hexadecimal digits")
                    }
                    total += n
                    guard total <= rows else {
                        throw fail("\(at).rows", "the tasks' rows add up to more than the \(rows) rows '\(field).rows' records")
                    }
                    records.append(.init(task: task, rows: n, sha256: sha))
                }
                guard total == rows else {
                    throw fail("\(field).rows", "'\(field).rows' is \(rows), but its tasks' rows add up to \(total)")
                }
                out.append(.init(name: name, header: header, rows: rows, sha256: digest, tasks: records))
            }
            return out
        }
    }
}
