import Foundation

/// The result directories the report's tests draw from (Tests/RetryStormReportTests/Fixtures,
/// made by its make-fixtures.sh) and the goldens drawn from them (its Fixtures/golden/<directory>/).
/// The report's tests compare what they draw; the kit's tests redraw copies on disk.
public enum ChartsFixtures {
    /// Where the fixtures are, relative to the package root.
    public static let folder = "Tests/RetryStormReportTests/Fixtures"

    /// run-2reps: a `run` with 2 replications; compare: three variants with compare.csv;
    /// sweep: a 3 × 3 grid with sweep.csv and tune.json; sweep-1d: a tune over one key, refined
    /// (values unevenly spaced); sweep-invalid: a 3 × 3 sweep with invalid combinations left out;
    /// populations: two rollout stages of a fleet with two client populations; services: two
    /// variants of a call graph (api calling db twice and cache).
    public static let directories = ["run-2reps", "compare", "sweep", "sweep-1d", "sweep-invalid", "populations", "services"]

    /// The path of fixture `directory` (or of a file in it: `compare/command.txt`).
    public static func path(_ directory: String) -> String { Repository.url("\(folder)/\(directory)").path }

    /// The goldens drawn from fixture `directory`.
    public static func golden(_ directory: String) -> Golden { Golden("\(folder)/golden/\(directory)") }

    /// A fresh copy of a fixture directory in a temporary directory, named `name`.
    public static func copy(_ directory: String, as name: String = UUID().uuidString) throws -> String {
        let target = try Scratch.directory("retrystorm-charts").appendingPathComponent(name)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: path(directory)), to: target)
        return target.path
    }
}
