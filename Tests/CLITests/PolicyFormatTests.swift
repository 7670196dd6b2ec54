import Foundation
import RetryPolicy
import RetryStormKit
import TestSupport
import Testing

/// `retrystorm policy import` and `policy export --format`, as a platform team uses them: print
/// the keys of the file a service ships, gate a scenario on that file, and write a simulated
/// policy back in the service's format.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct PolicyFormatTests {
    /// gRFC A6's example retry policy and throttling, for one method.
    static let serviceConfig = """
        {
          "methodConfig": [{
            "name": [{"service": "shop.Cart", "method": "Checkout"}],
            "timeout": "2s",
            "retryPolicy": {
              "maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s",
              "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]
            }
          }],
          "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}
        }

        """

    static let scenario = """
        horizon: 30s
        clients: {count: 200, rate: 0.5/s, timeout: 1s}
        server: {capacity: 100/s, outage: {at: 5s, duration: 5s, fraction: 0.2, recovery: instant}}
        policy:
          import: {file: service-config.json, service: shop.Cart, method: Checkout}
        expect:
          - amplification<=3

        """

    func project() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try Self.serviceConfig.write(to: dir.appendingPathComponent("service-config.json"), atomically: true, encoding: .utf8)
        try Self.scenario.write(to: dir.appendingPathComponent("gate.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test("import prints the keys as YAML a scenario takes, each with its field, and the approximations on stderr")
    func importKeys() throws {
        let dir = try project()
        let r = try CLI.run(["policy", "import", "service-config.json", "--service", "shop.Cart", "--method", "Checkout"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("  max_attempts: 4  # methodConfig[0].retryPolicy.maxAttempts\n"))
        #expect(r.stdout.contains("    retryable_statuses: 502-503  # methodConfig[0].retryPolicy.retryableStatusCodes\n"))
        #expect(r.stderr.contains("retrystorm: note: service-config.json: methodConfig[0].timeout: approximated:"))
        // What it prints is a scenario's policy: the same as importing the file in the scenario.
        try ("horizon: 30s\n" + r.stdout).write(to: dir.appendingPathComponent("pasted.yaml"), atomically: true, encoding: .utf8)
        let pasted = try ScenarioLoader.load(path: dir.appendingPathComponent("pasted.yaml").path)
        let gated = try ScenarioLoader.load(path: dir.appendingPathComponent("gate.yaml").path)
        #expect(pasted.base.policy == gated.base.policy)
    }

    @Test(
        "bad input is exit 2 and one line naming the file, the line and the field",
        arguments: [
            (
                "{\"methodConfig\": [{\"hedgingPolicy\": {}}]}",
                "svc.json:1:37: field 'methodConfig[0].hedgingPolicy': needs maxAttempts (gRFC A6: required)"
            ),
            (
                "{\"retryThrottling\": {\"maxTokens\": \"ten\", \"tokenRatio\": 0.1}}",
                "field 'retryThrottling.maxTokens': expected a whole number (got the text 'ten')"
            ),
            (
                "{\"retryThrottling\": {\"maxTokens\": 10, \"tokenRatio\": 0.1}, \"retryThrottling\": {}}",
                "svc.json:1:2: field 'retryThrottling': is given twice in one mapping"
            ),
            ("{\"methodConfig\": [", "svc.json:2:1: invalid YAML: did not find expected node content"),
            ("\u{FF}\u{FE}", "svc.json: is not UTF-8 text")
        ])
    func badInput(_ text: String, _ message: String) throws {
        let dir = try CLI.temporaryDirectory()
        try Data(text == "\u{FF}\u{FE}" ? [0xFF, 0xFE] : Array(text.utf8)).write(to: dir.appendingPathComponent("svc.json"))
        let r = try CLI.run(["policy", "import", "svc.json"], in: dir)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("retrystorm: error: svc.json"), "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test("every refusal of a file is a line of its own, exit 2, nothing on stdout")
    func everyRefusal() throws {
        let dir = try CLI.temporaryDirectory()
        try "{\"methodConfig\": [{\"timout\": \"1s\", \"waitForReady\": true}], \"retryThrottling\": {\"maxTokens\": 0, \"tokenRatio\": 0.1}}"
            .write(to: dir.appendingPathComponent("svc.json"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["policy", "import", "svc.json"], in: dir)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(r.stderr)")
        #expect(lines.allSatisfy { $0.hasPrefix("retrystorm: error: svc.json:1:") }, "\(r.stderr)")
        #expect(lines[0].contains("field 'methodConfig[0].timout': is not a field this importer knows"))
        #expect(lines[1].hasSuffix("(to import the rest, list it to ignore: --ignore waitForReady)"))
        #expect(lines[2].contains("field 'retryThrottling.maxTokens': must be 1…1000"))
    }

    @Test("the --ignore hint's short name is what --ignore takes: the import then succeeds")
    func ignoreShortName() throws {
        let dir = try CLI.temporaryDirectory()
        // A route configuration (RDS): the field's path is virtual_hosts[0].routes[0].route.retry_policy.retry_priority.
        try """
        virtual_hosts:
        - name: shop
          routes:
          - name: checkout
            route: {cluster: cart, retry_policy: {retry_on: 5xx, retry_priority: {name: previous_priorities}}}

        """.write(to: dir.appendingPathComponent("envoy.yaml"), atomically: true, encoding: .utf8)
        let refused = try CLI.run(["policy", "import", "envoy.yaml"], in: dir)
        #expect(refused.status == 2)
        #expect(refused.stderr.hasSuffix("(to import the rest, list it to ignore: --ignore retry_priority)\n"), "\(refused.stderr)")
        let ignored = try CLI.run(["policy", "import", "envoy.yaml", "--ignore", "retry_priority"], in: dir)
        #expect(ignored.status == 0, "\(ignored.stderr)")
        #expect(ignored.stderr.contains("retry_priority: ignored as asked"))
    }

    @Test("an AWS profile imports by --profile; a gRPC-born policy exports Envoy's gRPC conditions")
    func awsAndGRPCToEnvoy() throws {
        let dir = try project()
        try "[default]\nretry_mode = standard\n\n[profile ci]\nmax_attempts = 6\n".write(
            to: dir.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        let aws = try CLI.run(["policy", "import", "config", "--profile", "ci"], in: dir)
        #expect(aws.status == 0, "\(aws.stderr)")
        #expect(aws.stdout.contains("  preset: aws-standard-2026  # no retry_mode: read as standard, the SDKs' default since November 2026"))
        #expect(aws.stdout.contains("  max_attempts: 6  # profile ci.max_attempts\n"))
        let envoy = try CLI.run(["policy", "export", "gate.yaml", "--format", "envoy"], in: dir)
        #expect(envoy.status == 0, "\(envoy.stderr)")
        #expect(envoy.stdout.hasPrefix("retry_policy:\n  retry_on: unavailable,connect-failure\n"), "\(envoy.stdout)")
    }

    @Test("a scenario gates the file that ships: run judges it, a key it also decides is refused, results keep a copy")
    func gate() throws {
        let dir = try project()
        let r = try CLI.run(["run", "gate.yaml", "--out", "out"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("retrystorm: note: service-config.json: methodConfig[0].timeout: approximated:"))
        let kept = try String(contentsOf: dir.appendingPathComponent("out/scenario.yaml"), encoding: .utf8)
        #expect(kept.contains("import: {file: input-policy-import-file-"))
        // The results' own copy: the policy exports from them after the file is gone.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("service-config.json"))
        let fromResults = try CLI.run(
            ["policy", "export", "out", "--format", "grpc-service-config", "--service", "shop.Cart", "--method", "Checkout"], in: dir)
        #expect(fromResults.status == 0, "\(fromResults.stderr)")
        #expect(fromResults.stdout.contains("\"retryableStatusCodes\": [\"UNAVAILABLE\"]"))
        try (Self.scenario + "policy.max_attempts: 3\n").write(to: dir.appendingPathComponent("drift.yaml"), atomically: true, encoding: .utf8)
        try Self.serviceConfig.write(to: dir.appendingPathComponent("service-config.json"), atomically: true, encoding: .utf8)
        let drift = try CLI.run(["validate", "drift.yaml"], in: dir)
        #expect(drift.status == 2)
        #expect(
            drift.stderr.hasPrefix(
                "retrystorm: error: drift.yaml:8:22: field 'policy.max_attempts': is also decided by policy.import (service-config.json:6:"),
            "\(drift.stderr)")
    }

    @Test("docs/policy-formats.md quotes what `policy import` prints for the example in experiments/, keys and notes")
    func documented() throws {
        let r = try CLI.run(
            ["policy", "import", "experiments/grpc-service-config.json", "--service", "shop.Cart", "--method", "Checkout"], in: CLI.packageRoot)
        #expect(r.status == 0)
        let doc = try CLI.read(CLI.packageRoot.appendingPathComponent("docs/policy-formats.md"))
        #expect(doc.contains(r.stdout), "docs/policy-formats.md: paste the output of the command")
        #expect(doc.contains(r.stderr), "docs/policy-formats.md: paste the notes of the command")
    }

    @Test("shards of a scenario importing a policy file record it, and merge reads their copies after the file is gone")
    func shards() throws {
        let dir = try project()
        for i in 0..<2 {
            let r = try CLI.run(["run", "gate.yaml", "--replications", "2", "--shard", "\(i)/2", "--out", "s\(i)", "--jobs", "1"], in: dir)
            #expect([0, 1].contains(r.status), "\(r.stderr)")
        }
        let manifest = try CLI.read(dir.appendingPathComponent("s0/shard.json"))
        #expect(manifest.contains("\"key\" : \"policy.import.file\""))
        try FileManager.default.removeItem(at: dir.appendingPathComponent("service-config.json"))
        let merged = try CLI.run(["merge", "s0", "s1", "--out", "all"], in: dir)
        #expect([0, 1].contains(merged.status), "\(merged.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("all/summary.csv").path))
    }

    @Test("export --format writes what maps and names on stderr, field by field, what does not")
    func export() throws {
        let bare = CLI.fixture("bare.yaml").path
        // The envoy preset is Envoy's defaults: nothing is lost.
        let envoy = try CLI.run(["policy", "export", bare, "--set", "policy.preset=envoy", "--set", "clients.timeout=none", "--format", "envoy"])
        #expect(envoy.status == 0)
        #expect(envoy.stderr.isEmpty, "\(envoy.stderr)")
        #expect(envoy.stdout.hasPrefix("retry_policy:\n  retry_on: 5xx\n  num_retries: 1\n"))
        // The offline-first policy has a breaker and a per-run budget, which Envoy has not.
        let offline = try CLI.run(["policy", "export", bare, "--set", "policy.preset=offline-first", "--format", "envoy"])
        #expect(offline.status == 0)
        #expect(offline.stderr.contains("retrystorm: note: policy.breaker is "))
        #expect(offline.stderr.contains("retrystorm: note: policy.budget.kind is \"per-run\", which envoy does not carry"))
        // Decorrelated jitter has no gRPC form: A6 jitters ±20%.
        let grpc = try CLI.run(["policy", "export", bare, "--set", "policy.backoff.jitter=decorrelated", "--format", "grpc-service-config"])
        #expect(grpc.status == 0)
        #expect(
            grpc.stderr.contains(
                "retrystorm: note: policy.backoff.jitter is \"decorrelated\", which grpc-service-config does not carry: the file reads back as \"proportional\""
            ))
        // The default format is still the JSON policy file.
        let json = try CLI.run(["policy", "export", bare])
        #expect(json.stdout.contains("\"retrystorm_policy\" : 1"))
        let misuse = try CLI.run(["policy", "export", bare, "--format", "envoy", "--service", "shop.Cart"])
        #expect(misuse.status == 2)
        #expect(misuse.stderr == "retrystorm: error: --service and --method name a gRPC methodConfig: use them with --format grpc-service-config\n")
    }
}
