import ArgumentParser
import RetryStormKit

struct Metrics: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every metric with its unit, better direction, files and meaning (Markdown).",
        discussion: """
            Metrics are the columns of summary.csv (and, per population, populations.csv) that
            compare.csv and sweep.csv summarise and that --expect, --objective and --constraint name.
            """)

    func run() throws {
        Terminal.out(MetricReference.markdown())
    }
}
