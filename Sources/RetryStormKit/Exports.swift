// A program that imports RetryStormKit works with scenarios, results and reports as one library.
@_exported import RetryStormReport
@_exported import RetryStormResults
@_exported import RetryStormScenario
