import ArgumentParser
import Foundation
import RetryStormKit

// Parse and run by hand so every failure maps to one line and the documented exit status
// (argument-parser's own usage errors would exit 64 with a multi-line usage text; bad input here
// is always status 2 and one line).
do {
    var command = try RetryStorm.parseAsRoot()
    try command.run()
} catch let failure as CLIErrors.Failure {
    Interruption.abandonAll()
    // An expectations report keeps its lines; every other error is one line.
    let text = failure.status == CLIErrors.expectationFailed
        ? MessageText.escapedKeepingLines(failure.message) : MessageText.escaped(failure.message)
    FileHandle.standardError.write(Data("retrystorm: error: \(text)\n".utf8))
    exit(failure.status)
} catch {
    Interruption.abandonAll()
    let code = RetryStorm.exitCode(for: error)
    if code == .success {
        // --help, --version: the full text, as asked.
        print(RetryStorm.fullMessage(for: error))
        exit(0)
    }
    // argument-parser's message can span lines (a usage or help hint): keep what says what is wrong.
    let parts = RetryStorm.message(for: error).split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty && !$0.hasPrefix("Usage:") && !$0.hasPrefix("Help:") && !$0.hasPrefix("See '") }
    var line = parts.joined(separator: "; ")
    if line.hasPrefix("Error: ") { line.removeFirst(7) }
    if code == .validationFailure {
        let names = RetryStorm.configuration.subcommands.map { $0._commandName }
        let sub = CommandLine.arguments.dropFirst().first.flatMap { names.contains($0) ? $0 + " " : nil } ?? ""
        FileHandle.standardError.write(Data("retrystorm: error: \(MessageText.escaped(line)) (see retrystorm \(sub)--help)\n".utf8))
        exit(CLIErrors.badInput)
    }
    // Anything else escaped the commands' own error handling: a bug, reported as such.
    FileHandle.standardError.write(Data("retrystorm: error: \(CLIErrors.internalError(MessageText.escaped(line)).message)\n".utf8))
    exit(CLIErrors.internalFailure)
}
