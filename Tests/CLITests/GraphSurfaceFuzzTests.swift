import Foundation
import TestSupport
import Testing

/// A seeded, bounded fuzz test of the surface that call graphs, hedging, deadlines and policy
/// formats added: scenarios generated from the keys (services, calls, edge policies with hedging
/// and deadlines, extreme and ill-typed values), gRPC service configs and Envoy settings imported
/// alone and through `policy.import`, policy exports in every format, and gates put together from
/// their grammar with slips. Unlike ``FuzzTests``, which mutates files line by line and rarely
/// keeps a graph whole, these inputs are built to reach the checks behind the parser.
///
/// Every input ends with status 0, 1 (a gate not met) or 2 (bad input, one line on stderr), never
/// 3, a signal, a trace or a hang (reliability round four, item 11).
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct GraphSurfaceFuzzTests {
    /// The fuzz's random source: ``FuzzTests/LCG``'s draws, and how often a value is bad
    /// (`badOneIn`: one draw in that many; 0: never). Each input sets it afresh, so that about
    /// half the inputs are clean and reach the checks and the engine behind the parser, and the
    /// rest carry a few bad values each.
    struct Draws {
        var lcg: FuzzTests.LCG
        var badOneIn: UInt64 = 8
        init(seed: UInt64) { lcg = FuzzTests.LCG(x: seed) }
        mutating func next() -> UInt64 { lcg.next() }
        mutating func pick<T>(_ xs: [T]) -> T { lcg.pick(xs) }
        /// Clean (no bad value) one input in two, else a bad value one draw in `oneIn`.
        mutating func startInput(oneIn: UInt64 = 6) { badOneIn = next() % 2 == 0 ? 0 : oneIn }
    }

    /// One of `kind`'s bad values one draw in `rng.badOneIn`, else one of its good ones.
    static func value(_ kind: (good: [String], bad: [String]), _ rng: inout Draws) -> String {
        rng.badOneIn > 0 && rng.next() % rng.badOneIn == 0 ? rng.pick(kind.bad) : rng.pick(kind.good)
    }

    /// Values of each kind: ordinary ones that every field of the kind takes, and (``value(_:_:)``)
    /// those that have trapped or misled before.
    static let counts = (
        good: ["2", "3", "5"],
        bad: [
            "1000", "1001", "0", "-1", "9223372036854775807", "9223372036854775808", "18446744073709551616", "1e30", "1.5", "nan", "~", "\"7\"", "[1]"
        ]
    )
    static let durations = (
        good: ["1s", "2s", "5s"],
        bad: [
            "0s", "1ns", "9223372036s", "9223372037s", "315576000000s", "1e18s", "1e30s", "106751d", "-1s", "1e-12s", "p50", "p99.9", "p0", "p100",
            "5", "~", "\"\""
        ]
    )
    static let rates = (
        good: ["100/s", "500/s", "50/s"], bad: ["1/s", "0/s", "1e10/s", "1e400/s", "-5/s", "9223372036854775807/s", "1e-300/s", "nan/s"]
    )
    /// Names a service may not have (`db` twice is one of them: the generator names the others
    /// uniquely).
    static let badNames = ["null", "~", "\"\"", "x y", "é", "db"]

    // MARK: - Scenarios of the graph surface

    /// An edge policy: some keys of `policy.*`, hedging among them.
    static func policy(_ rng: inout Draws) -> String {
        var keys: [String] = []
        if rng.next() % 2 == 0 { keys.append("max_attempts: \(value(counts, &rng))") }
        if rng.next() % 2 == 0 { keys.append("preset: \(value((["grpc", "envoy", "aws-standard", "finagle", "none"], ["nosuch"]), &rng))") }
        if rng.next() % 2 == 0 { keys.append("backoff: {base: \(value((["10ms", "50ms"], durations.bad), &rng)), max: \(value(durations, &rng))}") }
        if rng.next() % 3 == 0 {
            keys.append(
                "hedge: {delay: \(value((["50ms", "p95", "none", "0s"], durations.bad), &rng)), max_attempts: \(value(counts, &rng)), window: \(value(durations, &rng))}"
            )
        }
        if rng.next() % 4 == 0 { keys.append("max_elapsed: \(value(durations, &rng))") }
        if rng.next() % 4 == 0 {
            keys.append("budget: {kind: \(rng.pick(["per-run", "token-bucket", "grpc", "unlimited"])), retries: \(value(counts, &rng))}")
        }
        return rng.next() % 32 == 0 ? value(counts, &rng) : "{" + keys.joined(separator: ", ") + "}"
    }

    /// A call graph of one to five services, each calling some of those after it (and, now and
    /// then, one before it, itself or none that exists), with the clients' own policy hedging
    /// or not and a deadline or not.
    static func graph(_ rng: inout Draws) -> String {
        let n = 1 + Int(rng.next() % 5)
        let own = (0..<n).map { i in value((["s\(i)", "api\(i)", "n-\(i)"], badNames), &rng) }
        var text = "horizon: \(value((["10s", "20s"], ["1ms", "30d", "1e30s"]), &rng))\nbucket: \(value((["1s", "5s"], ["1ms", "0s"]), &rng))\n"
        text += "clients: {count: \(value((["20", "50"], ["1e9", "0"]), &rng)), timeout: \(value(durations, &rng))"
        if rng.next() % 3 == 0 { text += ", deadline: \(value(durations, &rng))" }
        text += "}\n"
        if rng.next() % 3 == 0 { text += "policy: \(policy(&rng))\n" }
        text += "services:\n"
        for i in 0..<n {
            text += "  - name: \(own[i])\n"
            var server = ["capacity: \(value(rates, &rng))"]
            if rng.next() % 3 == 0 { server.append("workers: \(value(counts, &rng))") }
            if rng.next() % 5 == 0 { server.append("model: \(value((["queue"], ["flaky", "contention"]), &rng))") }
            if rng.next() % 4 == 0 {
                server.append("queue: {limit: \(value(counts, &rng)), drop_expired: \(value((["true", "false"], ["1"]), &rng))}")
            }
            if rng.next() % 4 == 0 { server.append("release_while_calling: \(rng.pick(["true", "false"]))") }
            text += "    server: {" + server.joined(separator: ", ") + "}\n"
            let later = Array(own[(i + 1)...])
            guard !later.isEmpty || (rng.badOneIn > 0 && rng.next() % 6 == 0) else { continue }
            text += "    calls:\n"
            // One call per service: distinct targets, now and then one that is not later (or not there).
            var targets = later
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let to: String? =
                    rng.badOneIn > 0 && rng.next() % 16 == 0
                    ? rng.pick(own + ["nowhere"]) : targets.isEmpty ? nil : targets.remove(at: Int(rng.next() % UInt64(targets.count)))
                guard let to else { break }
                var call = ["to: \(to)"]
                if rng.next() % 2 == 0 { call.append("count: \(value(counts, &rng))") }
                if rng.next() % 3 == 0 { call.append("parallel: \(value((["true", "false"], ["maybe"]), &rng))") }
                if rng.next() % 2 == 0 { call.append("timeout: \(value((["300ms", "1s", "none"], durations.bad), &rng))") }
                if rng.next() % 3 == 0 { call.append("deadline: \(value((["propagate", "none"], ["maybe"]), &rng))") }
                if rng.next() % 4 == 0 { call.append("failure_status: \(value((["503", "429", "500"], ["200", "abc"]), &rng))") }
                if rng.next() % 2 == 0 { call.append("policy: \(policy(&rng))") }
                text += "      - {" + call.joined(separator: ", ") + "}\n"
            }
        }
        if rng.next() % 4 == 0 {
            text += "variants:\n  - {name: v, services.\(rng.pick(own)).calls.\(rng.pick(own)).policy.max_attempts: \(value(counts, &rng))}\n"
        }
        return text
    }

    /// Checks the one contract every input keeps: 0, 1 or 2 (`allowed`), never a signal, a hang
    /// or a trace; a refusal is one line, or for a policy file one line per refusal (at most 20,
    /// and one saying it stopped), each an error.
    static func expectContract(_ r: CLI.Result, allowed: Set<Int32> = [0, 1, 2], _ context: @autoclosure () -> String) {
        #expect(!r.timedOut, "hang: \(context())")
        #expect(!r.signalled, "signal \(r.status): \(context())")
        #expect(allowed.contains(r.status), "status \(r.status): \(context())")
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump") && !r.stderr.contains("Backtrace"), "trace: \(context())")
        if r.status == 2 {
            let lines = r.stderr.split(separator: "\n")
            #expect(
                !lines.isEmpty && lines.count <= 21 && lines.allSatisfy { $0.hasPrefix("retrystorm: error: ") },
                "not one error a line: \(context())")
        }
    }

    @Test("300 generated call graphs: validate, and every fifth run, every seventh exported: 0, 1 or 2, one line, nothing left behind")
    func graphs() throws {
        let dir = try CLI.temporaryDirectory()
        var rng = Draws(seed: 20_261_206)
        var outcomes = [Int32: Int]()
        var ran = 0
        for n in 0..<300 {
            rng.startInput()
            let text = Self.graph(&rng)
            let file = dir.appendingPathComponent("g\(n).yaml")
            try Data(text.utf8).write(to: file)
            var args = ["validate", file.path]
            if n % 5 == 0 {
                args = [
                    text.contains("variants:") ? "compare" : "run", file.path, "--set", "horizon=5s", "--set", "clients.count=30", "--max-events",
                    "2000000",
                    "--out", dir.appendingPathComponent("o\(n)").path, "--check-invariants"
                ]
            } else if n % 7 == 0 {
                args = ["policy", "export", file.path, "--format", rng.pick(["policy-file", "grpc-service-config", "envoy"])]
                // A graph whose edges run policies of their own needs --edge: the clients' now and then.
                let first = text.split(separator: "\n").first { $0.hasPrefix("  - name: ") }?.dropFirst(10)
                if let first, rng.next() % 2 == 0 { args += ["--edge", "clients:\(first)"] }
            }
            let r = try CLI.run(args, timeout: 120)
            outcomes[r.status, default: 0] += 1
            if r.status == 0 && n % 5 == 0 { ran += 1 }
            Self.expectContract(r, "g\(n): retrystorm \(args.joined(separator: " "))\n\(text)\n--- stderr:\n\(r.stderr.prefix(1500))")
            if r.signalled || r.timedOut { break }
        }
        let staged = (FileManager.default.enumerator(atPath: dir.path)?.allObjects ?? []).compactMap { $0 as? String }
            .filter { $0.contains(".tmp-") || $0.contains(".old-") || $0.hasSuffix(".retrystorm-writing") }
        #expect(staged.isEmpty, "staging left: \(staged)")
        // The generator reaches both sides: graphs that run, and graphs that are refused.
        #expect((outcomes[0] ?? 0) >= 90 && (outcomes[2] ?? 0) >= 60 && ran >= 14, "\(outcomes), \(ran) runs")
    }

    // MARK: - Policy documents

    /// A gRPC service config with some of its retry, hedging and throttling fields, each drawn
    /// from valid and invalid values (status codes as gRPC spells them and as it does not).
    static func serviceConfig(_ rng: inout Draws) -> String {
        let codes = (
            good: ["\"UNAVAILABLE\"", "14", "\"RESOURCE_EXHAUSTED\"", "4"],
            bad: ["\"unavailable\"", "\"14\"", "17", "-1", "\"CANCELLED\"", "\"OK\"", "null", "1.5", "\"\"", "[]"]
        )
        let protoDurations = (
            good: ["\"0.1s\"", "\"2s\"", "\"0.25s\""],
            bad: [
                "\"315576000000s\"", "\"315576000001s\"", "\"9223372036.854775807s\"", "\"-1s\"", "\"1.0000000001s\"", "\"1\"", "1", "null", "\"0s\""
            ]
        )
        let numbers = (good: ["2", "3", "5"], bad: ["0", "-1", "1e30", "9223372036854775807", "1.5", "\"3\"", "null", "4294967296"])
        var retry: [String] = []
        if rng.next() % 5 != 0 { retry.append("\"maxAttempts\": \(value(numbers, &rng))") }
        if rng.next() % 5 != 0 { retry.append("\"initialBackoff\": \(value(protoDurations, &rng))") }
        if rng.next() % 5 != 0 { retry.append("\"maxBackoff\": \(value(protoDurations, &rng))") }
        if rng.next() % 5 != 0 { retry.append("\"backoffMultiplier\": \(value(numbers, &rng))") }
        if rng.next() % 5 != 0 {
            retry.append(
                "\"retryableStatusCodes\": [" + (0..<(1 + Int(rng.next() % 3))).map { _ in value(codes, &rng) }.joined(separator: ", ") + "]")
        }
        var method = ["\"name\": [{\"service\": \(value((["\"shop.Cart\""], ["null", "\"\"", "5"]), &rng))}]"]
        if rng.next() % 3 != 0 { method.append("\"timeout\": \(value(protoDurations, &rng))") }
        if rng.next() % 4 == 0 {
            method.append(
                "\"hedgingPolicy\": {\"maxAttempts\": \(value(numbers, &rng)), \"hedgingDelay\": \(value(protoDurations, &rng)), \"nonFatalStatusCodes\": [\(value(codes, &rng))]}"
            )
        } else {
            method.append("\"retryPolicy\": {" + retry.joined(separator: ", ") + "}")
        }
        var top = ["\"methodConfig\": [{" + method.joined(separator: ", ") + "}]"]
        if rng.next() % 3 == 0 {
            top.append("\"retryThrottling\": {\"maxTokens\": \(value(numbers, &rng)), \"tokenRatio\": \(value(numbers, &rng))}")
        }
        return "{" + top.joined(separator: ", ") + "}\n"
    }

    /// Envoy route and cluster settings with some retry fields drawn from valid and invalid
    /// values, two routes sometimes sharing a name.
    static func envoy(_ rng: inout Draws) -> String {
        let numbers = (good: ["1", "3", "10"], bad: ["0", "-1", "4294967295", "4294967296", "9223372036854775807", "1e30", "1.5", "~", "\"2\""])
        let envoyDurations = (
            good: ["0.5s", "2s", "0.25s"], bad: ["0s", "315576000000s", "315576000001s", "9223372037s", "-1s", "1", "~", "1.0000000001s"]
        )
        var policy = ["retry_on: \(value((["5xx", "gateway-error", "connect-failure,retriable-4xx"], ["nosuch", "~"]), &rng))"]
        if rng.next() % 4 != 0 { policy.append("num_retries: \(value(numbers, &rng))") }
        if rng.next() % 2 == 0 { policy.append("per_try_timeout: \(value(envoyDurations, &rng))") }
        if rng.next() % 2 == 0 {
            policy.append("retry_back_off: {base_interval: \(value(envoyDurations, &rng)), max_interval: \(value(envoyDurations, &rng))}")
        }
        let second = rng.next() % 8 == 0 ? "checkout" : value((["browse"], ["null", "~", "\"\""]), &rng)
        var text = """
            routes:
              - name: checkout
                route: {cluster: cart, timeout: \(value(envoyDurations, &rng)), retry_policy: {\(policy.joined(separator: ", "))}}
              - name: \(second)
                route: {cluster: cart}
            clusters:
              - name: cart

            """
        if rng.next() % 2 == 0 {
            text += "    circuit_breakers: {thresholds: [{max_retries: \(value(numbers, &rng)), max_requests: \(value(numbers, &rng))"
            if rng.next() % 2 == 0 {
                text += ", retry_budget: {budget_percent: {value: \(value(numbers, &rng))}, min_retry_concurrency: \(value(numbers, &rng))}"
            }
            text += "}]}\n"
        }
        return text
    }

    @Test("300 generated gRPC and Envoy files: policy import, a scenario importing them validated and exported: 0 or 2, one line")
    func policyDocuments() throws {
        let dir = try CLI.temporaryDirectory()
        var rng = Draws(seed: 20_261_207)
        var outcomes = [Int32: Int]()
        for n in 0..<300 {
            let grpc = n % 2 == 0
            let name = grpc ? "p\(n).json" : "p\(n).yaml"
            rng.startInput(oneIn: 3)
            let text = grpc ? Self.serviceConfig(&rng) : Self.envoy(&rng)
            try Data(text.utf8).write(to: dir.appendingPathComponent(name))
            let pick = grpc ? ["--service", "shop.Cart"] : ["--route", "checkout"]
            let scenario = "s\(n).yaml"
            let key = grpc ? "service: shop.Cart" : "route: checkout"
            try Data("horizon: 10s\nclients: {count: 20}\npolicy:\n  import: {file: \(name), \(key)}\n".utf8).write(
                to: dir.appendingPathComponent(scenario))
            let lines: [[String]] = [
                ["policy", "import", name] + pick,
                ["validate", scenario],
                ["policy", "export", scenario, "--format", rng.pick(["policy-file", "grpc-service-config", "envoy"])]
            ]
            for args in lines {
                let r = try CLI.run(args, in: dir, timeout: 60)
                outcomes[r.status, default: 0] += 1
                Self.expectContract(r, allowed: [0, 2], "retrystorm \(args.joined(separator: " "))\n\(text)\n--- stderr:\n\(r.stderr.prefix(1500))")
                if r.status == 0 && args[0] == "policy" { #expect(!r.stdout.isEmpty, "exit 0 with nothing on stdout: \(args)") }
            }
        }
        #expect((outcomes[0] ?? 0) >= 100 && (outcomes[2] ?? 0) >= 100, "\(outcomes)")
    }

    // MARK: - Gates

    /// A gate put together from its grammar, `[variant:][populations.NAME.|services.NAME.]metric
    /// [.vs(OTHER)|.minus(OTHER)][.ci95_low|.ci95_high] OP value`, with a slip now and then.
    static func gate(_ rng: inout Draws) -> String {
        var g = ""
        if rng.next() % 3 == 0 { g += rng.pick(["base:", "v:", "nosuch:", ":", "a:b:"]) }
        if rng.next() % 3 == 0 {
            g += rng.pick(["services.api.", "services.db.", "services.nosuch.", "populations.a.", "services..", "populations."])
        }
        g += rng.pick(["tts_p99_s", "peak_load_ratio", "gave_up_fraction", "stuck", "amplification", "nosuch", "", "recovered", "tts_p99_s.ci95_high"]
        )
        switch rng.next() % 6 {
        case 0: g += ".vs(" + rng.pick(["base", "v", "", "x)", "(x", "v).vs(base"]) + ")"
        case 1: g += ".minus(" + rng.pick(["base", "v", ""])
        case 2: g += ".minus(" + rng.pick(["base", "v", ""]) + ")"
        default: break
        }
        if rng.next() % 3 == 0 { g += rng.pick([".ci95_high", ".ci95_low", ".ci95", ".mean"]) }
        g += rng.pick(["<=", ">=", "<", ">", "==", "!=", "=", "=<", ""])
        g += rng.pick(["1", "5%", "0.5", "2s", "500ms", "-1", "1e308", "nan", "", "%", "150%", "1e400", "9223372036854775808"])
        return g
    }

    @Test("400 generated gates on a graph with variants and a population: validate and run, 0, 1 or 2, one line")
    func gates() throws {
        let dir = try CLI.temporaryDirectory()
        let scenario = """
            horizon: 5s
            clients: {count: 20, timeout: 1s}
            populations:
              - {name: a, share: 1}
            services:
              - name: api
                calls: [{to: db, policy: {max_attempts: 2}}]
              - name: db
            variants:
              - {name: v, services.api.calls.db.policy.max_attempts: 1}

            """
        try Data(scenario.utf8).write(to: dir.appendingPathComponent("s.yaml"))
        var rng = Draws(seed: 20_261_208)
        var outcomes = [Int32: Int]()
        for n in 0..<400 {
            let gate = Self.gate(&rng)
            let args =
                n % 20 == 0
                ? ["compare", "s.yaml", "--expect", gate, "--out", "o\(n)", "--replications", "2"] : ["validate", "s.yaml", "--expect", gate]
            let r = try CLI.run(args, in: dir, timeout: 60)
            outcomes[r.status, default: 0] += 1
            Self.expectContract(r, "retrystorm \(args.joined(separator: " "))\n--- stderr:\n\(r.stderr.prefix(1500))")
        }
        #expect((outcomes[0] ?? 0) >= 20 && (outcomes[2] ?? 0) >= 200, "\(outcomes)")
    }
}
