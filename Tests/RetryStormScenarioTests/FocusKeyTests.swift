import RetryStormEngine
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// `focus:` (issue 40): the service a call graph is judged at. It must name a service of the
/// graph, and a study has one, so variants cannot set it; each refusal is one line naming the
/// file, line and field.
struct FocusKeyTests {
    /// Four lines, so that a variant's key is on line 10.
    static let graph = """
        horizon: 30s
        clients: {count: 50, rate: 1/s, timeout: 2s}
        services:
          - name: api
            server: {capacity: 200/s}
            calls: [{to: db}]
          - name: db
            server: {capacity: 100/s}

        """

    func load(_ yaml: String, overrides: [String] = []) throws(ScenarioError) -> LoadedScenario {
        try ScenarioLoader.parse(text: yaml, path: "g.yaml", overrides: overrides)
    }

    @Test("focus names a service, from the file or from --focus (as the key); absent, it is nil (where the storm lands)")
    func named() throws {
        #expect(try load(Self.graph).base.focus == nil)
        #expect(try load(Self.graph + "focus: api\n").base.focus == "api")
        #expect(try load(Self.graph + "focus: api\n", overrides: ["focus=db"]).base.focus == "db")
        // Every variant is judged at the base's focus.
        let v = try load(Self.graph + "focus: db\nvariants:\n  - name: one\n    services.api.calls.db.policy.max_attempts: 1\n")
        #expect(v.variants.map(\.scenario.focus) == ["db"])
    }

    @Test(
        "focus refusals name the file, line and field",
        arguments: [
            (graph + "focus: dbx\n", [String](), "g.yaml:9:8: field 'focus': names no service ('dbx'; services: api, db). Did you mean 'db'?"),
            (
                "horizon: 30s\nfocus: db\n", [],
                "g.yaml:2:8: field 'focus': names a service of a call graph, and this scenario has no services:"
            ),
            (
                graph + "variants:\n  - name: other\n    focus: api\n", [],
                "g.yaml:11:12: field 'focus': is one per study, so that every point is judged at the same service: set it at the top level or with --focus"
            ),
            (
                graph, ["focus=cache"],
                "--set focus=cache: field 'focus': names no service ('cache'; services: api, db)."
            )
        ])
    func refused(yaml: String, overrides: [String], message: String) {
        do {
            _ = try load(yaml, overrides: overrides)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.description == message)
        }
    }
}
