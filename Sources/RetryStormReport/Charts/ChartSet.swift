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
            NamedChart(fileName: LoadChart.fileName, chart: LoadChart.build(context),
                       caption: "How far the offered load climbs above capacity while capacity is down, and how soon it falls back to what the server can serve."),
            NamedChart(fileName: AttemptsChart.fileName, chart: AttemptsChart.build(context),
                       caption: "Where the load comes from: first attempts against retries. Retries that keep coming after capacity returns are the storm."),
            NamedChart(fileName: QueueChart.fileName, chart: QueueChart.build(context),
                       caption: "Requests waiting at the server: a queue that stays full after the incident serves requests whose clients have already given up."),
            NamedChart(fileName: FailuresChart.fileName, chart: FailuresChart.build(context),
                       caption: "What clients lose over time: attempts that time out and operations that give up."),
            NamedChart(fileName: TimeToSuccessCDF.fileName, chart: TimeToSuccessCDF.build(context),
                       caption: "How long successful operations took: a curve further left is faster; compare it with the share each variant gave up."),
            NamedChart(fileName: TimeToSuccessBars.fileName, chart: TimeToSuccessBars.build(context),
                       caption: "Median and 99th-percentile time to success per variant, with 95% intervals."),
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
