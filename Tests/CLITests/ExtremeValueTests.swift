import Foundation
import TestSupport
import Testing

/// Values far past anything the simulator holds (2^63 − 1, 2^63, −2^63, 2^64, 1e30, the longest
/// protobuf Duration) in every numeric field a user can write: each scenario key (from
/// `retrystorm keys`, in a file and through `--set`), each field of a gRPC service config and of
/// Envoy's retry settings, through every command that reads them. Each is taken (status 0) or
/// refused (status 2, one line naming the field), never a trap: `"315576000000s"` and
/// `num_retries: 9223372036854775807` once ended `policy import`, `validate`, `run` and
/// `policy export` with signal 4 (SIGILL, exit 132).
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ExtremeValueTests {
    /// Checks that `r` took the value or refused it in one line naming each of `places` (the
    /// file with its line, the field).
    static func check(_ r: CLI.Result, _ what: String, naming places: [String]) {
        let lines = r.stderr.split(separator: "\n")
        #expect(!r.signalled && [0, 2].contains(r.status), "\(what): status \(r.status)\(r.signalled ? " (a signal)" : ""): \(r.stderr.prefix(400))")
        guard r.status == 2 else { return }
        #expect(lines.count == 1 && lines[0].hasPrefix("retrystorm: error: "), "\(what): \(r.stderr.prefix(400))")
        for place in places { #expect(r.stderr.contains(place), "\(what): names no \(place): \(r.stderr.prefix(400))") }
    }

    /// The scenario keys whose values are numbers, durations or rates, with their types, from
    /// `retrystorm keys`.
    static func numericKeys() throws -> [(key: String, type: String)] {
        let r = try CLI.run(["keys"])
        var keys: [(key: String, type: String)] = []
        for line in r.stdout.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            let type = cells[1]
            let numeric = ["duration", "whole number", "number", "fraction", "rate", "none, duration"].contains { type.hasPrefix($0) }
            if numeric { keys.append((cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")), type)) }
        }
        return keys
    }

    /// How a refusal of `value` for a key of `type` must end, where the value is past the key's
    /// range: the bound it is past (`whole number 1…1000000000` → `must be at most 1000000000 (got
    /// 1e30)`; a duration → `must be at most 720h`, the longest, ``InputBounds``); nil where the
    /// value is not of the key's type at all (a duration for a count) and any reason will do.
    static func refusal(type: String, value: String) -> String? {
        if type.hasPrefix("whole number ") {
            let range = type.dropFirst("whole number ".count).prefix { $0 != " " }.split(separator: "…")
            guard range.count == 2, !value.hasSuffix("s") else { return nil }
            // Within the range (a seed of 2^63 − 1) it is taken; beyond Int it is past either end.
            if let v = Int(value), let lo = Int(range[0]), let hi = Int(range[1]), (lo...hi).contains(v) { return nil }
            return value.hasPrefix("-") ? "must be at least \(range[0]) (got \(value))" : "must be at most \(range[1]) (got \(value))"
        }
        if type.contains("duration"), value == "315576000000s" { return "must be at most 720h (got \(value))" }
        return nil
    }

    /// `key` as `--set` takes it and the scenario that `--set` applies to: a population's key
    /// (`populations.NAME.count`) is set on population `a`, a call's (`services.NAME.calls.TO.timeout`)
    /// on the call from `api` to `db`.
    static func settable(_ key: String) -> (key: String, base: String) {
        let base = "horizon: 10s\nclients: {count: 10}\n"
        if key.hasPrefix("populations.NAME.") {
            return (key.replacingOccurrences(of: ".NAME.", with: ".a."), base + "populations: [{name: a, share: 100%}]\n")
        }
        if key.hasPrefix("services.NAME.calls.TO.") {
            let call = key.replacingOccurrences(of: "services.NAME.calls.TO.", with: "services.api.calls.db.")
            return (call, base + "services: [{name: api, calls: [{to: db}]}, {name: db}]\n")
        }
        return (key, base)
    }

    /// A scenario file holding only `key` set to `value`: nested mappings, or the one population
    /// or call that holds it.
    static func file(_ key: String, _ value: String) -> String {
        if key.hasPrefix("populations.NAME.") {
            return "populations:\n  - name: a\n    \(key.dropFirst("populations.NAME.".count)): \(value)\n"
        }
        if key.hasPrefix("services.NAME.calls.TO.") {
            return
                "services:\n  - name: api\n    calls:\n      - to: db\n        \(key.dropFirst("services.NAME.calls.TO.".count)): \(value)\n  - name: db\n"
        }
        let parts = key.split(separator: ".")
        var out = ""
        for (depth, part) in parts.enumerated() {
            out += String(repeating: "  ", count: depth) + part + ":" + (depth == parts.count - 1 ? " \(value)\n" : "\n")
        }
        return out
    }

    @Test(
        "every numeric scenario key, through --set and validate and in a file through run, takes or refuses a huge value in one line naming it",
        arguments: ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "1e30", "315576000000s", "1e30/s"])
    func scenarioKeys(_ value: String) throws {
        let keys = try Self.numericKeys()
        // A failure to find them must not pass as "every key was fine".
        #expect(
            keys.count > 80 && keys.contains { $0.key == "policy.backoff.base" } && keys.contains { $0.key == "populations.NAME.count" }, "\(keys)")
        let dir = try CLI.temporaryDirectory()
        for (key, type) in keys {
            let why = Self.refusal(type: type, value: value)
            let (set, base) = Self.settable(key)
            try base.write(to: dir.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
            let r = try CLI.run(["validate", "base.yaml", "--set", "\(set)=\(value)"], in: dir)
            Self.check(r, "--set \(set)=\(value)", naming: ["field '\(set)'"])
            if let why { #expect(r.stderr.hasSuffix("field '\(set)': \(why)\n"), "--set \(set)=\(value): \(r.stderr)") }
            try Self.file(key, value).write(to: dir.appendingPathComponent("key.yaml"), atomically: true, encoding: .utf8)
            let file = try CLI.run(["run", "key.yaml", "--set", "horizon=10s", "--set", "clients.count=10", "--out", "out", "--force"], in: dir)
            Self.check(file, "\(key): \(value) in a file", naming: ["key.yaml:", "field '"])
            if let why { #expect(file.stderr.hasSuffix("': \(why)\n"), "\(key): \(value) in a file: \(file.stderr)") }
        }
    }

    /// Huge values as a JSON file writes them: numbers, durations, and a number as text.
    static let hugeJSON = [
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551616", "1e30", "\"315576000000s\"",
        "\"1e30s\"", "\"-315576000000s\"", "\"9223372036854775807\""
    ]

    /// The commands that read a policy file: itself, and a scenario that imports it.
    static func importing(_ file: String, in dir: URL, _ what: String, naming field: String) throws {
        // file:line:column: the file's own line, whichever command read it.
        let places = ["retrystorm: error: \(file):", field]
        try "horizon: 10s\nclients: {count: 10}\npolicy:\n  import: {file: \(file)}\n".write(
            to: dir.appendingPathComponent("imports.yaml"), atomically: true, encoding: .utf8)
        for command in [
            ["policy", "import", file], ["validate", "imports.yaml"], ["policy", "export", "imports.yaml"],
            ["run", "imports.yaml", "--out", "out", "--force"]
        ] {
            Self.check(try CLI.run(command, in: dir), "\(command.prefix(2).joined(separator: " ")) with \(what)", naming: places)
        }
    }

    @Test(
        "every numeric field of a gRPC service config takes or refuses a huge value in one line naming it, through import, validate, export and run",
        arguments: [
            "timeout", "maxAttempts", "initialBackoff", "maxBackoff", "backoffMultiplier", "retryableStatusCodes", "maxTokens", "tokenRatio",
            "hedgingPolicy.maxAttempts", "hedgingDelay"
        ])
    func grpc(_ field: String) throws {
        let dir = try CLI.temporaryDirectory()
        for value in Self.hugeJSON {
            var v = [
                "timeout": "\"2s\"", "maxAttempts": "3", "initialBackoff": "\"0.1s\"", "maxBackoff": "\"1s\"", "backoffMultiplier": "2",
                "retryableStatusCodes": "\"UNAVAILABLE\"", "maxTokens": "10", "tokenRatio": "0.1", "hedgingPolicy.maxAttempts": "3",
                "hedgingDelay": "\"0.1s\""
            ]
            v[field] = value
            let text =
                field.hasPrefix("hedging")
                ? "{\"methodConfig\": [{\"hedgingPolicy\": {\"maxAttempts\": \(v["hedgingPolicy.maxAttempts"]!), \"hedgingDelay\": \(v["hedgingDelay"]!)}}]}"
                : """
                {"methodConfig": [{"timeout": \(v["timeout"]!), "retryPolicy": {"maxAttempts": \(v["maxAttempts"]!), \
                "initialBackoff": \(v["initialBackoff"]!), "maxBackoff": \(v["maxBackoff"]!), "backoffMultiplier": \(v["backoffMultiplier"]!), \
                "retryableStatusCodes": [\(v["retryableStatusCodes"]!)]}}], \
                "retryThrottling": {"maxTokens": \(v["maxTokens"]!), "tokenRatio": \(v["tokenRatio"]!)}}
                """
            try text.write(to: dir.appendingPathComponent("svc.json"), atomically: true, encoding: .utf8)
            let name = field.split(separator: ".").last.map(String.init) ?? field
            try Self.importing("svc.json", in: dir, "\(field): \(value)", naming: name)
        }
    }

    @Test(
        "every numeric field of Envoy's retry settings takes or refuses a huge value in one line naming it, through import, validate, export and run",
        arguments: [
            "num_retries", "per_try_timeout", "retriable_status_codes", "base_interval", "max_interval", "rate_limited_max_interval", "timeout",
            "max_retries", "max_requests", "budget_percent", "min_retry_concurrency"
        ])
    func envoy(_ field: String) throws {
        let dir = try CLI.temporaryDirectory()
        for value in Self.hugeJSON {
            var v = [
                "num_retries": "2", "per_try_timeout": "1s", "retriable_status_codes": "503", "base_interval": "0.1s", "max_interval": "1s",
                "rate_limited_max_interval": "300s", "timeout": "15s", "max_retries": "3", "max_requests": "100", "budget_percent": "20",
                "min_retry_concurrency": "3"
            ]
            v[field] = value
            // A retry budget replaces max_retries: the thresholds hold one or the other.
            let limit =
                ["budget_percent", "min_retry_concurrency"].contains(field)
                ? "retry_budget: {budget_percent: {value: \(v["budget_percent"]!)}, min_retry_concurrency: \(v["min_retry_concurrency"]!)}"
                : "max_retries: \(v["max_retries"]!)"
            let text = """
                retry_policy:
                  retry_on: 5xx,retriable-status-codes
                  num_retries: \(v["num_retries"]!)
                  per_try_timeout: \(v["per_try_timeout"]!)
                  retriable_status_codes: [\(v["retriable_status_codes"]!)]
                  retry_back_off: {base_interval: \(v["base_interval"]!), max_interval: \(v["max_interval"]!)}
                  rate_limited_retry_back_off: {reset_headers: [{name: Retry-After}], max_interval: \(v["rate_limited_max_interval"]!)}
                timeout: \(v["timeout"]!)
                circuit_breakers:
                  thresholds:
                    - max_requests: \(v["max_requests"]!)
                      \(limit)

                """
            try text.write(to: dir.appendingPathComponent("envoy.yaml"), atomically: true, encoding: .utf8)
            let name = field == "rate_limited_max_interval" ? "max_interval" : field
            try Self.importing("envoy.yaml", in: dir, "\(field): \(value)", naming: name)
        }
    }
}
