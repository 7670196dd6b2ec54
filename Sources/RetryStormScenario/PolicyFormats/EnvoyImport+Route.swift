import RetryPolicy
import RetryStormVocabulary

/// A route's `retry_policy` and `timeout`.
extension EnvoyImport {
    /// The retry conditions of `retry_on` (the router filter's `x-envoy-retry-on` and
    /// `x-envoy-retry-grpc-on` values) that the simulator's failures can meet, by what they retry.
    struct Conditions {
        var statuses = Set<Int>()
        var conflict = false
        var timeouts = false
        var transport = false
        var listedStatuses = false
        /// The gRPC conditions named (`unavailable` → UNAVAILABLE), for an export to gRPC.
        var grpcCodes: [GRPCStatusCode] = []
    }

    static let conditionNames = [
        "5xx", "gateway-error", "reset", "reset-before-request", "connect-failure", "retriable-4xx", "refused-stream", "retriable-status-codes",
        "retriable-headers", "envoy-ratelimited", "http3-post-connect-failure", "cancelled", "deadline-exceeded", "internal", "resource-exhausted",
        "unavailable"
    ]

    mutating func importRoute(policy: DocumentNode?, timeout: DocumentNode?, routeName: String?) throws(ScenarioError) {
        let routeTimeout = try timeout?.duration() ?? Self.defaultRouteTimeout
        if let timeout {
            builder.set("policy.max_elapsed", routeTimeout == 0 ? "none" : ProtoDuration.scenarioText(routeTimeout), from: timeout)
        } else {
            builder.set("policy.max_elapsed", "15s", default: "route timeout default 15s")
        }
        if routeTimeout > 0 {
            builder.note(
                timeout,
                "approximated: Envoy's route timeout covers every attempt and ends the one in flight; the simulator starts no attempt after it but lets one in flight run to clients.timeout"
            )
        }
        guard let policy else {
            let why = "no retry_policy: Envoy does not retry"
            builder.set("policy.max_attempts", "1", default: why)
            setClassification(Conditions(), default: why)
            setBackoff(base: Self.defaultBase, max: 10 * Self.defaultBase, baseNode: nil, maxNode: nil)
            builder.set("policy.retry_after", "ignore", default: why)
            return
        }
        let fields = try policy.fields(Self.retryFields, spelling: .snake)
        func field(_ name: String) -> DocumentNode? { fields.first { $0.name == name }?.value }
        for (name, node) in fields {
            switch name {
            case "retry_priority", "retry_host_predicate", "retry_options_predicates", "host_selection_retry_max_attempts":
                try builder.notModelled(node, "host selection is not modelled: a retry goes to the operation's own host (clients.hosts)")
            case "retriable_headers", "retriable_request_headers":
                try builder.notModelled(node, "the simulated requests and responses carry no headers to match")
            case "per_try_idle_timeout":
                try builder.notModelled(node, "idle timeouts are not modelled (a simulated response arrives whole)")
            default:
                continue
            }
        }
        if let n = field("num_retries") {
            let attempts = ImportBuilder.range(of: "policy.max_attempts")
            let retries = try n.integer(in: 0...(attempts.upperBound - 1)) { written, below in
                below
                    ? "must not be negative (got \(written))"
                    : "must be at most \(attempts.upperBound - 1): num_retries + 1 is policy.max_attempts, at most \(attempts.upperBound) (got \(written))"
            }
            builder.set("policy.max_attempts", String(retries + 1), from: n)
        } else {
            builder.set("policy.max_attempts", "2", default: "num_retries default 1 (retries, not attempts)")
        }
        let conditions = try importConditions(field("retry_on"), codes: field("retriable_status_codes"))
        builder.grpcCodes = conditions.grpcCodes.map(\.name)
        if let retryOn = field("retry_on") {
            setClassification(conditions, from: retryOn)
        } else {
            setClassification(conditions, default: "no retry_on: Envoy retries nothing unless a request carries x-envoy-retry-on")
        }
        if let tryTimeout = field("per_try_timeout") {
            let ns = try tryTimeout.duration()
            builder.set("clients.timeout", ns == 0 ? "none" : ProtoDuration.scenarioText(ns), from: tryTimeout)
        }
        try importBackoff(field("retry_back_off"))
        try importRateLimited(field("rate_limited_retry_back_off"))
    }

    mutating func importConditions(_ retryOn: DocumentNode?, codes: DocumentNode?) throws(ScenarioError) -> Conditions {
        var c = Conditions()
        var listed: [Int] = []
        if let codes {
            for item in try codes.items() {
                let s = try item.integer(in: 100...599) { written, _ in "is not an HTTP status 100…599 (got \(written))" }
                listed.append(s)
            }
        }
        guard let retryOn else { return c }
        let names = try retryOn.text().split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
        for name in names {
            switch name {
            case "5xx":
                c.statuses.formUnion(500...599)
                c.timeouts = true
                c.transport = true
            case "gateway-error":
                c.statuses.formUnion([502, 503, 504])
                c.timeouts = true
                c.transport = true
            case "reset":
                c.timeouts = true
                c.transport = true
            case "reset-before-request", "connect-failure":
                // The simulator's transport failures never reach the server (an offline client).
                c.transport = true
            case "retriable-4xx":
                c.conflict = true
            case "retriable-status-codes":
                c.listedStatuses = true
                for s in listed {
                    if s == 409 { c.conflict = true } else { c.statuses.insert(s) }
                }
            case "refused-stream", "envoy-ratelimited", "http3-post-connect-failure":
                builder.note(retryOn, "\(name): no simulated failure is one of these, so it retries nothing here")
            case "retriable-headers":
                try builder.notModelled(retryOn, "retriable-headers: the simulated responses carry no headers to match")
            case "cancelled", "deadline-exceeded", "internal", "resource-exhausted", "unavailable":
                // The router judges these by the grpc-status of a response's headers
                // (retry_state_impl.cc, wouldRetryFromHeaders), never a reset: a per-try timeout
                // or a failed connection is retried only by the conditions above.
                let code = GRPCStatusCode.code(named: name.replacingOccurrences(of: "-", with: "_").uppercased())!
                c.statuses.formUnion(code.statuses)
                if !c.grpcCodes.contains(code) { c.grpcCodes.append(code) }
            default:
                let hint = Suggest.nearest(name, in: Self.conditionNames).map { "; did you mean '\($0)'?" } ?? ""
                throw retryOn.failure("'\(MessageText.escaped(name))' is not a retry condition Envoy documents\(hint)")
            }
        }
        if c.grpcCodes.contains(where: { $0.statuses == [500] }) {
            builder.note(
                retryOn,
                "internal: the simulated 500 stands for INTERNAL, UNKNOWN and DATA_LOSS alike (google/rpc/code.proto maps them all to HTTP 500): it is retried, though Envoy retries only grpc-status 13"
            )
        }
        if let codes, !listed.isEmpty, !c.listedStatuses {
            builder.note(codes, "has no effect: retry_on does not name retriable-status-codes")
        }
        return c
    }

    mutating func setClassification(_ c: Conditions, from node: DocumentNode? = nil, default source: String = "") {
        let values: [(String, String)] = [
            ("policy.classify.retryable_statuses", ImportBuilder.statuses(c.statuses)), ("policy.classify.throttling_statuses", "none"),
            ("policy.classify.retry_conflict", String(c.conflict)), ("policy.classify.retry_timeouts", String(c.timeouts)),
            ("policy.classify.retry_transport", String(c.transport))
        ]
        for (path, value) in values {
            if let node { builder.set(path, value, from: node) } else { builder.set(path, value, default: source) }
        }
    }

    mutating func importBackoff(_ node: DocumentNode?) throws(ScenarioError) {
        guard let node else {
            setBackoff(base: Self.defaultBase, max: 10 * Self.defaultBase, baseNode: nil, maxNode: nil)
            return
        }
        let fields = try node.fields(["base_interval", "max_interval"], spelling: .snake)
        guard let baseNode = fields.first(where: { $0.name == "base_interval" })?.value else {
            throw node.failure("needs base_interval (route_components.proto: required)")
        }
        var base = try baseNode.duration()
        guard base > 0 else { throw baseNode.failure("must be more than 0s") }
        if base < 1_000_000 {
            builder.note(baseNode, "is below 1ms, which Envoy rounds up to 1ms")
            base = 1_000_000
        }
        let maxNode = fields.first { $0.name == "max_interval" }?.value
        // The default max_interval is 10 × base: refused at base_interval, which sets it.
        if maxNode == nil, base > InputBounds.maxDuration / 10 {
            throw baseNode.failure(
                "must be at most \(InputBounds.maxDurationSeconds / 10)s without a max_interval, whose default 10 × base_interval must be at most \(InputBounds.maxDurationSeconds)s, the longest duration the simulator takes (got '\(try baseNode.text())')"
            )
        }
        let cap = try maxNode?.duration() ?? 10 * base
        if let maxNode, cap < base { throw maxNode.failure("must be at least base_interval (route_components.proto)") }
        setBackoff(base: base, max: cap, baseNode: baseNode, maxNode: maxNode)
    }

    mutating func setBackoff(base: Int64, max: Int64, baseNode: DocumentNode?, maxNode: DocumentNode?) {
        if let baseNode {
            builder.set("policy.backoff.base", ProtoDuration.scenarioText(base), from: baseNode)
        } else {
            builder.set("policy.backoff.base", ProtoDuration.scenarioText(base), default: "base_interval default 25ms")
        }
        if let maxNode {
            builder.set("policy.backoff.max", ProtoDuration.scenarioText(max), from: maxNode)
        } else {
            builder.set("policy.backoff.max", ProtoDuration.scenarioText(max), default: "max_interval default 10 × base_interval")
        }
    }

    /// `rate_limited_retry_back_off`: the simulated server's delay is a `Retry-After` in seconds,
    /// so only a reset header of that name and format is ever read.
    mutating func importRateLimited(_ node: DocumentNode?) throws(ScenarioError) {
        guard let node else {
            builder.set("policy.retry_after", "ignore", default: "no rate_limited_retry_back_off: Envoy ignores Retry-After")
            return
        }
        let fields = try node.fields(["reset_headers", "max_interval"], spelling: .snake)
        guard let headers = fields.first(where: { $0.name == "reset_headers" })?.value else {
            throw node.failure("needs reset_headers (route_components.proto: required, at least one)")
        }
        var readsRetryAfter = false
        let items = try headers.items()
        guard !items.isEmpty else { throw headers.failure("must list at least one header (route_components.proto)") }
        for item in items {
            var name = ""
            var format = "SECONDS"
            for (k, v) in try item.fields(["name", "format"], spelling: .snake) {
                if k == "name" { name = try v.text() } else { format = try v.text() }
            }
            guard !name.isEmpty else { throw item.failure("needs a name") }
            guard ["SECONDS", "UNIX_TIMESTAMP"].contains(format) else {
                throw item.failure("format must be SECONDS or UNIX_TIMESTAMP (got '\(MessageText.escaped(format))')")
            }
            if name.lowercased() == "retry-after" && format == "SECONDS" {
                readsRetryAfter = true
            } else {
                builder.note(item, "\(name) (\(format)): the simulated server sends no such header, only Retry-After in seconds")
            }
        }
        let maxNode = fields.first { $0.name == "max_interval" }?.value
        let cap = try maxNode?.duration() ?? Self.defaultRateLimitedMax
        guard readsRetryAfter else {
            builder.set("policy.retry_after", "ignore", from: headers)
            return
        }
        builder.set("policy.retry_after", "replace", from: headers)
        if let maxNode {
            builder.set("policy.retry_after_ceiling", ProtoDuration.scenarioText(cap), from: maxNode)
        } else {
            builder.set("policy.retry_after_ceiling", ProtoDuration.scenarioText(cap), default: "max_interval default 300s")
        }
        builder.set("policy.retry_after_discard_above_ceiling", "true", from: node)
        builder.note(
            node,
            "approximated: Envoy waits a random time in [i, 1.5·i) for the header's interval i; the simulator waits exactly i (it does not jitter server delays)"
        )
    }
}
