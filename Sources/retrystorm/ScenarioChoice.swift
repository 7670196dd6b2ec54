import ArgumentParser
import RetryStormKit

/// The one scenario of a file a command works on: its base, or the variant named by `--variant`.
enum ScenarioChoice {
    /// Loads `path` with `overrides` (and `seed`, if given) and picks `variant` or the base.
    /// - Throws: bad input as ``CLIErrors``; an unknown variant as a `ValidationError` naming the file's variants.
    static func load(path: String, overrides: [String], seed: UInt64?, variant: String?) throws -> Scenario {
        let loaded = try CLIErrors.scenario { () throws(ScenarioError) in
            try ScenarioLoader.load(path: path, overrides: overrides, seed: seed, focus: nil)
        }
        guard let variant else { return loaded.base }
        guard let found = loaded.variants.first(where: { $0.name == variant }) else {
            let names = loaded.variants.map(\.name).joined(separator: ", ")
            throw ValidationError("--variant \(variant): no such variant in \(path)\(names.isEmpty ? "" : " (it has \(names))")")
        }
        return found.scenario
    }
}
