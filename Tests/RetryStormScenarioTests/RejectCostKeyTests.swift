import RetryStormEngine
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// `server.reject_cost`: a fraction of a request's work, on the queue model only (the contention
/// and flaky models have no workers for a rejection to cost), refused with its line and field.
struct RejectCostKeyTests {
    static let base = "horizon: 60s\nclients: {count: 100, rate: 1/s}\n"

    static func load(_ server: String) throws(ScenarioError) -> LoadedScenario {
        try ScenarioLoader.parse(text: base + server, path: "r.yaml")
    }

    @Test("a queue's reject cost reaches the model; 25% reads as 0.25; absent it is 0")
    func parsed() throws {
        for (text, expected) in [("server: {reject_cost: 0.4}\n", 0.4), ("server: {reject_cost: 25%}\n", 0.25), ("server: {capacity: 50/s}\n", 0)] {
            guard case .queue(let q) = try Self.load(text).base.server.model else {
                Issue.record("not a queue model")
                continue
            }
            #expect(q.rejectCost == expected, "\(text)")
        }
    }

    @Test(
        "out of range, or on a model without workers, is refused naming the field and line",
        arguments: [
            ("server: {reject_cost: 1.5}\n", "server.reject_cost", 3),
            ("server: {reject_cost: -0.1}\n", "server.reject_cost", 3),
            ("server:\n  model: flaky\n  reject_cost: 0.2\n", "server.reject_cost", 5),
            ("server:\n  model: contention\n  reject_cost: 0.2\n", "server.reject_cost", 5)
        ])
    func refused(text: String, field: String, line: Int) {
        #expect {
            try Self.load(text)
        } throws: { error in
            guard let e = error as? ScenarioError else { return false }
            return e.field == field && e.location.line == line
        }
    }
}
