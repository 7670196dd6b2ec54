import Foundation
import RetryPolicy
import RetryStormEngine
import RetryStormVocabulary

/// A scenario file resolved into simulations: the base scenario and its variants.
public struct LoadedScenario: Sendable {
    /// The file as given.
    public let path: String
    /// The file's text, as read.
    public let text: String
    /// The text results keep as scenario.yaml: `text` with every path to an input file replaced
    /// by the name of the copy kept beside it (``CopyNaming``); `text` itself when it names none.
    package let resultsText: String
    /// The input files the scenario and the points resolved from it name, each read once and
    /// shared (``InputFiles``): their records and copies go into the results.
    package let inputs: InputFiles
    /// The scenario with the file's keys and the overrides applied.
    public let base: Scenario
    /// The declared variants in file order, each the base with its own keys and then the overrides.
    public let variants: [(name: String, scenario: Scenario)]
    /// The question the scenario answers (`description`).
    public let description: String
    /// `expect:` — release gates judged after any command.
    public let expectations: [Located<String>]
    /// `grid:` — the parameters `sweep` and `tune` vary when no `--grid` is given.
    public let grid: [Located<String>]
    /// `objective:` and `constraints:` — what `tune` minimises and must respect.
    public let objective: Located<String>?
    /// `constraints:` — each entry's text as written, with where; empty when the file has none.
    public let constraints: [Located<String>]

    /// The file's own entries, each variant's, the `--set`/`--seed` entries, and the default name.
    let fileEntries: [Entry]
    let variantEntries: [[Entry]]
    package let overrideEntries: [Entry]
    let stem: String

    /// Refuses a `--set` (or `--seed`) on a key that the study also varies — by a variant's own
    /// key, or by `--vary`/`--grid` (`paths`, from `source`): the option would silently give every
    /// point the same value while the points stay labelled apart.
    package func checkNoConflict(varying paths: [String], source: String) throws(ScenarioError) {
        for o in overrideEntries where paths.contains(o.path) {
            throw ScenarioError(o.location, field: o.path, "conflicts with \(source) \(o.path), which sets it per point: drop one of the two")
        }
    }

    /// ``checkNoConflict(varying:source:)`` for the keys the declared variants set.
    package func checkNoConflictWithVariants() throws(ScenarioError) {
        for (v, entries) in zip(variants, variantEntries) {
            for e in entries {
                if let o = overrideEntries.first(where: { $0.path == e.path }) {
                    throw ScenarioError(
                        o.location, field: o.path,
                        "conflicts with variant '\(v.name)', which sets it (at \(e.location)): drop the option or the variant's key")
                }
            }
        }
    }

    /// The base scenario with `extra` entries applied after the file's and before the overrides —
    /// one point of a `--vary` or `--grid` study.
    package func scenario(applying extra: [(path: String, value: String)], source: String) throws(ScenarioError) -> Scenario {
        var entries: [Entry] = []
        for (path, value) in extra {
            let here = SourceLocation(origin: .option("\(source) \(path)=\(value)"))
            guard ScenarioSchema.field(at: path) != nil else { throw ScenarioError(here, field: path, ScenarioSchema.unknownKeyMessage(path)) }
            entries.append(Entry(path: path, text: value, location: here))
        }
        return try ScenarioLoader.resolve(fileEntries + entries + overrideEntries, defaultName: stem, inputs: inputs).scenario
    }

    /// Where `path` was last set (by the file or an override), or the file itself.
    package func location(of path: String) -> SourceLocation {
        (fileEntries + overrideEntries).last { $0.path == path }?.location ?? SourceLocation(origin: .file(self.path))
    }

    /// The field kind of a scenario key, for generating typed values (sweep ranges).
    package static func kind(of path: String) -> FieldKind? { ScenarioSchema.field(at: path)?.kind }
}
