import RetryStormReport

extension OutputDirectory {
    /// Writes every chart of `results` (scenario `scenario`) and report.html into the staging
    /// directory: drawn from the results in memory, as `retrystorm chart` and `retrystorm report`
    /// draw them from the files, so they appear atomically with the CSVs and equal, byte for byte,
    /// what those commands make of the directory. Call before ``commit()``.
    /// - Throws: ``OutputError`` when the charts cannot be drawn or written.
    package func writeCharts(_ results: StudyResults, scenario: LoadedScenario) throws(OutputError) {
        let run: RunDirectory
        do throws(ResultsError) {
            run = try RunDirectory(
                results: results, scenario: scenario, path: given, variantScenarios: RunDirectory.varied(results, scenario))
        } catch {
            throw OutputError(message: "cannot draw the charts: \(error.message)")
        }
        let charts = ChartSet.charts(for: run)
        for chart in charts { try write(chart.fileName, chart.chart.svg()) }
        try write("report.html", ReportPage.html(run, charts: charts))
    }
}
