import RetryPolicy
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// Helpers of the policy-format suites: import a file's text, turn the keys into the policy a
/// scenario runs, drive that policy over a run of failures, export it and read it back.
enum PolicyFormatSupport {
    static func importing(_ text: String, _ request: PolicyImportRequest = PolicyImportRequest(), file: String = "svc.json") throws(ScenarioError)
        -> ImportedPolicy
    {
        try PolicyImporter.parse(Array(text.utf8), file: file, request: request)
    }

    /// The policy a scenario holding exactly the imported keys runs.
    static func policy(_ imported: ImportedPolicy) throws -> RetryPolicy {
        try ScenarioLoader.parse(text: imported.yaml, path: "imported.yaml").base.policy
    }

    /// The policy of a call graph's call whose `policy:` holds exactly the imported keys (the
    /// clients' policy may not hedge yet; a call's may).
    static func edgePolicy(_ imported: ImportedPolicy) throws -> RetryPolicy {
        let block = imported.yaml.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")
        let text = "services:\n  - name: api\n    calls:\n      - to: db\n\(block)\n  - name: db\n"
        return try #require(try ScenarioLoader.parse(text: text, path: "edge.yaml").base.services.first?.calls.first).policy
    }

    /// The refusal of `text`, as `file:line:column: field 'path': message`; nil when it imports.
    static func refusal(_ text: String, _ request: PolicyImportRequest = PolicyImportRequest(), file: String = "svc.json") -> String? {
        do {
            _ = try importing(text, request, file: file)
            return nil
        } catch {
            return error.description
        }
    }

    /// The delays (ns) before each retry of an operation whose every attempt fails with `failure`,
    /// with every random draw `r`, until the policy stops retrying.
    static func delays(_ p: RetryPolicy, failure: NormalizedError, r: Double) -> [Nanoseconds] {
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(r)
        var record = OperationRecord()
        var now: Nanoseconds = 0
        var out: [Nanoseconds] = []
        while out.count < 20 {
            guard p.admit(record: &record, host: &host, now: now, random: &random) == .proceed else { break }
            p.attemptStarted(record: &record, host: &host, now: now)
            guard case .retry(let at) = p.decide(after: failure, record: &record, host: &host, now: now, random: &random) else { break }
            out.append(at - now)
            now = at
        }
        return out
    }

    /// Whether `p` retries `failure` (first attempt of a fresh operation, budget full).
    static func retries(_ p: RetryPolicy, _ failure: NormalizedError) -> Bool {
        !delays(p, failure: failure, r: 0.5).isEmpty
    }

    /// The keys without their sources: what a scenario gets.
    static func values(_ i: ImportedPolicy) -> [String] { i.keys.map { "\($0.path)=\($0.value)" } }

    /// import → policy → export → import: the second import's keys and policy must be the first's,
    /// and the export must say that it lost nothing.
    static func checkRoundTrip(_ text: String, _ request: PolicyImportRequest, file: String) throws {
        let first = try importing(text, request, file: file)
        let p1 = try policy(first)
        // Envoy's per_try_timeout is clients.timeout; without one, the export has none to write either.
        let timeout =
            first.value(of: "clients.timeout").map { _ in try? ScenarioLoader.parse(text: first.yaml, path: "i.yaml").base.clients.timeout } ?? nil
        let written = PolicyExporter.export(
            p1, attemptTimeout: timeout, format: first.format, service: request.service,
            method: request.method)
        #expect(written.notes.isEmpty, "\(written.notes)")
        let second = try importing(
            written.text, PolicyImportRequest(format: first.format, service: request.service, method: request.method), file: "back")
        #expect(values(second) == values(first), "\(written.text)")
        #expect(try policy(second) == p1)
    }
}
