import Foundation
import RetryStormReport

/// A result directory read from disk, for `retrystorm chart` and `retrystorm report`
/// (``Redraw``): here at the edge, because the Report module draws from values and reads no file.
extension RunDirectory {
    /// Reads the result directory at `path` (``ResultsCodec/decode(directory:limits:)``) and its
    /// scenario with the `--set` of its command.txt, whose input files are the copies the
    /// directory keeps (``inputs(in:)``).
    /// - Throws: ``ResultsError`` naming the file, line and column of the first problem.
    package static func load(path: String) throws(ResultsError) -> RunDirectory {
        let results = try ResultsCodec.decode(directory: path)
        let scenarioPath = ResultsCodec.file(path, "scenario.yaml")
        let scenario: LoadedScenario
        do {
            // With the command's --set, as the command saw it: the charts' incident windows and the
            // report's warnings read the scenario the study ran, not the file as written.
            scenario = try ScenarioLoader.parse(
                text: results.scenario, path: scenarioPath, overrides: results.command?.scenarioOverrides ?? [], inputs: try inputs(in: path))
        } catch {
            throw ResultsError(error.description)
        }
        return try RunDirectory(results: results, scenario: scenario, path: path, variantScenarios: varied(results, scenario))
    }

    /// A compare's `--vary` variants, by name, with the values the command gave (from its
    /// command.txt), so that each panel shades its own incident when the values change it: the
    /// names and scenarios `Studies.compare` made, for the variants the results hold. Empty for
    /// other studies, or when the command's values no longer parse or no longer make the
    /// directory's variants (an edited command.txt: the panels then fall back to the base).
    static func varied(_ results: StudyResults, _ scenario: LoadedScenario) -> [String: Scenario] {
        guard results.kind == .compare, let command = results.command else { return [:] }
        let texts = command.values(of: "--vary")
        guard !texts.isEmpty,
            let specs = try? texts.map({ (v: String) throws(ScenarioError) -> GridSpec in
                try GridSpec.parse(v, at: SourceLocation(origin: .option("--vary \(v)")))
            }),
            (try? GridSpec.checkSize(specs)) != nil
        else { return [:] }
        let points = Set(results.summaries.map(\.variant))
        let product = GridSpec.product(specs)
        guard product.count == points.count else { return [:] }
        var out: [String: Scenario] = [:]
        for (name, values) in product where points.contains(name) {
            out[name] = try? scenario.scenario(applying: Array(zip(specs.map(\.path), values)), source: "--vary")
        }
        return out
    }

    /// The input files of the result directory at `path`: the copies it keeps, which its
    /// scenario.yaml names, and those inputs.json lists for the paths options gave (a sweep's
    /// grid values) — never the files the command named.
    package static func inputs(in path: String) throws(ScenarioError) -> InputFiles {
        let list = ResultsCodec.file(path, InputRecord.listName)
        guard FileManager.default.fileExists(atPath: list) else { return InputFiles(copiesIn: path, records: [], listedIn: list) }
        let bytes: [UInt8]
        do { bytes = try InputFile.read(list, cap: 16 << 20) } catch {
            throw ScenarioError(SourceLocation(origin: .file(list)), error.message)
        }
        return InputFiles(copiesIn: path, records: try InputRecord.decode(bytes, file: list), listedIn: list)
    }
}
