import Foundation
import RetryStormReport

/// `merge`: puts shard directories back together into exactly the files the unsharded command
/// writes (perf.json aside: it sums the shards' events and wall time).
///
/// Merge verifies what it merges, before anything is written: every shard.json is read and its
/// numbers bounded (``ShardManifestFile``); the shards must be 0 … n−1 of one study, each given
/// once; every CSV must be exactly what its shard wrote (``ShardTable``: header, rows, order,
/// values, SHA-256 per task and per file); every input file must have the same SHA-256 in every
/// shard. A refusal is one ``OutputError`` naming the shard's file and line.
///
/// The scenario is loaded from the first shard's directory, from the copies of the input files it
/// keeps (each checked against its SHA-256), never from the files the shards' command named: the
/// merged result does not depend on the working directory or on what those files hold now.
package enum ShardMerge {
    package struct Outcome: Sendable {
        package var files: [(String, String)]
        package var metrics: MetricTable
        package var manifest: ShardManifest
        /// The study's scenario, loaded from the manifest with the shards' `--set` and `--seed`
        /// options (the file named as the shards' command named it, without its directory) and
        /// the input files' copies in the first shard (``LoadedScenario/inputs`` holds them all).
        package var loaded: LoadedScenario
    }

    /// Merges the shards in `directories`, reading them against `limits` (``ResultsBudget``):
    /// every shard.json first, then, before any table is read, their sizes are checked against
    /// what is left, and every read stops where the memory left runs out.
    package static func merge(_ directories: [String], limits: MachineLimits = .current) throws(OutputError) -> Outcome {
        guard !directories.isEmpty else { throw OutputError(message: "merge needs the shard directories") }
        var budget = ResultsBudget(limits: limits)
        var shards: [ShardManifestFile] = []
        for d in directories { shards.append(try ShardManifestFile.read(directory: d, budget: &budget)) }
        let first = shards[0]
        for s in shards.dropFirst() {
            try sameInputs(s, first)
            try sameStudy(s, first)
        }
        let count = first.manifest.shard.count
        var byIndex = [Int: ShardManifestFile]()
        for s in shards {
            let index = s.manifest.shard.index
            if let other = byIndex[index] {
                let same = URL(fileURLWithPath: other.directory).standardizedFileURL == URL(fileURLWithPath: s.directory).standardizedFileURL
                throw s.error(
                    "shard.index",
                    same
                        ? "the directory \(s.directory) is given twice"
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
            // From the first shard's copies of the input files, which its scenario text names.
            let inputs = InputFiles(copiesIn: first.directory, records: study.inputs, listedIn: first.path)
            try inputs.readAllCopies()
            // Named as the shards' command named it, so that a scenario without `name:` is named the same.
            loaded = try ScenarioLoader.parse(
                text: study.scenario, path: (first.directory as NSString).appendingPathComponent(study.scenarioFile),
                overrides: study.overrides, seed: study.seed, inputs: inputs)
        } catch {
            throw first.error(
                "scenario", "the scenario recorded here does not load: \(error.description.split(separator: "\n").joined(separator: " "))")
        }
        let summary = files.first { $0.0 == "summary.csv" }?.1 ?? ""
        let summaries: [SummaryRecord]
        do { summaries = try ResultsCodec.summaries(summary, file: "summary.csv") } catch {
            throw OutputError(message: "the merged summary.csv does not read back: \(error.message)")
        }
        // populations.csv's rows too: gates, constraints and objectives may name a population.
        var populations: [PopulationRecord] = []
        if let text = files.first(where: { $0.0 == "populations.csv" })?.1 {
            do { populations = try ResultsCodec.populations(text, file: "populations.csv") } catch {
                throw OutputError(message: "the merged populations.csv does not read back: \(error.message)")
            }
        }
        // And services.csv's: gates and constraints may name a service of a call graph.
        var services: [ServiceRecord] = []
        if let text = files.first(where: { $0.0 == "services.csv" })?.1 {
            do { services = try ResultsCodec.services(text, file: "services.csv") } catch {
                throw OutputError(message: "the merged services.csv does not read back: \(error.message)")
            }
        }
        // Shards record the command without --shard and --out, which is the unsharded command.
        let command: String?
        do { command = try budget.text(ResultsCodec.file(first.directory, "command.txt"), cap: StudyCommand.maxBytes) } catch {
            throw OutputError(message: error.message)
        }
        var metrics = MetricTable(
            names: study.points.map(\.name), parameters: study.points.map(\.parameters),
            parameterPaths: study.parameterPaths, summaries: summaries, populations: populations, services: services,
            baseline: study.baseline)
        metrics.focus(on: loaded.base.focus)
        // The verdicts of table.txt count "clearly" as the command that ran said.
        metrics.minimumDifference = command.flatMap { StudyCommand(line: $0) }?.minimumDifference ?? .standard
        if let stats = ResultsCodec.statisticsFile(study.kind) {
            var table = CSVTable(columns: StatisticRecord.columns(parameters: study.parameterPaths, differences: study.baseline != nil))
            for r in metrics.records { table.append(r.fields(differences: study.baseline != nil)) }
            files.append((stats, table.contents))
        }
        if study.kind == .sweep, let i = files.firstIndex(where: { $0.0 == "timeseries.csv" }) {
            files[i].1 = try firstPoints(files[i].1, metrics: metrics, loaded: loaded)
        }
        files.append(("table.txt", StudyReport.text(kind: study.kind, loaded: loaded, metrics: metrics)))
        if let command { files.append(("command.txt", command)) }
        files.append(("scenario.yaml", study.scenario))
        return Outcome(files: files, metrics: metrics, manifest: study, loaded: loaded)
    }

    /// The merged timeseries.csv cut to what the unsharded sweep writes: its first two points by
    /// the sweep's objective (``MetricTable/sweepOrder(_:)``), in that order, each by replication.
    static func firstPoints(_ text: String, metrics: MetricTable, loaded: LoadedScenario) throws(OutputError) -> String {
        let records: [TimeSeriesRecord]
        do { records = try ResultsCodec.timeSeries(text, file: "timeseries.csv") } catch {
            throw OutputError(message: "the merged timeseries.csv does not read back: \(error.message)")
        }
        let first = metrics.sweepOrder(MetricTable.sweepObjective(loaded.objective?.value)).prefix(2).map { metrics.names[$0] }
        let kept = first.flatMap { name in records.filter { $0.variant == name }.sorted { $0.replication < $1.replication } }
        return ResultsCodec.timeSeriesText(kept)
    }

    /// Refuses an `--out` that is one of the shard `directories`, lies inside one, or holds one:
    /// writing the merged results there would replace or change a shard being merged. Compares
    /// where the paths really lead (symlinks and `..` resolved by the file system), `out` as
    /// ``OutputDirectory`` will create it. Call before anything is read or written.
    package static func checkOut(_ out: String, directories: [String]) throws(OutputError) {
        let target = realPath(ofOutput: out)
        for d in directories {
            guard let shard = realPath(d) else { continue }
            let relation =
                target == shard
                ? "is the shard directory"
                : target.hasPrefix(shard == "/" ? "/" : shard + "/")
                    ? "is inside the shard directory"
                    : shard.hasPrefix(target == "/" ? "/" : target + "/")
                        ? "holds the shard directory"
                        : nil
            if let relation {
                throw OutputError(message: "--out \(out) \(relation) \(d): merge never writes into its own input; choose another --out")
            }
        }
    }

    /// The real path of an existing file (`realpath(3)`), nil when there is none.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Where output directory `path` really is: its lexically standardized absolute path (as
    /// ``OutputDirectory`` takes it), with the part that exists resolved by ``realPath(_:)``.
    static func realPath(ofOutput path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL
        var missing: [String] = []
        while realPath(existing.path) == nil && existing.path != "/" {
            missing.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        var out = realPath(existing.path) ?? existing.path
        for m in missing { out = out == "/" ? "/" + m : out + "/" + m }
        return out
    }

    /// Refuses `s` when an input file that `first` also read has another SHA-256 there: the
    /// shards were computed from different contents of one file (a `load.csv` edited between
    /// jobs, or another file at the same path on another host). Names the key, the file, both
    /// hashes and the line of the input in `s`.
    static func sameInputs(_ s: ShardManifestFile, _ first: ShardManifestFile) throws(OutputError) {
        for (k, r) in s.manifest.inputs.enumerated() {
            guard let other = first.manifest.inputs.first(where: { $0.key == r.key && $0.from == r.from && $0.file == r.file }),
                other.sha256 != r.sha256
            else { continue }
            let setBy = r.from == InputRecord.scenario ? "set in the scenario" : "set by \(r.from)"
            throw s.error(
                "inputs[\(k)]",
                "\(r.key) (\(ShardManifestFile.shown(r.file)), \(setBy)) has SHA-256 \(r.sha256) here but \(other.sha256) in \(first.path): the shards read different contents of the file; run every shard on the same inputs"
            )
        }
    }

    /// Refuses `s` unless it describes the same study as `first` (every field but the shard
    /// index), naming the first field that differs.
    static func sameStudy(_ s: ShardManifestFile, _ first: ShardManifestFile) throws(OutputError) {
        let a = s.manifest
        let b = first.manifest
        // In the manifest's order, so the message names the first field that differs.
        let fields: [(name: String, differs: Bool)] = [
            ("version", a.version != b.version), ("kind", a.kind != b.kind), ("shard.count", a.shard.count != b.shard.count),
            ("replications", a.replications != b.replications), ("parameterPaths", a.parameterPaths != b.parameterPaths),
            ("points", a.points != b.points), ("scenario", a.scenario != b.scenario), ("scenarioFile", a.scenarioFile != b.scenarioFile),
            ("overrides", a.overrides != b.overrides), ("seed", a.seed != b.seed), ("baseline", a.baseline != b.baseline),
            ("inputs", a.inputs != b.inputs), ("studySHA256", a.studySHA256 != b.studySHA256)
        ]
        let differing = fields.first(where: \.differs)?.name
        if let differing {
            throw s.error(
                differing,
                "belongs to another study than \(first.path): its \(differing) differs (the scenario, its input files, --set and --seed options, version, points, replications and shard count must all match)"
            )
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
