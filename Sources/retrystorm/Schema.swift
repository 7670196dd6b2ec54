import ArgumentParser
import RetryStormKit

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a JSON Schema of the scenario format, for editors.",
        discussion: """
            Example (VS Code with the YAML extension): retrystorm schema > retrystorm.schema.json, then
            add `# yaml-language-server: $schema=retrystorm.schema.json` as a scenario's first line.
            """)

    func run() throws {
        Terminal.out(ScenarioReference.jsonSchema())
    }
}
