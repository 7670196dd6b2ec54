import ArgumentParser

/// `retrystorm policy …`: the policy a scenario simulates, for the app that ships it.
struct PolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Work with a scenario's retry policy as a file an app loads, or a service ships.",
        subcommands: [PolicyExport.self, PolicyImport.self])
}
