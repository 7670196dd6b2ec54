import ArgumentParser
import RetryStormKit

/// `retrystorm manual`: the manual page, made from the definitions `--help` prints, so the two
/// never disagree. docs/retrystorm.1 is its output, and a test keeps the two equal.
struct Manual: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the manual page (man(7) format) of retrystorm and every command.",
        discussion: """
            The same text as each command's --help, as one page:
              retrystorm manual > /usr/local/share/man/man1/retrystorm.1 && man retrystorm
              retrystorm manual | man -l -
            """)

    func run() throws {
        Terminal.out(ManualPage.text(RetryStorm.self))
    }
}
