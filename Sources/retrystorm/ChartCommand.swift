import ArgumentParser
import Foundation
import RetryStormKit

struct ChartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "Re-render every chart of a run directory from its CSVs.",
        discussion: """
            Reads timeseries.csv, summary.csv, tts_quantiles.csv and scenario.yaml (and compare.csv,
            sweep.csv and tune.json when present) in DIR and writes the charts there as SVG:
            load.svg, peak_load.svg, attempts.svg, queue.svg, failures.svg, tts_cdf.svg, tts_tail.svg,
            tts_p50_p99.svg (with populations, load_populations.svg and tts_populations.svg too; with services,
            graph.svg, load_services.svg and amplification_services.svg); for a sweep, sweep_<metric>.svg (a line over one key, heatmaps over two
            or three). Safe to re-run: each file is replaced whole.
            With --png, also writes a PNG of each chart through `rsvg-convert -w 1200 -b white`
            when it is installed (Debian: librsvg2-bin).

            Examples:
              retrystorm chart results/quickstart
              retrystorm chart results/quickstart --png
            """)

    @Argument(help: ArgumentHelp("The run directory.", valueName: "dir"))
    var directory: String

    @Flag(help: "Also write PNGs (1200 px wide) through rsvg-convert, when it is installed.")
    var png = false

    func run() throws {
        Interruption.leaves("charts not yet replaced are as they were")
        let written = try CLIErrors.runDirectory { () throws(ResultsError) in try Redraw.charts(directory: directory) }
        // A failure to print the list below must not hide that the charts are in place.
        Interruption.leaves("the \(png ? "SVG " : "")charts were written to \(MessageText.escaped(directory))")
        for path in written { Terminal.line(path) }
        guard png else { return }
        guard let converter = PNGConverter.find() else {
            Terminal.error("retrystorm: rsvg-convert is not installed; wrote SVGs only (install librsvg2-bin for PNGs)\n")
            return
        }
        for svg in written {
            let png = String(svg.dropLast(4)) + ".png"
            if let problem = converter.convert(svg: svg, png: png) {
                throw CLIErrors.Failure(message: "\(png): rsvg-convert failed: \(problem)", status: CLIErrors.badInput)
            }
            Terminal.line(png)
        }
    }
}
