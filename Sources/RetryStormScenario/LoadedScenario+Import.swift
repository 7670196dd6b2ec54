import RetryStormVocabulary

extension LoadedScenario {
    /// The policy file import that decides the policy of one scope of the base or of `variant`
    /// (its index among ``variants``): the clients' (`scope` empty), a population's
    /// (`populations.NAME.`) or a call's (`services.NAME.calls.TO.`); a population that imports
    /// nothing runs the clients' import. Nil when no file is imported there.
    ///
    /// An export reads it for what the policy value no longer holds: the gRPC status codes as the
    /// file listed them (``ImportedPolicy/grpcCodes``).
    package func importedPolicy(variant: Int?, scope: String) throws(ScenarioError) -> ImportedPolicy? {
        let entries = fileEntries + (variant.map { variantEntries[$0] } ?? []) + overrideEntries
        var own = scope
        var spec = entries.filter { $0.path.hasPrefix(own + PolicyImportKeys.prefix) }
        if spec.isEmpty && scope.hasPrefix(ScenarioSchema.populationPrefix) {
            own = ""
            spec = entries.filter { $0.path.hasPrefix(PolicyImportKeys.prefix) }
        }
        guard !spec.isEmpty else { return nil }
        return try PolicyImportKeys.read(spec, scope: own, inputs: inputs)?.policy
    }
}
