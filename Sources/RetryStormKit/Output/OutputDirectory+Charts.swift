extension OutputDirectory {
    /// Writes every chart of `results` (scenario `scenario`) into the staging directory: drawn from
    /// the results in memory, as `retrystorm chart` draws them from the files, so the charts appear
    /// atomically with the CSVs and equal, byte for byte, what `chart` makes of the directory. Call
    /// before ``commit()``.
    /// - Throws: ``OutputError`` when the charts cannot be drawn or written.
    public func writeCharts(_ results: StudyResults, scenario: LoadedScenario) throws(OutputError) {
        let run: RunDirectory
        do throws(ResultsError) {
            run = try RunDirectory(results: results, scenario: scenario, path: given)
        } catch {
            throw OutputError(message: "cannot draw the charts: \(error.message)")
        }
        for chart in ChartSet.charts(for: run) { try write(chart.fileName, chart.chart.svg()) }
    }
}
