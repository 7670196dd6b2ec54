import Foundation
import RetryPolicy
import TestSupport
import Testing

/// `policy export` of a call graph says whose policy it writes, exports an edge's with
/// `--edge CALLER:CALLEE`, refuses to pick one silently, and keeps a graph's service apart from
/// the gRPC service a methodConfig names (issue 38, item 4). On main, every one of these exported
/// the clients' policy with exit 0 and nothing on stderr.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct EdgeExportTests {
    /// Clients of 3 attempts over a front whose calls to the back make 1 attempt of 500 ms.
    static let yaml = """
        name: edges
        horizon: 10s
        clients: {count: 20, timeout: 2s}
        policy: {max_attempts: 3, backoff: {kind: exponential, base: 100ms, max: 1s, jitter: full}}
        services:
          - name: front
            server: {capacity: 1000/s}
            calls:
              - to: back
                timeout: 500ms
                policy: {max_attempts: 1}
          - name: back
            server: {capacity: 1000/s}

        """

    /// A fresh directory holding `yaml` as x.yaml.
    static func directory(_ text: String = yaml) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try text.write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    static func decode(_ stdout: String) throws -> RetryPolicyFile {
        try JSONDecoder().decode(RetryPolicyFile.self, from: Data(stdout.utf8))
    }

    @Test("without --edge, a graph whose edges run policies of their own is refused, naming them and the clients' edge")
    func refusedWithoutEdge() throws {
        let dir = try Self.directory()
        let r = try CLI.run(["policy", "export", "x.yaml"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "retrystorm: error: x.yaml: the call graph's edges front:back run policies of their own: name one with --edge CALLER:CALLEE, or --edge clients:front for the clients'\n"
        )
        #expect(r.stdout.isEmpty)
    }

    /// The edge's policy is the 1 attempt of the file; the clients' the 3 of `policy:`.
    @Test("--edge exports that edge's policy, and stderr says whose it is")
    func edge() throws {
        let dir = try Self.directory()
        let r = try CLI.run(["policy", "export", "x.yaml", "--edge", "front:back"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "retrystorm: note: exports the policy of front's calls to back (services.front.calls.back.policy)\n")
        let file = try Self.decode(r.stdout)
        #expect(file.policy.maxAttempts == 1)
        #expect(file.source == "x.yaml, edge front:back")
        let clients = try CLI.run(["policy", "export", "x.yaml", "--edge", "clients:front"], in: dir)
        #expect(clients.status == 0, "\(clients.stderr)")
        #expect(clients.stderr == "retrystorm: note: exports the clients' policy (their calls to front)\n")
        let theirs = try Self.decode(clients.stdout)
        #expect(theirs.policy.maxAttempts == 3 && theirs.source == "x.yaml, edge clients:front")
    }

    /// Envoy's per_try_timeout carries the edge's 500 ms, not the clients' 2 s.
    @Test("an edge exported to Envoy carries the edge's timeout")
    func edgeTimeout() throws {
        let dir = try Self.directory()
        let r = try CLI.run(["policy", "export", "x.yaml", "--edge", "front:back", "--format", "envoy"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("per_try_timeout: 0.5s"), "\(r.stdout)")
        #expect(!r.stdout.contains("per_try_timeout: 2s"), "\(r.stdout)")
    }

    @Test(
        "a wrong --edge is one line naming what there is",
        arguments: [
            (
                "front:nope",
                "retrystorm: error: x.yaml: no edge named 'front:nope' (its edges: clients:front, front:back)\n"
            ),
            ("front", "retrystorm: error: --edge 'front': give the caller and the callee, e.g. --edge front:back\n"),
            ("back:front", "retrystorm: error: x.yaml: no edge named 'back:front' (its edges: clients:front, front:back)\n")
        ])
    func wrongEdge(edge: String, expected: String) throws {
        let dir = try Self.directory()
        let r = try CLI.run(["policy", "export", "x.yaml", "--edge", edge], in: dir)
        #expect(r.status == 2 && r.stderr == expected, "\(r.stderr)")
    }

    @Test("--edge on a scenario without a call graph, and with --population, is refused")
    func edgeMisuse() throws {
        let dir = try Self.directory("horizon: 10s\nclients: {count: 20}\n")
        let r = try CLI.run(["policy", "export", "x.yaml", "--edge", "front:back"], in: dir)
        #expect(
            r.status == 2 && r.stderr == "retrystorm: error: x.yaml: --edge 'front:back': the scenario has no call graph (services:)\n", "\(r.stderr)"
        )
        let graph = try Self.directory(Self.yaml + "populations:\n  - {name: a, share: 50%}\n  - {name: b, share: 50%}\n")
        let both = try CLI.run(["policy", "export", "x.yaml", "--edge", "front:back", "--population", "a"], in: graph)
        #expect(
            both.status == 2
                && both.stderr
                    == "retrystorm: error: --population names a group of clients and --edge front:back a service's calls: give one of them\n",
            "\(both.stderr)")
    }

    /// `--service back` named the gRPC methodConfig `back` on main and wrote the clients' policy:
    /// a graph's service and a gRPC service are now apart.
    @Test("--service naming a graph's service is refused; --grpc-service names the gRPC service")
    func serviceNames() throws {
        let dir = try Self.directory()
        let r = try CLI.run(["policy", "export", "x.yaml", "--edge", "front:back", "--format", "grpc-service-config", "--service", "back"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "retrystorm: error: x.yaml: --service 'back' names a service of the call graph, and --service is the gRPC service's name: pass --grpc-service back for the gRPC name, or --edge front:back for the policy of a call to it\n"
        )
        let grpc = try CLI.run(
            ["policy", "export", "x.yaml", "--edge", "front:back", "--format", "grpc-service-config", "--grpc-service", "back"], in: dir)
        #expect(grpc.status == 0, "\(grpc.stderr)")
        #expect(grpc.stdout.contains("{\"service\": \"back\"}"), "\(grpc.stdout)")
        // A name that is no service of the graph still works with the older spelling.
        let old = try CLI.run(
            ["policy", "export", "x.yaml", "--edge", "front:back", "--format", "grpc-service-config", "--service", "shop.Cart"], in: dir)
        #expect(old.status == 0 && old.stdout.contains("{\"service\": \"shop.Cart\"}"), "\(old.stderr)")
        // In the policy file there is no gRPC name to give.
        let file = try CLI.run(["policy", "export", "x.yaml", "--edge", "front:back", "--grpc-service", "shop.Cart"], in: dir)
        #expect(
            file.status == 2
                && file.stderr
                    == "retrystorm: error: --grpc-service and --method name a gRPC methodConfig: use them with --format grpc-service-config\n",
            "\(file.stderr)")
    }

    /// A tune of the edge's attempts (1 or 2; the clients run 3): the export of its result is the
    /// edge's policy at the recommended value, whichever it is.
    @Test("a tune's recommendation on an edge key exports that edge")
    func tunedEdge() throws {
        let dir = try Self.directory()
        let r = try CLI.run(
            [
                "tune", "x.yaml", "--grid", "services.front.calls.back.policy.max_attempts=1,2", "--objective", "tts_p99_s",
                "--replications", "2", "--refine", "0", "--progress", "none", "--out", "o"
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        // The tune says how to export it (the rest of stderr is the wall-clock line).
        #expect(
            r.stderr.contains(
                "retrystorm: note: the recommendation sets services.front.calls.back's policy: export it with `retrystorm policy export o --edge front:back`\n"
            ), "\(r.stderr)")
        let tune = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("o/tune.json"))) as? [String: Any]
        let point = (tune?["recommendation"] as? [String: Any])?["point"] as? [String: String]
        let chosen = try #require(point?["services.front.calls.back.policy.max_attempts"])
        let e = try CLI.run(["policy", "export", "o"], in: dir)
        #expect(e.status == 0, "\(e.stderr)")
        #expect(e.stderr == "retrystorm: note: exports the policy of front's calls to back (services.front.calls.back.policy)\n")
        let file = try Self.decode(e.stdout)
        #expect(String(file.policy.maxAttempts) == chosen)
        #expect(file.source == "o, tune's recommendation services.front.calls.back.policy.max_attempts=\(chosen), edge front:back")
    }

    /// A tune of the clients' attempts and the edge's together: its recommendation is two
    /// policies, so the export asks which.
    @Test("a tune's recommendation on the clients' and an edge's keys is refused without --edge, and exports the one --edge names")
    func tunedTwoLayers() throws {
        let dir = try Self.directory()
        let r = try CLI.run(
            [
                "tune", "x.yaml", "--grid", "policy.max_attempts=2,3", "--grid", "services.front.calls.back.policy.max_attempts=1,2",
                "--objective", "tts_p99_s", "--replications", "2", "--refine", "0", "--progress", "none", "--out", "o"
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let e = try CLI.run(["policy", "export", "o"], in: dir)
        #expect(e.status == 2)
        #expect(
            e.stderr
                == "retrystorm: error: o: the tune's recommendation sets the policies of clients:front, front:back: name one with --edge CALLER:CALLEE\n"
        )
        let tune = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("o/tune.json"))) as? [String: Any]
        let point = (tune?["recommendation"] as? [String: Any])?["point"] as? [String: String]
        let edge = try CLI.run(["policy", "export", "o", "--edge", "front:back"], in: dir)
        #expect(edge.status == 0, "\(edge.stderr)")
        #expect(try String(Self.decode(edge.stdout).policy.maxAttempts) == point?["services.front.calls.back.policy.max_attempts"])
        let clients = try CLI.run(["policy", "export", "o", "--edge", "clients:front"], in: dir)
        #expect(clients.status == 0, "\(clients.stderr)")
        #expect(try String(Self.decode(clients.stdout).policy.maxAttempts) == point?["policy.max_attempts"])
    }
}
