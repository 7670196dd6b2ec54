import RetryStormEngine

/// What a whole study needs, estimated before anything runs: the memory the process holds at its
/// peak and the events of its largest replication. Every point (the base, each variant, each
/// `--vary` value, each grid point) is estimated, not only the base.
///
/// Memory at the peak is the process itself, `parallel` replications running at once (the
/// hungriest point's), every finished result held until the tables are written, the tables' text
/// (built in pieces, joined, written and read back for the charts: three copies, plus the parsed
/// columns), the input files (``inputBytes``) and the study's own bookkeeping. Each part is an
/// upper estimate; `Tests/CLITests/ResourceGuardTests` and `InputGuardTests` check the sum against
/// measured runs.
public struct StudyBudget: Sendable {
    /// Peak resident bytes of the whole process.
    public let bytes: Double
    /// The parts of `bytes`, for messages: engines running at once, results held, tables.
    public let engineBytes: Double
    public let resultBytes: Double
    public let tableBytes: Double
    /// The arrays of input data the points hold — load and capacity profiles, and with a file's
    /// profile the file's bytes (kept for the copy the results keep) and its parsed rows — each
    /// storage once, however many points share it (``InputFiles``, ``ResourceEstimate/sharedArrays(_:)``).
    /// Not per replication: the engine reads them in place.
    public let inputBytes: Double
    /// Events of the largest replication (upper estimate) and of the whole study.
    public let eventsPerReplication: Double
    public let totalEvents: Double
    /// The point with the most events, and the one needing the most memory while it runs.
    public let busiestPoint: Int
    public let hungriestPoint: Int
    /// Replications running at once.
    public let parallel: Int
    /// The busiest point's zero-delay retry loop, if it has one.
    public let zeroDelayLoop: String?

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
    public init(study: Study, jobs: Int, series: Bool, inputs: InputFiles? = nil) {
        let tasks = Double(study.taskCount)
        parallel = max(1, min(jobs, study.taskCount))
        var engine = 0.0, results = 0.0, tables = 0.0, events = 0.0, total = 0.0
        var busiest = 0, hungriest = 0
        var loop: String?
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
            }
            if e.maxEvents > events {
                events = e.maxEvents
                busiest = i
                loop = e.zeroDelayLoop
            }
            total += e.maxEvents * reps
            results += reps * (Double(e.resultBytes) + Self.taskBytes)
            let name = Double(point.name.utf8.count) + 1
            var text = reps * (summaryRow + name)
            var parsed = 0.0
            if series {
                let buckets = Double(e.buckets)
                text += reps * buckets * (seriesRow + name) + reps * 1001 * (name + 32)
                parsed += reps * buckets * seriesColumns * 8
            }
            tables += Self.textCopies * text + parsed
        }
        engineBytes = engine * Double(parallel)
        resultBytes = results
        tableBytes = tables
        inputBytes = shared.values.reduce(0) { $0 + Double($1) }
        bytes = Self.processBytes + engineBytes + resultBytes + tableBytes + inputBytes + Double(study.points.count) * Self.pointBytes
            + tasks * Self.taskBytes
        eventsPerReplication = events
        totalEvents = total
        busiestPoint = busiest
        hungriestPoint = hungriest
        zeroDelayLoop = loop
    }
}
