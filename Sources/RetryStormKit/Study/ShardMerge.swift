import Foundation

/// `merge`: puts shard directories back together into exactly the files the unsharded command
/// writes (perf.json aside: it sums the shards' events and wall time).
///
/// Merge verifies what it merges, before anything is written: every shard.json is read and its
/// numbers bounded (``ShardManifestFile``); the shards must be 0 … n−1 of one study, each given
/// once; every CSV must be exactly what its shard wrote (``ShardTable``: header, rows, order,
/// values, SHA-256 per task and per file). A refusal is one ``OutputError`` naming the shard's
/// file and line.
public enum ShardMerge {
    public struct Outcome: Sendable {
        public var files: [(String, String)]
        public var metrics: MetricTable
        public var manifest: ShardManifest
        /// The study's scenario, loaded from the manifest with the shards' `--set` and `--seed`
        /// options (the file named as the shards' command named it, without its directory).
        public var loaded: LoadedScenario
    }

    /// Merges the shards in `directories`, reading them against `limits` (``ResultsBudget``):
    /// every shard.json first, then, before any table is read, their sizes are checked against
    /// what is left, and every read stops where the memory left runs out.
    public static func merge(_ directories: [String], limits: MachineLimits = .current) throws(OutputError) -> Outcome {
        guard !directories.isEmpty else { throw OutputError(message: "merge needs the shard directories") }
        var budget = ResultsBudget(limits: limits)
        var shards: [ShardManifestFile] = []
        for d in directories { shards.append(try ShardManifestFile.read(directory: d, budget: &budget)) }
        let first = shards[0]
        for s in shards.dropFirst() { try sameStudy(s, first) }
        let count = first.manifest.shard.count
        var byIndex = [Int: ShardManifestFile]()
        for s in shards {
            let index = s.manifest.shard.index
            if let other = byIndex[index] {
                let same = URL(fileURLWithPath: other.directory).standardizedFileURL == URL(fileURLWithPath: s.directory).standardizedFileURL
                throw s.error("shard.index", same ? "the directory \(s.directory) is given twice"
                                                  : "shard \(s.manifest.shard.description) is given twice (also as \(other.path))")
            }
            byIndex[index] = s
        }
        // Every index is below `count` and none repeats, so any shortfall is a missing index.
        let absent = count - byIndex.count
        guard absent == 0 else {
            let listed = (0..<count).lazy.filter { byIndex[$0] == nil }.prefix(5).map { "\($0)/\(count)" }
            let more = absent > 5 ? ", … (\(absent) in all)" : ""
            throw OutputError(message: "missing shard\(absent == 1 ? "" : "s") \(listed.joined(separator: ", "))\(more) of \(count)")
        }
        let ordered = (0..<count).compactMap { byIndex[$0] }
        let study = first.manifest
        let pointIndex = Dictionary(study.points.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        let taskCount = study.points.count * study.replications
        do {
            try budget.check(ordered.flatMap { s in study.files.indices.map { (ShardTable.path(s, file: $0), ResultsBudget.expansion) } })
        } catch {
            throw OutputError(message: error.message)
        }
        var files: [(String, String)] = []
        for (f, record) in study.files.enumerated() {
            var tables: [ShardTable] = []
            for s in ordered { tables.append(try ShardTable.read(s, file: f, points: pointIndex, budget: &budget)) }
            files.append((record.name, interleave(tables, header: record.header, taskCount: taskCount)))
        }
        let loaded: LoadedScenario
        do {
            // Named as the shards' command named it, so that a scenario without `name:` is named the same.
            loaded = try ScenarioLoader.parse(text: study.scenario, path: study.scenarioFile, overrides: study.overrides, seed: study.seed)
        } catch {
            throw first.error("scenario", "the scenario recorded here does not load: \(error.description.split(separator: "\n").joined(separator: " "))")
        }
        let summary = files.first { $0.0 == "summary.csv" }?.1 ?? ""
        let summaries: [SummaryRecord]
        do { summaries = try ResultsCodec.summaries(summary, file: "summary.csv") } catch {
            throw OutputError(message: "the merged summary.csv does not read back: \(error.message)")
        }
        let metrics = MetricTable(names: study.points.map(\.name), parameters: study.points.map(\.parameters),
                                  parameterPaths: study.parameterPaths, summaries: summaries, baseline: study.baseline)
        if let stats = ResultsCodec.statisticsFile(study.kind) {
            var table = CSVTable(columns: StatisticRecord.columns(parameters: study.parameterPaths, differences: study.baseline != nil))
            for r in metrics.records { table.append(r.fields(differences: study.baseline != nil)) }
            files.append((stats, table.contents))
        }
        files.append(("table.txt", StudyReport.text(kind: study.kind, loaded: loaded, metrics: metrics)))
        // Shards record the command without --shard and --out, which is the unsharded command.
        let command: String?
        do { command = try budget.text(ResultsCodec.file(first.directory, "command.txt"), cap: StudyCommand.maxBytes) } catch {
            throw OutputError(message: error.message)
        }
        if let command { files.append(("command.txt", command)) }
        files.append(("scenario.yaml", study.scenario))
        return Outcome(files: files, metrics: metrics, manifest: study, loaded: loaded)
    }

    /// Refuses `s` unless it describes the same study as `first` (every field but the shard
    /// index), naming the first field that differs.
    static func sameStudy(_ s: ShardManifestFile, _ first: ShardManifestFile) throws(OutputError) {
        let a = s.manifest, b = first.manifest
        let differing: String? =
            a.version != b.version ? "version"
            : a.kind != b.kind ? "kind"
            : a.shard.count != b.shard.count ? "shard.count"
            : a.replications != b.replications ? "replications"
            : a.parameterPaths != b.parameterPaths ? "parameterPaths"
            : a.points != b.points ? "points"
            : a.scenario != b.scenario ? "scenario"
            : a.scenarioFile != b.scenarioFile ? "scenarioFile"
            : a.overrides != b.overrides ? "overrides"
            : a.seed != b.seed ? "seed"
            : a.baseline != b.baseline ? "baseline"
            : a.studySHA256 != b.studySHA256 ? "studySHA256"
            : nil
        if let differing {
            throw s.error(differing, "belongs to another study than \(first.path): its \(differing) differs (the scenario, --set and --seed options, version, points, replications and shard count must all match)")
        }
    }

    /// The header, then the rows of tasks 0 … taskCount−1 in order; `tables[i]` is shard i's
    /// file, holding the tasks `t` with `t mod n = i` in increasing order.
    static func interleave(_ tables: [ShardTable], header: String, taskCount: Int) -> String {
        var out = Array(header.utf8)
        out.append(ShardDigest.newline)
        out.reserveCapacity(tables.reduce(out.count) { $0 + $1.bytes.count })
        var next = [Int](repeating: 0, count: tables.count)
        for t in 0..<taskCount {
            let s = t % tables.count
            guard next[s] < tables[s].groups.count, tables[s].groups[next[s]].task == t else { continue }
            out.append(contentsOf: tables[s].bytes[tables[s].groups[next[s]].rows])
            next[s] += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
