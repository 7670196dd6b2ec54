import ArgumentParser
import RetryStormKit

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write DIR/report.html: one self-contained page for a design review.",
        discussion: """
            Reads a run directory (as `chart` does) and writes report.html into it: the scenario's
            question, the summary (and compare or sweep) tables with 95% confidence intervals and
            the best marked, every chart inline, the scenario text, seed, replications and
            version. No external files: it opens offline in any browser. Same CSVs, same bytes.

            Example:
              retrystorm report results/quickstart
            """)

    @Argument(help: ArgumentHelp("The run directory.", valueName: "dir"))
    var directory: String

    func run() throws {
        let path = try CLIErrors.runDirectory { () throws(ResultsError) in try ReportPage.write(directory: directory) }
        print(path)
    }
}
