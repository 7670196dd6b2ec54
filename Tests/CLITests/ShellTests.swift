import Foundation
import Testing

/// The shell: completion scripts from argument-parser's `--generate-completion-script`, and the
/// manual page `retrystorm manual` prints, committed as docs/retrystorm.1 (CI also renders it with
/// groff, warnings as errors: .ci/run).
struct ShellTests {
    /// Every command `retrystorm --help` lists, the nested ones under their parent.
    static let commands = ["run", "compare", "sweep", "tune", "merge", "chart", "report", "validate", "keys", "metrics", "schema", "policy", "manual"]

    @Test("bash, zsh and fish completions name every command and complete options", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) throws {
        let r = try CLI.run(["--generate-completion-script", shell])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        for command in Self.commands { #expect(r.stdout.contains(command), "\(shell): \(command)") }
        // Options of a subcommand and of a nested one (argument-parser writes each by name).
        #expect(r.stdout.contains("replications") && r.stdout.contains("objective") && r.stdout.contains("variant"))
        switch shell {
        case "bash": #expect(r.stdout.contains("complete -o filenames -F _retrystorm retrystorm"))
        case "zsh": #expect(r.stdout.hasPrefix("#compdef retrystorm"))
        default: #expect(r.stdout.contains("complete -c 'retrystorm'"))
        }
        let unknown = try CLI.run(["--generate-completion-script", "tcsh"])
        #expect(unknown.status == 2 && unknown.stderr.hasPrefix("retrystorm: error: "))
    }

    @Test("docs/retrystorm.1 is what `retrystorm manual` prints, with every command's help in it")
    func manual() throws {
        let r = try CLI.run(["manual"])
        #expect(r.status == 0 && r.stderr.isEmpty)
        let committed = try CLI.read(CLI.packageRoot.appendingPathComponent("docs/retrystorm.1"))
        #expect(r.stdout == committed, "docs/retrystorm.1 is out of date: retrystorm manual > docs/retrystorm.1")
        #expect(r.stdout.hasPrefix(".TH RETRYSTORM 1 \"\" \"RetryStorm "))
        for command in Self.commands { #expect(r.stdout.contains("\n.SS retrystorm \(command)\n"), "\(command)") }
        for nested in ["policy export", "policy import"] { #expect(r.stdout.contains("\n.SS retrystorm \(nested)\n")) }
        // The text of `run --help`, as roff: every option there is in the page.
        let help = try CLI.run(["run", "--help"]).stdout
        for option in help.matches(of: #/--[a-z][a-z-]+/#).map({ String($0.output) }) {
            #expect(r.stdout.contains(option.replacingOccurrences(of: "-", with: "\\-")), "\(option)")
        }
        // No line starts a request by accident: every line is a macro we wrote or guarded text.
        for line in r.stdout.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
            #expect([".TH", ".SH", ".SS", ".nf", ".fi", ".B ", ".I ", ".RI"].contains { line.hasPrefix($0) }, "\(line)")
        }
    }
}
