import Foundation

/// `merge`: puts shard directories back together into exactly the files the unsharded command
/// writes (perf.json aside: it sums the shards' events and wall time).
public enum ShardMerge {
    public struct Outcome: Sendable {
        public var files: [(String, String)]
        public var metrics: MetricTable
        public var manifest: ShardManifest
    }

    /// The CSVs a shard may hold, in writing order; each is merged only if the shards have it.
    static let tables = ["timeseries.csv", "summary.csv", "tts_quantiles.csv"]

    public static func merge(_ directories: [String]) throws(OutputError) -> Outcome {
        guard !directories.isEmpty else { throw OutputError(message: "merge needs the shard directories") }
        var manifests: [ShardManifest] = []
        for d in directories {
            let path = (d as NSString).appendingPathComponent("shard.json")
            guard let data = FileManager.default.contents(atPath: path) else {
                throw OutputError(message: "\(path): cannot read the file (is \(d) a directory written with --shard?)")
            }
            do {
                manifests.append(try JSONDecoder().decode(ShardManifest.self, from: data))
            } catch {
                throw OutputError(message: "\(path): not a shard manifest (\(error))")
            }
        }
        let first = manifests[0]
        for (d, m) in zip(directories, manifests) where !m.sameStudy(as: first) {
            throw OutputError(message: "\(d): belongs to a different study than \(directories[0]) (scenario, options, version or shard count differ)")
        }
        let indices = manifests.map(\.shard.index)
        let missing = (0..<first.shard.count).filter { !indices.contains($0) }
        guard missing.isEmpty else {
            throw OutputError(message: "missing shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(first.shard.count)" }.joined(separator: ", ")) of \(first.shard.count)")
        }
        guard Set(indices).count == indices.count else {
            throw OutputError(message: "a shard is given twice (\(indices.sorted().map(String.init).joined(separator: ", ")))")
        }
        let pointIndex = Dictionary(uniqueKeysWithValues: first.points.enumerated().map { ($1.name, $0) })
        let taskCount = first.points.count * first.replications
        var files: [(String, String)] = []
        var summaryText = ""
        for name in tables {
            let paths = directories.map { ($0 as NSString).appendingPathComponent(name) }
            let present = paths.filter { FileManager.default.fileExists(atPath: $0) }
            if present.isEmpty { continue }
            guard present.count == paths.count else {
                throw OutputError(message: "\(name) is in some shards but not in \(paths.first { !FileManager.default.fileExists(atPath: $0) }!)")
            }
            // Rows of one task are contiguous in its shard; put the tasks back in order.
            var blocks = [[String]](repeating: [], count: taskCount)
            var header = ""
            for path in paths {
                let csv = try CSVFile(path: path)
                header = csv.columns.joined(separator: ",")
                let v = try csv.column("variant"), r = try csv.column("replication")
                for (row, line) in zip(csv.rows, csv.lines) {
                    guard let p = pointIndex[row[v]], let rep = Int(row[r]), rep >= 0, rep < first.replications else {
                        throw OutputError(message: "\(path):\(line): variant '\(row[v])', replication '\(row[r])' is not part of this study")
                    }
                    blocks[p * first.replications + rep].append(row.joined(separator: ","))
                }
            }
            let text = header + "\n" + blocks.joined().map { $0 + "\n" }.joined()
            if name == "summary.csv" {
                let done = blocks.filter { !$0.isEmpty }.count
                guard done == taskCount else {
                    throw OutputError(message: "summary.csv: the shards hold \(done) of \(taskCount) tasks")
                }
                summaryText = text
            }
            files.append((name, text))
        }
        let metrics = try MetricTable(
            names: first.points.map(\.name), parameters: first.points.map(\.parameters),
            parameterPaths: first.parameterPaths, summary: try CSVFile(text: summaryText, path: "summary.csv"))
        if let stats = StudyJob.statisticsFile(first.kind) { files.append((stats, metrics.csv().contents)) }
        do {
            let loaded = try ScenarioLoader.parse(text: first.scenario, path: "scenario.yaml", overrides: first.overrides)
            files.append(("table.txt", StudyReport.text(kind: first.kind, loaded: loaded, metrics: metrics)))
        } catch {
            throw OutputError(message: "the shards' scenario no longer loads: \(error)")
        }
        files.append(("scenario.yaml", first.scenario))
        return Outcome(files: files, metrics: metrics, manifest: first)
    }
}
