import Foundation

/// `shard.json`: what a shard directory holds, so that `merge` can check the shards belong
/// together, that every file is exactly as the shard wrote it, and put the rows back in task order.
///
/// ```json
/// {
///   "files" : [ { "header" : "variant,replication,…", "name" : "summary.csv", "rows" : 2,
///                 "sha256" : "…", "tasks" : [ { "rows" : 1, "sha256" : "…", "task" : 0 }, … ] } ],
///   "kind" : "compare", "overrides" : [], "parameterPaths" : [],
///   "points" : [ { "name" : "base", "parameters" : [] } ], "replications" : 3,
///   "inputs" : [ { "bytes" : 27, "copy" : "input-load-csv-5d8f3c1e0b2a4f6d.csv", "file" : "traffic.csv",
///                  "from" : "scenario", "key" : "load.csv", "sha256" : "5d8f3c1e0b2a4f6d…" } ],
///   "scenario" : "…", "scenarioFile" : "my.yaml", "seed" : 7, "shard" : { "count" : 3, "index" : 0 },
///   "studySHA256" : "…", "version" : "0.1.0"
/// }
/// ```
package struct ShardManifest: Codable, Sendable, Equatable {
    package struct PointInfo: Codable, Sendable, Equatable {
        package var name: String
        package var parameters: [String]
    }

    /// One CSV file of the shard as written: its header line, how many data rows follow it, and
    /// SHA-256 digests (lowercase hex) of the whole file and of every task's rows.
    package struct FileDigest: Codable, Sendable, Equatable {
        /// The rows of one task: contiguous in the file, each with its line break; a task may
        /// have none (no operation succeeded, so no time-to-success quantiles).
        package struct TaskRows: Codable, Sendable, Equatable {
            package var task: Int
            package var rows: Int
            package var sha256: String
        }

        package var name: String
        /// The first line, without its line break.
        package var header: String
        /// Data rows (lines after the header).
        package var rows: Int
        /// Of every byte of the file.
        package var sha256: String
        /// Every task of the shard, in task order, including those with no rows in this file.
        package var tasks: [TaskRows]
    }

    package var version: String
    package var kind: Study.Kind
    package var shard: Shard
    package var replications: Int
    package var parameterPaths: [String]
    package var points: [PointInfo]
    /// The scenario text the shard keeps as scenario.yaml (``LoadedScenario/resultsText``: input
    /// files named by their copies), which every shard must share.
    package var scenario: String
    /// The scenario file's name without its directory: a scenario without `name:` is named after
    /// it, so merge needs it to print what the unsharded command prints.
    package var scenarioFile: String
    /// The `--set` options, in order.
    package var overrides: [String]
    /// The `--seed` option, when one was given (it overrides the scenario's `seed:`).
    package var seed: UInt64?
    /// The point compare.csv's differences are from (compare only).
    package var baseline: String?
    /// Every input file the shard read (``InputFiles/records``: what the scenario and the options
    /// named, with the SHA-256 of the bytes parsed), ordered by key, setter and path; the shard
    /// directory keeps a copy of each. Merge refuses shards whose inputs differ and reads the
    /// copies, never the files.
    package var inputs: [InputRecord]
    /// The CSV files, in writing order.
    package var files: [FileDigest]
    /// ``ShardDigest/study(_:)`` of the fields above but `shard.index` and `files`: shards of
    /// one study have the same. (`seed` is left out of the JSON when no `--seed` was given.)
    package var studySHA256: String

    /// The CSV files a shard of `kind` writes, in writing order (sweeps keep summaries only); a
    /// scenario with `populations:` adds populations.csv and, beside time series,
    /// timeseries_populations.csv; a call graph (`services:`) services.csv, edges.csv and, beside
    /// time series, timeseries_services.csv.
    static func fileNames(_ kind: Study.Kind, populations: Bool = false, services: Bool = false) -> [String] {
        let series = kind == .run || kind == .compare
        // A sweep's shard keeps every task's time series: merge keeps its first two points'.
        var names =
            series ? ["timeseries.csv", "summary.csv", "tts_quantiles.csv"] : kind == .sweep ? ["timeseries.csv", "summary.csv"] : ["summary.csv"]
        if populations { names += series ? ["populations.csv", "timeseries_populations.csv"] : ["populations.csv"] }
        if services { names += series ? ["services.csv", "edges.csv", "timeseries_services.csv"] : ["services.csv", "edges.csv"] }
        return names
    }

    /// The header a CSV file of this version has.
    static func columns(_ file: String) -> [String] {
        switch file {
        case "timeseries.csv": TimeSeriesRecord.columnNames
        case "tts_quantiles.csv": QuantileRecord.columnNames
        case "populations.csv": PopulationRecord.columns
        case "timeseries_populations.csv": PopulationSeriesRecord.columns
        case "services.csv": ServiceRecord.columns
        case "edges.csv": EdgeRecord.columns
        case "timeseries_services.csv": ServiceSeriesRecord.columnNames
        default: SummaryRecord.columns
        }
    }

    /// How many of `taskCount` tasks fall to this shard (tasks `index`, `index + count`, …).
    static func taskCount(of shard: Shard, in taskCount: Int) -> Int {
        taskCount > shard.index ? (taskCount - 1 - shard.index) / shard.count + 1 : 0
    }

    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Encoding plain values cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }
}

extension ShardManifest {
    /// The manifest of shard `shard` of `study`, loaded from `loaded` with the `--set` options
    /// `overrides`, whose CSV files (name, contents) are `tables`.
    package init(study: Study, shard: Shard, loaded: LoadedScenario, overrides: [String], tables: [(String, String)]) {
        version = RetryStormVersion.current
        kind = study.kind
        self.shard = shard
        replications = study.replications
        parameterPaths = study.parameterPaths
        points = study.points.map { PointInfo(name: $0.name, parameters: $0.parameters) }
        scenario = loaded.resultsText
        scenarioFile = (loaded.path as NSString).lastPathComponent
        self.overrides = overrides
        seed = loaded.overrideEntries.last { $0.location.origin == .option("--seed") }.flatMap { UInt64($0.text) }
        baseline = study.baseline
        inputs = loaded.inputs.records
        files = tables.map { ShardDigest.file(name: $0.0, text: $0.1, study: study, shard: shard) }
        studySHA256 = ""
        studySHA256 = ShardDigest.study(self)
    }
}
