import RetryStormEngine

/// The CSV files of a study (or of one shard of it), rows in task order.
public struct StudyTables: Sendable {
    public var timeseries: CSVTable
    public var summary: CSVTable
    public var ttsQuantiles: CSVTable

    /// Only the summary table of `results` (sorted by task) of `study`: one row per replication.
    public static func summary(study: Study, results: [StudyRunner.TaskResult]) -> CSVTable {
        var summary = CSVTable(columns: RunOutputs.summaryColumns)
        for t in results {
            let point = study.points[study.task(t.task).point]
            RunOutputs.appendSummary(t.result, variant: point.name, seed: point.scenario.seed, to: &summary)
        }
        return summary
    }

    /// Tables for `results` (sorted by task) of `study`.
    ///
    /// Each result's rows are formatted on one of `jobs` threads and the pieces joined in task
    /// order, so the bytes do not depend on `jobs`. Formatting is serial work after the parallel
    /// replications: on a study of a hundred short replications it was a tenth of the time and
    /// held two jobs to 1.8 times the speed of one.
    public init(study: Study, results: [StudyRunner.TaskResult], jobs: Int = 1) {
        let pieces = ParallelMap.map(results.count, threads: jobs) { i in
            let t = results[i]
            let point = study.points[study.task(t.task).point]
            var piece = (timeseries: CSVTable(rowsOf: RunOutputs.timeseriesColumns), summary: CSVTable(rowsOf: RunOutputs.summaryColumns),
                         quantiles: CSVTable(rowsOf: RunOutputs.ttsQuantileColumns))
            RunOutputs.appendTimeseries(t.result, variant: point.name, to: &piece.timeseries)
            RunOutputs.appendSummary(t.result, variant: point.name, seed: point.scenario.seed, to: &piece.summary)
            RunOutputs.appendTTSQuantiles(t.result, variant: point.name, to: &piece.quantiles)
            return piece
        }
        timeseries = CSVTable(columns: RunOutputs.timeseriesColumns)
        summary = CSVTable(columns: RunOutputs.summaryColumns)
        ttsQuantiles = CSVTable(columns: RunOutputs.ttsQuantileColumns)
        for piece in pieces {
            timeseries.append(rowsOf: piece.timeseries)
            summary.append(rowsOf: piece.summary)
            ttsQuantiles.append(rowsOf: piece.quantiles)
        }
    }
}
