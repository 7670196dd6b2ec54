import RetryStormResults
import RetryStormScenario
import Foundation

/// Every chart of a run directory, built from its CSVs, in the order a reader meets them: the
/// incident over time (load, where it comes from, queue, losses), then the time-to-success
/// outcome, then the sweep.
public enum ChartSet {
    /// The charts for `run`. Pure: the same inputs give the same SVG bytes.
    public static func charts(for run: RunDirectory) -> [NamedChart] {
        let context = ChartContext(run: run)
        // A sweep's directory has summaries only: its story is the heatmaps.
        guard run.sweep == nil else { return SweepHeatmap.build(context) }
        return [
            NamedChart(fileName: LoadChart.fileName, chart: LoadChart.build(context)),
            NamedChart(fileName: AttemptsChart.fileName, chart: AttemptsChart.build(context)),
            NamedChart(fileName: QueueChart.fileName, chart: QueueChart.build(context)),
            NamedChart(fileName: FailuresChart.fileName, chart: FailuresChart.build(context)),
            NamedChart(fileName: TimeToSuccessCDF.fileName, chart: TimeToSuccessCDF.build(context)),
            NamedChart(fileName: TimeToSuccessBars.fileName, chart: TimeToSuccessBars.build(context)),
        ]
    }

    /// Reads the run directory at `path` and writes every chart into it, each file replaced
    /// atomically (a re-run is safe). Everything is read and rendered before the first write, so
    /// bad input changes nothing.
    /// - Returns: the paths written, in chart order.
    /// - Throws: ``ResultsError`` for bad input or a file that cannot be written.
    @discardableResult
    public static func write(directory path: String) throws(ResultsError) -> [String] {
        let run = try RunDirectory.load(path: path)
        let rendered = charts(for: run).map { ($0.fileName, $0.chart.svg()) }
        var written: [String] = []
        for (name, svg) in rendered {
            let file = RunDirectory.file(path, name)
            try writeAtomically(svg, to: file)
            written.append(file)
        }
        return written
    }

    /// Writes `text` to `file` through a temporary file and a rename, so a reader never sees half a file.
    static func writeAtomically(_ text: String, to file: String) throws(ResultsError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw ResultsError("\(file): cannot be written (\(error.localizedDescription))")
        }
    }
}
