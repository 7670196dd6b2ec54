import ArgumentParser
import Foundation

// Parse and run by hand so every failure maps to one message and the documented exit status
// (argument-parser's own usage errors would exit 64; bad input here is always 2).
do {
    var command = try RetryStorm.parseAsRoot()
    try command.run()
} catch let failure as CLIErrors.Failure {
    FileHandle.standardError.write(Data("retrystorm: error: \(failure.message)\n".utf8))
    exit(failure.status)
} catch {
    let code = RetryStorm.exitCode(for: error)
    if code == .success {
        print(RetryStorm.fullMessage(for: error))
        exit(0)
    }
    FileHandle.standardError.write(Data((RetryStorm.fullMessage(for: error) + "\n").utf8))
    exit(code == .validationFailure ? CLIErrors.badInput : code.rawValue)
}
