import ArgumentParser
import Foundation
import RetryStormKit

/// Turns the library's typed errors into one message on stderr and the documented exit status.
enum CLIErrors {
    static let expectationFailed: Int32 = 1
    static let badInput: Int32 = 2
    static let internalFailure: Int32 = 3

    struct Failure: Error, CustomStringConvertible {
        let message: String
        let status: Int32
        /// Further errors of the same input, one line each after `message`.
        var more: [String] = []
        var description: String { message }
    }

    static func scenario<T>(_ body: () throws(ScenarioError) -> T) throws -> T {
        do { return try body() } catch { throw Failure(message: error.description, status: badInput, more: error.more.map(\.description)) }
    }

    static func output<T>(_ body: () throws(OutputError) -> T) throws -> T {
        do { return try body() } catch { throw Failure(message: error.message, status: badInput) }
    }

    /// Bad input in a run directory (missing, or a file that does not hold what RetryStorm writes).
    static func runDirectory<T>(_ body: () throws(ResultsError) -> T) throws -> T {
        do { return try body() } catch { throw Failure(message: error.message, status: badInput) }
    }

    static func internalError(_ message: String) -> Failure {
        Failure(message: "internal error: \(message) (please report this with the scenario and seed)", status: internalFailure)
    }
}
