import Foundation
import RetryStormVocabulary

/// Writes ``StudyResults`` as a result directory's files and reads them back, with one error type
/// (``ResultsError``) that names the file, the line and the column. The column lists come from the
/// record types (``SummaryRecord/metrics``, ``TimeSeriesRecord/columns``, …), whose names are
/// declared once (``Metric``, ``TimeSeriesColumn``).
///
/// Reading accepts what a spreadsheet may do to a file (quoted fields, `\r\n` line ends, blank
/// lines, columns in another order, extra columns), and refuses what would change a value: a
/// missing column, a field that is not a number in its column's format.
package enum ResultsCodec {
    /// The files, in writing order: (name, contents).
    package static func encode(_ r: StudyResults, jobs: Int = 1) -> [(String, String)] {
        var files: [(String, String)] = []
        // A tune keeps the time series of its recommendation and runner-up, a sweep of its first two
        // points, for the over-time charts.
        if r.kind == .run || r.kind == .compare || (r.kind != .run && !r.timeSeries.isEmpty) {
            files.append(("timeseries.csv", joined(r.timeSeries, columns: TimeSeriesRecord.columnNames, jobs: jobs) { $0.append(to: &$1) }))
        }
        files.append(("summary.csv", joined(r.summaries, columns: SummaryRecord.columns, jobs: jobs) { $1.append($0.fields) }))
        if r.kind == .run || r.kind == .compare {
            files.append(("tts_quantiles.csv", joined(r.quantiles, columns: QuantileRecord.columnNames, jobs: jobs) { $0.append(to: &$1) }))
        }
        if !r.populations.isEmpty {
            files.append(("populations.csv", joined(r.populations, columns: PopulationRecord.columns, jobs: jobs) { $1.append($0.fields) }))
        }
        if !r.populationSeries.isEmpty {
            files.append(
                (
                    "timeseries_populations.csv",
                    joined(r.populationSeries, columns: PopulationSeriesRecord.columns, jobs: jobs) { $0.append(to: &$1) }
                ))
        }
        // Only a call graph has services: a one-hop directory keeps its files, byte for byte.
        if !r.services.isEmpty {
            files.append(("services.csv", joined(r.services, columns: ServiceRecord.columns, jobs: jobs) { $1.append($0.fields) }))
        }
        if !r.edges.isEmpty {
            files.append(("edges.csv", joined(r.edges, columns: EdgeRecord.columns, jobs: jobs) { $1.append($0.fields) }))
        }
        if !r.serviceSeries.isEmpty {
            files.append(
                ("timeseries_services.csv", joined(r.serviceSeries, columns: ServiceSeriesRecord.columnNames, jobs: jobs) { $0.append(to: &$1) }))
        }
        if let name = statisticsFile(r.kind) {
            let differences = r.kind == .compare && r.hasDifferences
            var table = CSVTable(columns: StatisticRecord.columns(parameters: r.parameterPaths, differences: differences))
            for s in r.statistics { table.append(s.fields(differences: differences)) }
            files.append((name, table.contents))
        }
        // A map's P(stuck) per point, from summary.csv's rows (so nothing new is read back).
        if r.isMap { files.append(("map.csv", MapRecord.csv(MapRecord.records(r.metrics), paths: r.parameterPaths))) }
        if r.kind == .tune {
            var table = CSVTable(columns: TuneRecord.columns(parameters: r.parameterPaths))
            for t in r.ranking { table.append(t.fields) }
            files.append(("tune.csv", table.contents))
            files.append(("tune.json", TuneFile.json(r.tune)))
        }
        files.append(("table.txt", r.table))
        if let command = r.command { files.append(("command.txt", command.line + "\n")) }
        files.append(("scenario.yaml", r.scenario))
        return files
    }

    /// The statistics file of a study kind (`run` has none).
    package static func statisticsFile(_ kind: StudyKind) -> String? {
        switch kind {
        case .run: nil
        case .compare: "compare.csv"
        case .sweep, .tune: "sweep.csv"
        }
    }

    /// Formats `records` on `jobs` threads, joined in order behind the header: the bytes do not
    /// depend on `jobs`.
    static func joined<R: Sendable>(
        _ records: [R], columns: [String], jobs: Int,
        _ append: @Sendable @escaping (R, inout CSVTable) -> Void
    ) -> String {
        let pieces = ParallelMap.map(records.count, threads: jobs) { i in
            var piece = CSVTable(rowsOf: columns)
            append(records[i], &piece)
            return piece
        }
        var table = CSVTable(columns: columns)
        for p in pieces { table.append(rowsOf: p) }
        return table.contents
    }

    // MARK: - Reading

    /// The files a result directory's reader reads, in reading order.
    package static let readFiles = [
        "timeseries.csv", "summary.csv", "tts_quantiles.csv", "compare.csv", "sweep.csv", "tune.csv", "tune.json",
        "table.txt", "command.txt", "scenario.yaml", "populations.csv", "timeseries_populations.csv", "services.csv",
        "edges.csv", "timeseries_services.csv"
    ]

    /// Reads the result directory at `path`, refusing one whose files would not fit in `limits`
    /// (``ResultsBudget``) before reading it, and stopping every read at its cap.
    package static func decode(directory path: String, limits: MachineLimits = .current) throws(ResultsError) -> StudyResults {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ResultsError("\(path): no such directory")
        }
        guard isDirectory.boolValue else { throw ResultsError("\(path): is not a directory") }
        var budget = ResultsBudget(limits: limits)
        try budget.check(readFiles.map { (file(path, $0), expansion($0)) })
        var files: [String: String] = [:]
        for name in readFiles {
            if let text = try budget.text(file(path, name), cap: cap(name), expansion: expansion(name)) { files[name] = text }
        }
        return try decode(files, directory: path, meter: budget.meter(textBytes: Double(files.values.reduce(0) { $0 + $1.utf8.count })))
    }

    /// The most bytes read from a result directory's file `name`. The CSV tables have no cap of
    /// their own: a study writes them as large as its budget let it hold them, and their reader
    /// is bounded by memory (``ResultsBudget``). The others are bounded by what retrystorm writes.
    static func cap(_ name: String) -> Int {
        switch name {
        case "scenario.yaml": InputFile.maxScenarioBytes
        case "command.txt": StudyCommand.maxBytes
        case "table.txt": maxTableBytes
        case "tune.json": TuneFile.maxBytes
        default: Int.max
        }
    }

    /// The most bytes of table.txt read: the terminal table has a row per point, and a study has
    /// at most 100,000 points; a row is under 2 KiB even with long variant names (200 MB).
    static let maxTableBytes = 256 << 20

    /// Memory per byte read of file `name` (``ResultsBudget``).
    static func expansion(_ name: String) -> Double {
        name.hasSuffix(".json") ? ResultsBudget.jsonExpansion : ResultsBudget.expansion
    }

    /// Reads `files` (name → contents) as the directory `directory` (for messages).
    package static func decode(_ files: [String: String], directory: String) throws(ResultsError) -> StudyResults {
        try decode(files, directory: directory, meter: nil)
    }

    /// ``decode(_:directory:)``, with `meter` counting the records parsed (``ResultsBudget/Meter``).
    package static func decode(_ files: [String: String], directory: String, meter: ResultsBudget.Meter?) throws(ResultsError) -> StudyResults {
        let name = { (f: String) in file(directory, f) }
        guard let scenario = files["scenario.yaml"] else {
            throw ResultsError("\(name("scenario.yaml")): missing (every result directory has a copy of its scenario)")
        }
        guard let summaryText = files["summary.csv"] else { throw ResultsError("\(name("summary.csv")): missing") }
        let kind: StudyKind = files["tune.json"] != nil ? .tune : files["sweep.csv"] != nil ? .sweep : files["compare.csv"] != nil ? .compare : .run
        // tune.json first: it says the directory is a tune's.
        let tune = try files["tune.json"].map { (text: String) throws(ResultsError) in try TuneFile.decode(Data(text.utf8), file: name("tune.json")) }
        var r = StudyResults(kind: kind, scenario: scenario, summaries: try summaries(summaryText, file: name("summary.csv")))
        r.tune = tune
        if kind == .run || kind == .compare {
            guard let series = files["timeseries.csv"] else { throw ResultsError("\(name("timeseries.csv")): missing") }
            guard let quantiles = files["tts_quantiles.csv"] else { throw ResultsError("\(name("tts_quantiles.csv")): missing") }
            r.timeSeries = try timeSeries(series, file: name("timeseries.csv"), meter: meter)
            r.quantiles = try self.quantiles(quantiles, file: name("tts_quantiles.csv"), meter: meter)
        } else if let series = files["timeseries.csv"] {
            r.timeSeries = try timeSeries(series, file: name("timeseries.csv"), meter: meter)
        }
        if let stats = statisticsFile(kind), let text = files[stats] {
            (r.statistics, r.parameterPaths, r.hasDifferences) = try statistics(text, file: name(stats))
        } else if let stats = statisticsFile(kind) {
            throw ResultsError("\(name(stats)): missing")
        }
        if kind == .tune {
            guard let ranking = files["tune.csv"] else { throw ResultsError("\(name("tune.csv")): missing") }
            r.ranking = try self.ranking(ranking, parameters: r.parameterPaths, file: name("tune.csv"))
        }
        r.table = files["table.txt"] ?? ""
        if let text = files["populations.csv"] { r.populations = try populations(text, file: name("populations.csv")) }
        if let text = files["timeseries_populations.csv"] {
            r.populationSeries = try populationSeries(text, file: name("timeseries_populations.csv"), meter: meter)
        }
        if let text = files["services.csv"] { r.services = try services(text, file: name("services.csv")) }
        // A directory written before edges.csv existed has none: its edges stay empty.
        if let text = files["edges.csv"] { r.edges = try edges(text, file: name("edges.csv")) }
        if let text = files["timeseries_services.csv"] {
            r.serviceSeries = try serviceSeries(text, file: name("timeseries_services.csv"), meter: meter)
        }
        if let line = files["command.txt"] {
            guard let command = StudyCommand(line: line) else {
                throw ResultsError("\(name("command.txt")):1: expected one command line (retrystorm and its arguments)")
            }
            r.command = command
        }
        return r
    }

    package static func summaries(_ text: String, file: String) throws(ResultsError) -> [SummaryRecord] {
        let out = try metricRows(text, file: file, keys: SummaryRecord.keyColumns, metrics: SummaryRecord.metrics) {
            (row, keys, values) throws(ResultsError) in
            SummaryRecord(
                variant: try row.text(keys[0]), replication: try index(row, keys[1]),
                seed: try whole(row, keys[2], UInt64.self), clients: try whole(row, keys[3], Int.self), values: values)
        }
        guard !out.isEmpty else { throw ResultsError("\(file): has no data rows") }
        return out
    }

    package static func populations(_ text: String, file: String) throws(ResultsError) -> [PopulationRecord] {
        try metricRows(text, file: file, keys: PopulationRecord.keyColumns, metrics: PopulationRecord.metrics) {
            (row, keys, values) throws(ResultsError) in
            PopulationRecord(
                variant: try row.text(keys[0]), replication: try index(row, keys[1]), population: try row.text(keys[2]),
                clients: try whole(row, keys[3], Int.self), values: values)
        }
    }

    package static func services(_ text: String, file: String) throws(ResultsError) -> [ServiceRecord] {
        try metricRows(text, file: file, keys: ServiceRecord.keyColumns, metrics: ServiceRecord.metrics) {
            (row, keys, values) throws(ResultsError) in
            ServiceRecord(variant: try row.text(keys[0]), replication: try index(row, keys[1]), service: try row.text(keys[2]), values: values)
        }
    }

    package static func edges(_ text: String, file: String) throws(ResultsError) -> [EdgeRecord] {
        try metricRows(text, file: file, keys: EdgeRecord.keyColumns, metrics: EdgeRecord.metrics) {
            (row, keys, values) throws(ResultsError) in
            EdgeRecord(
                variant: try row.text(keys[0]), replication: try index(row, keys[1]), caller: try row.text(keys[2]),
                callee: try row.text(keys[3]), values: values)
        }
    }

    /// The rows of a file of `keys` then one column per metric of `metrics` (found by name), each
    /// made by `record` from the row, the key columns' indices and the metrics' values in order.
    static func metricRows<R>(
        _ text: String, file: String, keys: [String], metrics: [Metric],
        _ record: (CSVReader.Row, [Int], [Double]) throws(ResultsError) -> R
    ) throws(ResultsError) -> [R] {
        let csv = try CSVReader(text: text, file: file)
        let keyIndex = try keys.map { (c: String) throws(ResultsError) in try csv.column(c) }
        let metricIndex = try metrics.map { (m: Metric) throws(ResultsError) in try csv.column(m.name) }
        var out: [R] = []
        try csv.forEachRow { (row) throws(ResultsError) in
            let values = try zip(metrics, metricIndex).map { (m, c) throws(ResultsError) in try number(row, c, m.format) }
            out.append(try record(row, keyIndex, values))
        }
        return out
    }

    /// timeseries_populations.csv's long rows, one record per variant, replication and population
    /// (their rows are consecutive, as written).
    package static func populationSeries(_ text: String, file: String, meter: ResultsBudget.Meter? = nil) throws(ResultsError)
        -> [PopulationSeriesRecord]
    {
        let csv = try CSVReader(text: text, file: file)
        let keys = try PopulationSeriesRecord.columns.map { (c: String) throws(ResultsError) in try csv.column(c) }
        var out: [PopulationSeriesRecord] = []
        try csv.forEachRow { (row) throws(ResultsError) in
            let v = try row.text(keys[0])
            let rep = try index(row, keys[1])
            let population = try row.text(keys[2])
            if out.last?.variant != v || out.last?.replication != rep || out.last?.population != population {
                try meter?.charge(ResultsBudget.Meter.recordBytes(arrays: 2), file: file, line: row.line)
                out.append(PopulationSeriesRecord(variant: v, replication: rep, population: population, times: [], offered: []))
            }
            try meter?.charge(2 * ResultsBudget.Meter.numberBytes, file: file, line: row.line)
            let t = try number(row, keys[3], PopulationSeriesRecord.timeFormat)
            let offered = try number(row, keys[4], TimeSeriesColumn.offered.format)
            guard offered.isFinite, offered >= 0 else { throw row.problem(keys[4], "expected a whole number ≥ 0 (got '\(row.fields[keys[4]])')") }
            out[out.count - 1].times.append(t)
            out[out.count - 1].offered.append(offered)
        }
        return out
    }

    /// timeseries.csv's text for `records`.
    package static func timeSeriesText(_ records: [TimeSeriesRecord]) -> String {
        joined(records, columns: TimeSeriesRecord.columnNames, jobs: 1) { $0.append(to: &$1) }
    }

    package static func timeSeries(_ text: String, file: String, meter: ResultsBudget.Meter? = nil) throws(ResultsError) -> [TimeSeriesRecord] {
        let out = try seriesRows(text, file: file, name: nil, columns: TimeSeriesRecord.columns, meter: meter).map {
            TimeSeriesRecord(variant: $0.variant, replication: $0.replication, values: $0.values)
        }
        guard !out.isEmpty else { throw ResultsError("\(file): has no data rows") }
        return out
    }

    /// timeseries_services.csv's long rows, one record per variant, replication and service (their
    /// rows are consecutive, as written).
    package static func serviceSeries(_ text: String, file: String, meter: ResultsBudget.Meter? = nil) throws(ResultsError)
        -> [ServiceSeriesRecord]
    {
        try seriesRows(text, file: file, name: "service", columns: ServiceSeriesRecord.columns, meter: meter).map {
            ServiceSeriesRecord(variant: $0.variant, replication: $0.replication, service: $0.name, values: $0.values)
        }
    }

    /// The rows of a long time series file (`variant`, `replication`, the key column `name` if
    /// any, then `columns`, each a finite number ≥ 0), one group per run of consecutive rows with
    /// the same keys, one array of values per column.
    static func seriesRows(_ text: String, file: String, name: String?, columns: [TimeSeriesColumn], meter: ResultsBudget.Meter?)
        throws(ResultsError) -> [(variant: String, replication: Int, name: String, values: [[Double]])]
    {
        let csv = try CSVReader(text: text, file: file)
        let variant = try csv.column("variant")
        let replication = try csv.column("replication")
        let key = try name.map { (n: String) throws(ResultsError) in try csv.column(n) }
        let indices = try columns.map { (c: TimeSeriesColumn) throws(ResultsError) in try csv.column(c.name) }
        var out: [(variant: String, replication: Int, name: String, values: [[Double]])] = []
        try csv.forEachRow { (row) throws(ResultsError) in
            let v = try row.text(variant)
            let rep = try index(row, replication)
            let n = try key.map { (k: Int) throws(ResultsError) in try row.text(k) } ?? ""
            if out.last?.variant != v || out.last?.replication != rep || out.last?.name != n {
                try meter?.charge(ResultsBudget.Meter.recordBytes(arrays: indices.count), file: file, line: row.line)
                out.append((v, rep, n, Array(repeating: [], count: indices.count)))
            }
            try meter?.charge(Double(indices.count) * ResultsBudget.Meter.numberBytes, file: file, line: row.line)
            for (i, (c, spec)) in zip(indices, columns).enumerated() {
                let x = try number(row, c, spec.format)
                guard x.isFinite, x >= 0 else { throw row.problem(c, "expected a finite number ≥ 0 (got '\(row.fields[c])')") }
                out[out.count - 1].values[i].append(x)
            }
        }
        return out
    }

    package static func quantiles(_ text: String, file: String, meter: ResultsBudget.Meter? = nil) throws(ResultsError) -> [QuantileRecord] {
        let csv = try CSVReader(text: text, file: file)
        let variant = try csv.column("variant")
        let replication = try csv.column("replication")
        let level = try csv.column("quantile")
        let time = try csv.column("tts_s")
        var out: [QuantileRecord] = []
        try csv.forEachRow { (row) throws(ResultsError) in
            let v = try row.text(variant)
            let rep = try index(row, replication)
            let q = try number(row, level, QuantileRecord.levelFormat)
            let t = try number(row, time, QuantileRecord.secondsFormat)
            guard q >= 0, q <= 1 else { throw row.problem(level, "expected a level between 0 and 1 (got '\(row.fields[level])')") }
            guard t.isFinite, t >= 0 else { throw row.problem(time, "expected a finite time ≥ 0 (got '\(row.fields[time])')") }
            if out.last?.variant != v || out.last?.replication != rep {
                try meter?.charge(ResultsBudget.Meter.recordBytes(arrays: 2), file: file, line: row.line)
                out.append(QuantileRecord(variant: v, replication: rep, levels: [], seconds: []))
            }
            try meter?.charge(2 * ResultsBudget.Meter.numberBytes, file: file, line: row.line)
            out[out.count - 1].levels.append(q)
            out[out.count - 1].seconds.append(t)
        }
        return out
    }

    package static func statistics(_ text: String, file: String) throws(ResultsError) -> ([StatisticRecord], [String], Bool) {
        let csv = try CSVReader(text: text, file: file)
        let differences = csv.columns.suffix(3) == StatisticRecord.differenceColumns[...]
        let columns = differences ? Array(csv.columns.dropLast(3)) : csv.columns
        guard columns.first == "variant", columns.count >= 6, Array(columns.suffix(5)) == StatisticRecord.valueColumns else {
            throw ResultsError(
                "\(file):1: expected the columns variant,[swept parameters…,]\(StatisticRecord.valueColumns.joined(separator: ","))[,\(StatisticRecord.differenceColumns.joined(separator: ","))]"
            )
        }
        let parameters = Array(columns[1..<(columns.count - 5)])
        let p = parameters.count
        let f = StatisticRecord.format
        var out: [StatisticRecord] = []
        try csv.forEachRow { (row) throws(ResultsError) in
            var difference: (Double, Double, Double)?
            if differences && !row.fields[p + 6].isEmpty {
                difference = (try number(row, p + 6, f), try number(row, p + 7, f), try number(row, p + 8, f))
            }
            out.append(
                StatisticRecord(
                    variant: try row.text(0), parameters: try (0..<p).map { (i: Int) throws(ResultsError) in try row.text(1 + i) },
                    metric: try metric(row, p + 1), mean: try number(row, p + 2, f), low: try number(row, p + 3, f),
                    high: try number(row, p + 4, f), replications: try whole(row, p + 5, Int.self), difference: difference))
        }
        return (out, parameters, differences)
    }

    package static func ranking(_ text: String, parameters: [String], file: String) throws(ResultsError) -> [TuneRecord] {
        let csv = try CSVReader(text: text, file: file)
        let expected = TuneRecord.columns(parameters: parameters)
        // tune.csv written before `within_noise` existed reads with it empty.
        let hasWithinNoise = csv.columns == expected
        guard hasWithinNoise || csv.columns == expected.dropLast() else {
            throw ResultsError("\(file):1: expected the columns \(expected.joined(separator: ","))")
        }
        let p = parameters.count
        let f = TuneRecord.format
        var out: [TuneRecord] = []
        try csv.forEachRow { (row) throws(ResultsError) in
            func triple(_ at: Int) throws(ResultsError) -> [Double]? {
                row.fields[at].isEmpty ? nil : [try number(row, at, f), try number(row, at + 1, f), try number(row, at + 2, f)]
            }
            out.append(
                TuneRecord(
                    rank: try whole(row, 0, Int.self), variant: try row.text(1),
                    parameters: try (0..<p).map { (i: Int) throws(ResultsError) in try row.text(2 + i) },
                    feasible: row.fields[p + 2] == "true", objective: try objective(row, p + 3), mean: try number(row, p + 4, f),
                    low: try number(row, p + 5, f), high: try number(row, p + 6, f), replications: try whole(row, p + 7, Int.self),
                    violated: String(row.fields[p + 8]), violation: try number(row, p + 9, f), difference: try triple(p + 10),
                    confirmed: try triple(p + 13), aliases: String(row.fields[p + 16]), withinNoise: hasWithinNoise ? String(row.fields[p + 17]) : "")
            )
        }
        return out
    }

    // MARK: - Fields

    static func number(_ row: CSVReader.Row, _ column: Int, _ format: ValueFormat) throws(ResultsError) -> Double {
        guard let x = format.value(row.fields[column]) else {
            throw row.problem(
                column,
                format == .whole
                    ? "expected a whole number (got '\(row.fields[column])')"
                    : "expected a number (got '\(row.fields[column])')")
        }
        return x
    }

    /// A metric's name (a column of summary.csv).
    static func metric(_ row: CSVReader.Row, _ column: Int) throws(ResultsError) -> Metric {
        let text = try row.text(column)
        guard let metric = Metric.summaryColumn(named: text) else { throw row.problem(column, "'\(text)' is not a metric (summary.csv column)") }
        return metric
    }

    /// tune's objective: `metric` or `max:metric`.
    static func objective(_ row: CSVReader.Row, _ column: Int) throws(ResultsError) -> Objective {
        let text = try row.text(column)
        guard let objective = Objective(text) else { throw row.problem(column, "'\(text)' is not an objective (metric or max:metric)") }
        return objective
    }

    static func whole<T: FixedWidthInteger>(_ row: CSVReader.Row, _ column: Int, _: T.Type) throws(ResultsError) -> T {
        guard let x = T(row.fields[column]), x >= 0 else { throw row.problem(column, "expected a whole number ≥ 0 (got '\(row.fields[column])')") }
        return x
    }

    static func index(_ row: CSVReader.Row, _ column: Int) throws(ResultsError) -> Int {
        guard let i = Int(row.fields[column]), i >= 0 else {
            throw row.problem(column, "expected a replication index (got '\(row.fields[column])')")
        }
        return i
    }

    // MARK: - Files

    package static func file(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
