import Foundation
import RetryStormReport

/// `retrystorm chart` and `retrystorm report`: draws a result directory's charts or report again
/// from its files and replaces them in it, each file whole (``FileWriter/replace(_:_:)``): a
/// reader, an interruption or a full disk leaves every file either as it was or new, never half
/// written. Everything is read and drawn before the first write, so bad input changes nothing.
package enum Redraw {
    /// Writes every chart of the result directory at `path` into it.
    /// - Returns: the paths written, in chart order.
    /// - Throws: ``ResultsError`` for bad input or a file that cannot be written.
    @discardableResult
    package static func charts(directory path: String) throws(ResultsError) -> [String] {
        let run = try RunDirectory.load(path: path)
        let rendered = ChartSet.charts(for: run).map { ($0.fileName, $0.chart.svg()) }
        var written: [String] = []
        for (name, svg) in rendered {
            let file = ResultsCodec.file(path, name)
            try replace(file, svg)
            written.append(file)
        }
        return written
    }

    /// Writes `report.html` into the result directory at `path`: the same bytes as the command
    /// that made the directory wrote (``OutputDirectory/writeCharts(_:scenario:)`` draws the same
    /// results).
    /// - Returns: the path written.
    /// - Throws: ``ResultsError`` for bad input or when the file cannot be written.
    @discardableResult
    package static func report(directory path: String) throws(ResultsError) -> String {
        let run = try RunDirectory.load(path: path)
        let file = ResultsCodec.file(path, "report.html")
        try replace(file, ReportPage.html(run, charts: ChartSet.charts(for: run)))
        return file
    }

    static func replace(_ file: String, _ text: String) throws(ResultsError) {
        do { try FileWriter.replace(file, text) } catch {
            throw ResultsError("\(file): cannot be written: \(error.reason)")
        }
    }
}
