import ArgumentParser
import RetryStormKit

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write DIR/report.html again: one self-contained page for a design review.",
        discussion: """
            run, compare, sweep, tune and merge write report.html themselves; this writes it again
            from a result directory (as `chart` draws the charts), byte for byte the same. The page
            leads with the verdict: the scenario's question, findings quoting their numbers and
            95% intervals, a tune's recommendation with its runners-up and constraints, and the
            release gates (`expect:` and --expect) passed or failed; then every chart with a
            caption, the full tables (points as rows; load, outcome, time), and what reproduces
            it: the command line (command.txt), seed, replications, version and scenario. No
            external files: it opens offline in any browser, and prints on A4 or Letter.

            Example:
              retrystorm report results/quickstart
            """)

    @Argument(help: ArgumentHelp("The run directory.", valueName: "dir"))
    var directory: String

    func run() throws {
        Interruption.leaves("report.html is as it was")
        let path = try CLIErrors.runDirectory { () throws(ResultsError) in try Redraw.report(directory: directory) }
        // A failure to print the path below must not hide that the report is in place.
        Interruption.leaves("\(MessageText.escaped(path)) was written")
        Terminal.line(path)
    }
}
