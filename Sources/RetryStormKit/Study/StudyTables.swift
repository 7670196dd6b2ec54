import RetryStormEngine

/// The CSV files of a study (or of one shard of it), rows in task order.
public struct StudyTables: Sendable {
    public var timeseries: CSVTable
    public var summary: CSVTable
    public var ttsQuantiles: CSVTable

    /// Tables for `results` (sorted by task) of `study`.
    public init(study: Study, results: [StudyRunner.TaskResult]) {
        timeseries = CSVTable(columns: RunOutputs.timeseriesColumns)
        summary = CSVTable(columns: RunOutputs.summaryColumns)
        ttsQuantiles = CSVTable(columns: RunOutputs.ttsQuantileColumns)
        for t in results {
            let point = study.points[study.task(t.task).point]
            RunOutputs.appendTimeseries(t.result, variant: point.name, to: &timeseries)
            RunOutputs.appendSummary(t.result, variant: point.name, seed: point.scenario.seed, to: &summary)
            RunOutputs.appendTTSQuantiles(t.result, variant: point.name, to: &ttsQuantiles)
        }
    }
}
