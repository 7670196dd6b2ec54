import RetryStormEngine
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// `services.NAME.calls.TO.stage`: the order the loader gives a service's calls, and the one
/// conflict it refuses, naming the file, line and field.
struct StageKeyTests {
    static let base = "horizon: 30s\nclients: {count: 50, rate: 1/s, timeout: 2s}\n"

    func load(_ yaml: String) throws(ScenarioError) -> Scenario {
        try ScenarioLoader.parse(text: Self.base + yaml, path: "b.yaml", overrides: []).base
    }

    static func graph(_ calls: String) -> String {
        """
        services:
          - name: checkout
            calls:
        \(calls)
          - name: inventory
          - name: payment
          - name: db

        """
    }

    @Test("without stages the calls run as listed, each alone")
    func unstaged() throws {
        let s = try load(Self.graph("      - {to: payment}\n      - {to: inventory}\n      - {to: db}"))
        #expect(s.services[0].calls.map(\.to) == [2, 1, 3])
        #expect(s.services[0].calls.map(\.stage) == [nil, nil, nil])
    }

    /// db (stage 2) is listed first but runs after the two calls of stage 1, which keep their
    /// listed order (payment, inventory). An unstaged call takes the stage after the call listed
    /// before it: the first call's is 1, so payment (stage 1) joins it; after a stage 2, it is 3.
    @Test("calls sorted by stage, the list's order kept within one, an unstaged call one stage after the call before it")
    func sorted() throws {
        let calls = "      - {to: db, stage: 2}\n      - {to: payment, stage: 1}\n      - {to: inventory, stage: 1}"
        let s = try load(Self.graph(calls))
        #expect(s.services[0].calls.map(\.to) == [2, 1, 3])
        let s2 = try load(Self.graph("      - {to: inventory}\n      - {to: payment, stage: 1}\n      - {to: db}"))
        #expect(s2.services[0].calls.map(\.to) == [1, 2, 3])
        #expect(s2.services[0].calls.map(\.stage) == [1, 1, 2])
        let s3 = try load(Self.graph("      - {to: inventory, stage: 2}\n      - {to: payment}\n      - {to: db, stage: 1}"))
        #expect(s3.services[0].calls.map(\.to) == [3, 1, 2])
        #expect(s3.services[0].calls.map(\.stage) == [1, 2, 3])
    }

    @Test("a sequential count in a shared stage is refused; alone in its stage, or parallel, it is not")
    func sequentialInSharedStage() throws {
        let yaml = Self.graph("      - {to: inventory, stage: 1, count: 3}\n      - {to: payment, stage: 1}")
        do {
            _ = try load(yaml)
            Issue.record("accepted a sequential count in a shared stage")
        } catch {
            #expect(
                error.description
                    == "b.yaml:6:32: field 'services.checkout.calls.inventory.parallel': is false with count 3, but stage 1 also holds the call to payment: a stage's calls go out together (set parallel: true, or give the calls their own stages)"
            )
        }
        _ = try load(Self.graph("      - {to: inventory, stage: 1, count: 3, parallel: true}\n      - {to: payment, stage: 1}"))
        _ = try load(Self.graph("      - {to: inventory, stage: 1, count: 3}\n      - {to: payment, stage: 2}"))
    }

    @Test("a stage out of range names its field")
    func outOfRange() {
        do {
            _ = try load(Self.graph("      - {to: inventory, stage: 17}"))
            Issue.record("accepted stage 17")
        } catch {
            #expect(error.description.hasPrefix("b.yaml:6:32: field 'services.checkout.calls.inventory.stage': "))
        }
    }
}
