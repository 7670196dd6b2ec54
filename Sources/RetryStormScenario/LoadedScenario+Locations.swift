import RetryStormVocabulary

/// Where the keys of a loaded scenario were set, for messages that name the key to turn: the
/// resource guard's refusals name the input that drives an estimate with its file and line (or
/// its option).
extension LoadedScenario {
    /// The keys that set the load's multiplier over time, one way each (they exclude one another).
    package static let loadKeys = ["load.spike.multiplier", "load.profile", "load.csv"]

    /// The key matching `matches` that the file or an override (`--set`, `--seed`) set last
    /// (first, with `first`), and where; nil when none is set.
    package func setting(first: Bool = false, where matches: (String) -> Bool) -> (path: String, location: SourceLocation)? {
        let entries = fileEntries + overrideEntries
        let found = first ? entries.first { matches($0.path) } : entries.last { matches($0.path) }
        return found.map { ($0.path, $0.location) }
    }

    /// Where each key of the declared variant at `index` was set by the variant itself.
    package func locations(ofVariant index: Int) -> [String: SourceLocation] {
        guard variantEntries.indices.contains(index) else { return [:] }
        return Dictionary(variantEntries[index].map { ($0.path, $0.location) }, uniquingKeysWith: { _, last in last })
    }
}
