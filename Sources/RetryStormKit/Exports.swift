// A program that imports RetryStormKit works with scenarios and results as one library: it can
// build a `Scenario` in Swift (the engine's types) and write a `ClientPolicy` of its own (the
// policy library's) without importing either, and names `Format`, `ScenarioError` or
// `ResultsError` (the vocabulary's) as it did when they were the scenario module's. The charts,
// the report and the terminal tables (RetryStormReport) are the CLI's: drawn into a directory by
// `ExperimentResults.write(to:)`, not re-exported.
@_exported import RetryPolicy
@_exported import RetryStormEngine
@_exported import RetryStormResults
@_exported import RetryStormScenario
@_exported import RetryStormVocabulary
