// A test that imports RetryStormKit reads scenarios and results as one library, so these modules
// are re-exported: it builds or changes a `Scenario` in Swift (the engine's value types), writes a
// `ClientPolicy` of its own (the policy library), reads `SummaryRecord`, `StatisticRecord` and
// `Metric` (the results model), `LoadedScenario` (the scenario format) and catches `ScenarioError`
// (the vocabulary). Only those value types are public in them: the simulator, the codecs, the
// loaders, the tables and the formatting the CLI shares across modules are `package`, so that
// `import RetryStormKit` shows the facade and what it returns (api/RetryStormKit.txt lists it).
// The charts, the report and the terminal tables (RetryStormReport) are the CLI's: drawn into a
// directory by `ExperimentResults.write(to:)`, not re-exported.
@_exported import RetryPolicy
@_exported import RetryStormEngine
@_exported import RetryStormResults
@_exported import RetryStormScenario
@_exported import RetryStormVocabulary
