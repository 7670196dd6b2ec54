import ArgumentParser
import RetryStormKit

struct Keys: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every scenario key with its type, default and meaning (Markdown).",
        discussion: "Every key can be set in a scenario file (nested or dotted) and overridden with --set path=value.")

    func run() throws {
        Terminal.out(ScenarioReference.markdown())
    }
}
