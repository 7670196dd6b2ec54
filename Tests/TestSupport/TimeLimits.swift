import Foundation
import Testing

/// The time limits of the engine's and the CLI's suites (`@Suite(.timeLimit(.engine))`), so that a
/// livelock fails the suite in minutes instead of hanging the run: a breaker that never let an
/// attempt through once spun the root suite for 11 minutes. Swift Testing counts them per test
/// (per case of a parameterized one) and in whole minutes.
///
/// A limit bounds the whole parallel run, not the test alone: a test's clock runs while it waits
/// for a thread of the cooperative pool (as many threads as cores), and the CLI suites hold those
/// threads while they wait for the binary. On the 2-core machine the whole release suite took
/// 97–151 s alone in November 2026 (`swift test -c release --skip-build`) and 670 s in a clean
/// clone's CI in December, when the suite had grown and checked bench-chain whole at every event:
/// there limits of 10 minutes failed 129 tests that had waited their turn, among them tests that
/// take milliseconds (with two other builds running, limits of 1 and 3 minutes had done the same
/// in November). So each limit is about twice the longest run seen, and a livelock still ends the
/// run within 21 minutes.
extension TimeLimitTrait.Duration {
    /// Engine suites. Alone, the longest takes 1.1 s in release (`swift test -c release
    /// --skip-build --filter ShortcutTests`) and 13 s in `make check-debug`'s build.
    public static var engine: Self { .minutes(20) }

    /// The two validations against queueing theory (QueueingTheoryTests, ModelValidationTests):
    /// hundreds of thousands of customers each, 4 s in release but 111 s in check-debug's build
    /// (which skips them; a plain debug `swift test` runs them).
    public static var validation: Self { .minutes(20) }

    /// CLI suites, which run the binary many times. One at a time (`swift test -c release
    /// --skip-build --no-parallel`, December 2026, beside a build at nice 19) the longest took
    /// 78–86 s (GraphSurfaceFuzzTests, FuzzTests, InputFuzzTests), after ExperimentTests' 350 s
    /// before bench-chain was scaled down there.
    public static var cli: Self { .minutes(20) }

    /// `make bench`'s in-process benchmark: RUNS pairs of bench-fleet runs (a million clients), not a test to bound tightly.
    public static var benchmark: Self { .minutes(30) }
}

/// Ends the test process when a test is still running a minute past its time limit, naming it.
///
/// Swift Testing records "Time limit was exceeded" when a test's limit passes and cancels its
/// task, but a livelock never looks at cancellation: the issue is recorded and the run goes on
/// spinning (checked with a test in a busy loop under `.timeLimit(.minutes(1))`: the issue came
/// at 60 s, the run was still going at 5 minutes; with this trait it ended at 2 minutes, status 1).
/// Give it beside the time limit: `@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)`.
public struct EndsRunPastTimeLimit: TestTrait, SuiteTrait, TestScoping {
    /// How long after the limit the run is ended: time for a test that overran by a little to end
    /// by itself and report.
    static let grace = 60.0

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard let limit = test.timeLimit, !test.isSuite else { return try await function() }
        let name = test.displayName ?? test.name
        let seconds = Double(limit.components.seconds) + Self.grace
        let watchdog = DispatchWorkItem {
            FileHandle.standardError.write(
                Data(
                    "test '\(name)' is still running \(Int(Self.grace)) s past its time limit (a livelock?): ending the test run\n".utf8))
            exit(1)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        defer { watchdog.cancel() }
        try await function()
    }
}

extension Trait where Self == EndsRunPastTimeLimit {
    /// See ``EndsRunPastTimeLimit``.
    public static var endsRunPastTimeLimit: Self { Self() }
}
