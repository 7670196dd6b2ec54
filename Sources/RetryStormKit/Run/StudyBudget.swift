import RetryStormEngine

/// What a whole study needs, estimated before anything runs: the memory the process holds at its
/// peak and the events of its largest replication. Every point (the base, each variant, each
/// `--vary` value, each grid point) is estimated, not only the base.
///
/// Memory at the peak is the process itself, `parallel` replications running at once (the
/// hungriest point's), every finished result held until the tables are written, the tables' text
/// (built in pieces, joined, written and read back for the charts: three copies, plus the parsed
/// columns) — the populations' tables as a term of their own, since they grow with populations ×
/// buckets —, the input files (``inputBytes``) and the study's own bookkeeping. Each part is an
/// upper estimate; `Tests/CLITests/ResourceGuardTests` and `InputGuardTests` check the sum against
/// measured runs.
package struct StudyBudget: Sendable {
    /// Peak resident bytes of the whole process.
    package let bytes: Double
    /// The parts of `bytes`, for messages: engines running at once, results held, tables.
    package let engineBytes: Double
    package let resultBytes: Double
    package let tableBytes: Double
    /// The arrays of input data the points hold — load and capacity profiles, and with a file's
    /// profile the file's bytes (kept for the copy the results keep) and its parsed rows — each
    /// storage once, however many points share it (``InputFiles``, ``ResourceEstimate/sharedArrays(_:)``).
    /// Not per replication: the engine reads them in place.
    package let inputBytes: Double
    /// The populations' tables (``populationTables(_:replications:buckets:name:series:)``) and a
    /// call graph's services' (``serviceTables(_:replications:buckets:name:series:)``), a part of
    /// `bytes` besides `tableBytes`.
    package let populationTableBytes: Double
    /// What makes the held part (results and tables) large: replications, points, buckets or
    /// populations (``ResourceDriver/strongest(_:)``).
    package let heldDriver: ResourceDriver
    /// Events of the largest replication (upper estimate) and of the whole study.
    package let eventsPerReplication: Double
    package let totalEvents: Double
    /// The point with the most events, and the one needing the most memory while it runs.
    package let busiestPoint: Int
    package let hungriestPoint: Int
    /// What makes the busiest point's events and the hungriest point's memory large.
    package let eventsDriver: ResourceDriver
    package let engineDriver: ResourceDriver
    /// The point holding the most results and tables.
    package let heldPoint: Int
    /// Replications running at once.
    package let parallel: Int
    /// The busiest point's zero-delay retry loop, if it has one, and whose loop it is (the
    /// clients', ``ResourceDriver/attempts``, or an edge's, ``ResourceDriver/callAttempts(_:)``).
    package let zeroDelayLoop: String?
    package let zeroDelayDriver: ResourceDriver?

    /// The process before any study work: the binary, the Swift and Foundation runtimes, the
    /// scenario (measured: about 30 MiB resident for a tiny run).
    static let processBytes = 48.0 * 1_048_576
    /// A point's bookkeeping: its scenario value, name and parameters, its statistics cells.
    static let pointBytes = 16.0 * 1024
    /// A task's result record and its entry in the results array, besides the result itself.
    static let taskBytes = 512.0
    /// Upper sizes of a CSV field (a count or a fixed-decimal number) and of a row's end.
    static let fieldBytes = 14.0
    /// Copies of every table's text alive at once (pieces, joined, written, read back).
    static let textCopies = 3.0

    /// Estimates `study` run on `jobs` threads; `series` when it writes the time series and the
    /// quantiles (run, compare), not only summaries (sweep, tune); `inputs`, the input files the
    /// study's scenario was loaded with (``LoadedScenario/inputs``).
    package init(study: Study, jobs: Int, series: Bool, inputs: InputFiles? = nil) {
        let tasks = Double(study.taskCount)
        parallel = max(1, min(jobs, study.taskCount))
        var engine = 0.0
        var results = 0.0
        var tables = 0.0
        var populationTables = 0.0
        var events = 0.0
        var total = 0.0
        var mostBuckets = 1.0
        var mostPopulations = 1.0
        var busiest = 0
        var hungriest = 0
        var held = 0
        var mostHeld = -1.0
        var eventsBy = ResourceDriver.clients
        var engineBy = ResourceDriver.clients
        var loop: String?
        var loopBy: ResourceDriver?
        let summaryRow = Double(SummaryRecord.columns.count) * Self.fieldBytes
        let seriesRow = Double(TimeSeriesRecord.columnNames.count) * Self.fieldBytes
        let seriesColumns = Double(TimeSeriesRecord.columnNames.count)
        var shared = inputs?.heldArrays ?? [:]
        // Points are estimated once each: a grid of 10^5 points estimates in well under a second.
        for (i, point) in study.points.enumerated() {
            let e = ResourceEstimate(point.scenario)
            shared.merge(ResourceEstimate.sharedArrays(point.scenario)) { max($0, $1) }
            let reps = Double(study.replications)
            if Double(e.bytesPerReplication) > engine {
                engine = Double(e.bytesPerReplication)
                hungriest = i
                engineBy = e.memoryDriver
            }
            if e.maxEvents > events {
                events = e.maxEvents
                busiest = i
                loop = e.zeroDelayLoop
                loopBy = e.zeroDelayDriver
                eventsBy = e.eventsDriver
            }
            total += e.maxEvents * reps
            let pointResults = reps * (Double(e.resultBytes) + Self.taskBytes)
            results += pointResults
            let name = Double(point.name.utf8.count) + 1
            var text = reps * (summaryRow + name)
            var parsed = 0.0
            if series {
                let buckets = Double(e.buckets)
                text += reps * buckets * (seriesRow + name) + reps * 1001 * (name + 32)
                parsed += reps * buckets * seriesColumns * 8
            }
            tables += Self.textCopies * text + parsed
            let pointPopulations =
                Self.populationTables(point.scenario, replications: reps, buckets: Double(e.buckets), name: name, series: series)
                + Self.serviceTables(point.scenario, replications: reps, buckets: Double(e.buckets), name: name, series: series)
            populationTables += pointPopulations
            if pointResults + Self.textCopies * text + parsed + pointPopulations > mostHeld {
                mostHeld = pointResults + Self.textCopies * text + parsed + pointPopulations
                held = i
            }
            mostBuckets = max(mostBuckets, Double(e.buckets))
            mostPopulations = max(mostPopulations, Double(point.scenario.populations.count))
        }
        engineBytes = engine * Double(parallel)
        resultBytes = results
        tableBytes = tables
        inputBytes = shared.values.reduce(0) { $0 + Double($1) }
        populationTableBytes = populationTables
        heldDriver = ResourceDriver.strongest([
            (.bucket, mostBuckets), (.replications, Double(study.replications)),
            (.points, Double(study.points.count)), (.populations, mostPopulations)
        ])
        bytes =
            Self.processBytes + engineBytes + resultBytes + tableBytes + populationTableBytes + inputBytes
            + Double(study.points.count) * Self.pointBytes
            + tasks * Self.taskBytes
        eventsPerReplication = events
        totalEvents = total
        busiestPoint = busiest
        hungriestPoint = hungriest
        heldPoint = held
        eventsDriver = eventsBy
        engineDriver = engineBy
        zeroDelayLoop = loop
        zeroDelayDriver = loopBy
    }

    /// The tables of `scenario`'s populations over `replications` replications of `buckets`
    /// buckets, for a point named with `name` bytes: populations.csv (a row per replication and
    /// population) and, with the series, timeseries_populations.csv (a row per replication,
    /// population and bucket: they grow with populations × buckets). Their text in
    /// ``textCopies`` copies, the rows' parsed numbers, and each series record's times and
    /// counts held until the tables are written (8 bytes each).
    static func populationTables(_ scenario: Scenario, replications: Double, buckets: Double, name: Double, series: Bool) -> Double {
        namedTables(
            scenario.populations.map(\.name), columns: PopulationRecord.columns.count,
            seriesValues: PopulationSeriesRecord.columns.count - 3, replications: replications, buckets: buckets, name: name,
            series: series)
    }

    /// services.csv and timeseries_services.csv of a call graph, as ``populationTables(_:replications:buckets:name:series:)``
    /// (a row per service where that has one per population); 0 for one hop.
    static func serviceTables(_ scenario: Scenario, replications: Double, buckets: Double, name: Double, series: Bool) -> Double {
        guard scenario.isCallGraph else { return 0 }
        return namedTables(
            scenario.services.map(\.name), columns: ServiceRecord.columns.count, seriesValues: ServiceSeriesRecord.columns.count,
            replications: replications, buckets: buckets, name: name, series: series)
    }

    /// The tables with a row per replication and `names` entry (`columns` fields) and, with the
    /// series, a row per replication, entry and bucket (the keys, then `seriesValues` numbers,
    /// the time included), as the two functions above describe them.
    static func namedTables(
        _ names: [String], columns: Int, seriesValues: Int, replications: Double, buckets: Double, name: Double, series: Bool
    ) -> Double {
        guard !names.isEmpty else { return 0 }
        let label = Double(names.map(\.utf8.count).max() ?? 0) + 1
        let rows = replications * Double(names.count)
        var text = rows * (Double(columns) * fieldBytes + name + label)
        var parsed = rows * Double(columns) * 8
        if series {
            let seriesRows = rows * buckets
            text += seriesRows * (Double(seriesValues + 1) * fieldBytes + name + label)
            parsed += seriesRows * Double(seriesValues) * 8 * 2
        }
        return textCopies * text + parsed
    }
}
