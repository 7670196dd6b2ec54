import ArgumentParser
import Foundation
import RetryStormKit

// Parse and run by hand so every failure maps to one line and the documented exit status
// (argument-parser's own usage errors would exit 64 with a multi-line usage text; bad input here
// is always status 2 and one line).
// First: no signal, closed pipe or file-size limit may end any command before its handlers are in.
Interruption.install()
if let refusal = MachineLimits.startupRefusal() {
    Terminal.error("retrystorm: error: \(refusal)\n")
    exit(CLIErrors.badInput)
}
do {
    var command = try RetryStorm.parseAsRoot()
    try command.run()
} catch let failure as CLIErrors.Failure {
    Interruption.abandonAll()
    // An expectations report keeps its lines; every other error is one line.
    let text =
        failure.status == CLIErrors.expectationFailed
        ? MessageText.escapedKeepingLines(failure.message) : MessageText.escaped(failure.message)
    Terminal.error("retrystorm: error: \(text)\n")
    for line in failure.more { Terminal.error("retrystorm: error: \(MessageText.escaped(line))\n") }
    exit(failure.status)
} catch {
    Interruption.abandonAll()
    let code = RetryStorm.exitCode(for: error)
    if code == .success {
        // --help, --version: the full text, as asked.
        Terminal.line(RetryStorm.fullMessage(for: error))
        exit(0)
    }
    // argument-parser's message can span lines (a usage or help hint): keep what says what is wrong.
    let parts = RetryStorm.message(for: error).split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty && !$0.hasPrefix("Usage:") && !$0.hasPrefix("Help:") && !$0.hasPrefix("See '") }
    // A part that ends a sentence or introduces a list runs on with a space, others with "; ".
    var line = parts.dropFirst().reduce(parts.first ?? "") { $0 + ($0.hasSuffix(".") || $0.hasSuffix(":") ? " " : "; ") + $1 }
    if line.hasPrefix("Error: ") { line.removeFirst(7) }
    if code == .validationFailure {
        let names = RetryStorm.configuration.subcommands.map { $0._commandName }
        // A first word that is no command and no option is a misspelt command: name the nearest.
        if let word = CommandLine.arguments.dropFirst().first, !word.hasPrefix("-"), !names.contains(word) {
            let hint = Suggest.nearest(word, in: names).map { "; did you mean '\($0)'?" } ?? " (commands: \(names.joined(separator: ", ")))"
            Terminal.error("retrystorm: error: '\(MessageText.escaped(word))' is not a command\(hint) (see retrystorm --help)\n")
            exit(CLIErrors.badInput)
        }
        let sub = CommandLine.arguments.dropFirst().first.flatMap { names.contains($0) ? $0 + " " : nil } ?? ""
        Terminal.error("retrystorm: error: \(MessageText.escaped(line)) (see retrystorm \(sub)--help)\n")
        exit(CLIErrors.badInput)
    }
    // Anything else escaped the commands' own error handling: a bug, reported as such.
    Terminal.error("retrystorm: error: \(CLIErrors.internalError(MessageText.escaped(line)).message)\n")
    exit(CLIErrors.internalFailure)
}
