import Foundation
import TestSupport
import Testing

/// A refusal of a call graph names the key that drives its estimate — an edge's `count` or
/// `policy.max_attempts` when requests multiply down the calls — and its advice works: applied,
/// `validate` passes or names the next key, never the same line again (issue 38, item 5). On
/// main a 9-service chain of 25 operations was told to widen the bucket (and was told so again
/// once it had), a fan-out of 10^15 requests was blamed on the horizon and an edge's zero-delay
/// loop on clients.count.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct RefusalAdviceTests {
    /// Under `ulimit -v 8000000` (7.6 GiB, of which 6.0 GiB usable): the same limit on any machine.
    static let limit = 8_000_000

    /// `count` services in a chain, each calling the next with `call` (YAML flow-mapping keys
    /// after `to`); `head` before `services:`.
    static func chain(_ count: Int, head: String, call: String) -> String {
        head + "services:\n"
            + (0..<count).map { k in
                "  - name: s\(k)\n    server: {capacity: 1000/s, workers: 8}\n"
                    + (k + 1 < count ? "    calls:\n      - {to: s\(k + 1)\(call)}\n" : "")
            }.joined()
    }

    /// 25 operations at once down 9 services whose 8 edges keep the policy defaults (6 attempts):
    /// 25 × 3 × 6^8 = 125,971,200 requests at the bottom.
    static let nineChain = chain(
        9, head: "horizon: 60s\nclients: {count: 25, arrival: burst, timeout: 2s}\npolicy: {max_attempts: 3}\n", call: "")

    /// 1,000 clients at once; each of 4 layers calls the next 1,000 times in parallel, one
    /// attempt each: 1,000 × 1,000^4 = 10^15 requests at the bottom.
    static let fanOut = chain(
        5, head: "horizon: 60s\nclients: {count: 1000, arrival: burst, timeout: 2s}\npolicy: {max_attempts: 1}\n",
        call: ", count: 1000, parallel: true, policy: {max_attempts: 1}")

    /// 1,000 clients of one attempt; the front's call retries at once up to 10^6 times over a
    /// back whose queue of one refuses at once.
    static let edgeLoop = """
        horizon: 60s
        clients: {count: 1000, timeout: 2s}
        policy: {max_attempts: 1}
        services:
          - name: front
            server: {capacity: 1000/s, workers: 8}
            calls:
              - to: back
                policy: {max_attempts: 1000000, backoff: {kind: none}}
          - name: back
            server: {capacity: 1000/s, workers: 8, queue: {limit: 1}}

        """

    /// A fresh directory with `yaml` as x.yaml.
    static func directory(_ yaml: String) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try yaml.write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    /// The key a refusal's advice says to lower ("…; lower KEY …" or "… or lower KEY …").
    static func lowered(_ stderr: String) -> String? {
        guard let r = stderr.range(of: #"lower [a-z0-9_.]+"#, options: .regularExpression) else { return nil }
        return String(stderr[r].dropFirst("lower ".count))
    }

    /// Runs `validate x.yaml` and applies each refusal's advice — the key it says to lower, set to
    /// 1, its least value — until it passes; the keys named, in order, and the last status.
    static func follow(_ dir: URL, addressSpaceKiB: Int? = nil) throws -> (keys: [String], status: Int32, first: String) {
        var sets: [String] = []
        var keys: [String] = []
        var first = ""
        for _ in 0..<10 {
            let v = try CLI.run(["validate", "x.yaml"] + sets, in: dir, timeout: 60, addressSpaceKiB: addressSpaceKiB)
            if first.isEmpty { first = v.stderr }
            guard v.status == 2, let key = lowered(v.stderr) else { return (keys, v.status, first) }
            keys.append(key)
            guard keys.count == Set(keys).count else { return (keys, v.status, first) }
            sets += ["--set", key + "=1"]
        }
        return (keys, -1, first)
    }

    @Test("a chain of 9 services is refused on its first edge's attempts, and passes once they are lowered")
    func nineServiceChain() throws {
        let dir = try Self.directory(Self.nineChain)
        let r = try CLI.run(["run", "x.yaml", "--out", "o"], in: dir, timeout: 60, addressSpaceKiB: Self.limit)
        #expect(r.status == 2)
        #expect(
            RefusalKeyTests.withoutAllowance(r.stderr)
                == "retrystorm: error: x.yaml:8:14: field 'services.s0.calls.s1.policy.max_attempts': needs about 11.0 GiB (11.0 GiB for 1 replication running at once) but …; lower services.s0.calls.s1.policy.max_attempts (requests multiply by each call's count and attempts down the graph)\n"
        )
        let followed = try Self.follow(dir, addressSpaceKiB: Self.limit)
        #expect(RefusalKeyTests.withoutAllowance(followed.first) == RefusalKeyTests.withoutAllowance(r.stderr))
        #expect(followed.keys == ["services.s0.calls.s1.policy.max_attempts"] && followed.status == 0, "\(followed)")
    }

    @Test("a fan-out of 10^15 requests is refused on each layer's count in turn, until it fits")
    func fanOutLayers() throws {
        let dir = try Self.directory(Self.fanOut)
        let r = try CLI.run(["validate", "x.yaml"], in: dir, timeout: 60, addressSpaceKiB: Self.limit)
        #expect(r.status == 2)
        #expect(
            RefusalKeyTests.withoutAllowance(r.stderr)
                == "retrystorm: error: x.yaml:8:25: field 'services.s0.calls.s1.count': needs about 72591576.1 GiB (72591576.1 GiB for 1 replication running at once) but …; lower services.s0.calls.s1.count (requests multiply by each call's count and attempts down the graph)\n"
        )
        let followed = try Self.follow(dir, addressSpaceKiB: Self.limit)
        #expect(
            followed.keys == ["services.s0.calls.s1.count", "services.s1.calls.s2.count", "services.s2.calls.s3.count"] && followed.status == 0,
            "\(followed)")
    }

    @Test("an edge's zero-delay loop is named by the edge's keys, and lowering its attempts lets it run")
    func edgeZeroDelayLoop() throws {
        let dir = try Self.directory(Self.edgeLoop)
        let r = try CLI.run(["run", "x.yaml", "--out", "o"], in: dir, timeout: 60)
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "retrystorm: error: x.yaml:9:32: field 'services.front.calls.back.policy.max_attempts': a replication may process 1,800,004,200 events, more than --max-events 1,000,000,000: services.front.calls.back.policy.max_attempts is 1000000 and a failure can come back at once while the policy retries at once (services.front.calls.back.policy.backoff.kind none, a full queue or a rate limit answers at once); add a backoff delay (services.front.calls.back.policy.backoff) or lower services.front.calls.back.policy.max_attempts (or pass --max-events 1,800,004,200 to run it anyway)\n"
        )
        let followed = try Self.follow(dir)
        #expect(followed.first == r.stderr)
        #expect(followed.keys == ["services.front.calls.back.policy.max_attempts"] && followed.status == 0, "\(followed)")
    }
}
