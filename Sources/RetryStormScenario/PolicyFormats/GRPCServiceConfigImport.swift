import RetryPolicy
import RetryStormVocabulary

/// A gRPC service config's retry policy as scenario keys (gRFC A6 "gRPC Retry Design";
/// `grpc/service_config/service_config.proto`).
///
/// The keys start from `policy.preset: grpc`, which holds what A6 fixes and a service config
/// cannot change: ±20 % jitter on `min(initialBackoff × backoffMultiplier^(n−1), maxBackoff)`
/// (the cap before the jitter), `grpc-retry-pushback-ms` replacing the delay exactly and
/// restarting the exponent (negative: stop), no credential refresh. The file then sets:
///
/// | field | key |
/// |---|---|
/// | `retryPolicy.maxAttempts` (> 1; above 5 taken as 5) | `policy.max_attempts` |
/// | `retryPolicy.initialBackoff`, `maxBackoff` (> 0) | `policy.backoff.base`, `policy.backoff.max` |
/// | `retryPolicy.backoffMultiplier` (> 0) | `policy.backoff.multiplier` |
/// | `retryPolicy.retryableStatusCodes` (non-empty) | `policy.classify.*` through ``GRPCStatusCode`` |
/// | `hedgingPolicy.maxAttempts` (> 1; above 5 taken as 5) | `policy.hedge.max_attempts`, and `policy.max_attempts: 1` |
/// | `hedgingPolicy.hedgingDelay` (default 0s: every copy at once) | `policy.hedge.delay` (no hedgingPolicy: none) |
/// | `hedgingPolicy.nonFatalStatusCodes` (default none) | `policy.classify.*`, as `retryableStatusCodes` |
/// | `timeout` | `policy.max_elapsed` (approximated: said on stderr) |
/// | `retryThrottling.maxTokens` (1…1000), `tokenRatio` (> 0, thousandths) | `policy.budget.kind: grpc`, `capacity`, `token_ratio` |
///
/// A method config with both a `retryPolicy` and a `hedgingPolicy` is refused (A6: they are
/// mutually exclusive). `waitForReady`, the message size limits and the load-balancing and
/// health-check settings are refused as not modelled unless the user lists them to ignore.
struct GRPCServiceConfigImport {
    var builder: ImportBuilder

    init(request: PolicyImportRequest, file: String) {
        builder = ImportBuilder(request: request, file: file)
    }

    static let topFields = ["methodConfig", "retryThrottling", "loadBalancingConfig", "loadBalancingPolicy", "healthCheckConfig", "connectionScaling"]
    static let methodFields = ["name", "waitForReady", "timeout", "maxRequestMessageBytes", "maxResponseMessageBytes", "retryPolicy", "hedgingPolicy"]
    static let retryFields = ["maxAttempts", "initialBackoff", "maxBackoff", "backoffMultiplier", "retryableStatusCodes", "perAttemptRecvTimeout"]
    static let hedgingFields = ["maxAttempts", "hedgingDelay", "nonFatalStatusCodes"]
    static let throttlingFields = ["maxTokens", "tokenRatio"]
    /// A6: "values greater than 5 are treated as 5" (the client's own limit).
    static let attemptCap = 5
    /// service_config.proto's `max_attempts` is a uint32: a larger number is not a service config.
    static let attemptsMost = Int(UInt32.max)

    mutating func run(_ document: DocumentNode) throws(ScenarioError) -> ImportedPolicy {
        let top = try document.fields(Self.topFields, spelling: .camel)
        builder.set("policy.preset", "grpc", default: "gRFC A6: ±20% jitter, pushback, no credential refresh")
        for (name, node) in top where !["methodConfig", "retryThrottling"].contains(name) {
            try builder.notModelled(
                node,
                name == "connectionScaling"
                    ? "connection scaling is not modelled"
                    : "load balancing and health checks are not modelled (operations spread uniformly over clients.hosts)")
        }
        var configs: [DocumentNode] = []
        if let list = top.first(where: { $0.name == "methodConfig" })?.value { configs = try list.items() }
        let method = try select(configs, in: document)
        try importMethod(method)
        if let throttling = top.first(where: { $0.name == "retryThrottling" })?.value {
            try importThrottling(throttling)
        } else {
            builder.set("policy.budget.kind", "unlimited", default: "no retryThrottling: retries are not throttled")
        }
        return try builder.finish(.grpcServiceConfig)
    }

    /// The methodConfig that applies to `--service`/`--method` as gRPC picks it (exact method,
    /// then the service's default, then the config's default: `service_config.proto`'s Name), or
    /// the only one when none is named.
    func select(_ configs: [DocumentNode], in document: DocumentNode) throws(ScenarioError) -> DocumentNode? {
        var named: [(service: String, method: String, config: DocumentNode)] = []
        for c in configs {
            let fields = try c.fields(Self.methodFields, spelling: .camel)
            for n in try fields.first(where: { $0.name == "name" })?.value.items() ?? [] {
                var service = ""
                var method = ""
                for (k, v) in try n.fields(["service", "method"], spelling: .camel) where v.scalarTag != .null {
                    if k == "service" { service = try v.text() } else { method = try v.text() }
                }
                if service.isEmpty && !method.isEmpty { throw n.failure("names a method without its service (service_config.proto: not allowed)") }
                if named.contains(where: { $0.service == service && $0.method == method }) {
                    throw n.failure("names \(Self.show(service, method)) again: each name must be unique across the service config")
                }
                named.append((service, method, c))
            }
        }
        let request = builder.request
        guard let service = request.service else {
            if request.method != nil { throw document.failure("--method needs --service (the method's service, with its proto package)") }
            guard configs.count <= 1 else {
                throw document.failure(
                    "has \(configs.count) methodConfig entries: name the method with --service and --method (policy.import.service and .method); names: \(named.map { Self.show($0.service, $0.method) }.joined(separator: ", "))"
                )
            }
            return configs.first
        }
        let method = request.method ?? ""
        let match =
            named.first { $0.service == service && $0.method == method && !method.isEmpty }
            ?? named.first { $0.service == service && $0.method.isEmpty } ?? named.first { $0.service.isEmpty }
        guard let match else {
            throw document.failure(
                "has no methodConfig for \(Self.show(service, method)) (names: \(named.isEmpty ? "none" : named.map { Self.show($0.service, $0.method) }.joined(separator: ", "))): gRPC would not retry it"
            )
        }
        return match.config
    }

    static func show(_ service: String, _ method: String) -> String {
        service.isEmpty ? "the default (every method)" : (method.isEmpty ? "\(service)/*" : "\(service)/\(method)")
    }

    mutating func importMethod(_ config: DocumentNode?) throws(ScenarioError) {
        let fields = try config?.fields(Self.methodFields, spelling: .camel) ?? []
        func field(_ name: String) -> DocumentNode? { fields.first { $0.name == name }?.value }
        for name in ["waitForReady", "maxRequestMessageBytes", "maxResponseMessageBytes"] {
            guard let node = field(name) else { continue }
            try builder.notModelled(
                node,
                name == "waitForReady"
                    ? "waitForReady is not modelled (a simulated client whose network is down fails its attempt at once)"
                    : "message sizes are not modelled")
        }
        let retry = field("retryPolicy")
        let hedging = field("hedgingPolicy")
        if let hedging, retry != nil {
            throw hedging.failure("comes with a retryPolicy: a method is retried or hedged, not both (gRFC A6: the two are mutually exclusive)")
        }
        if let retry {
            try importRetryPolicy(retry)
        } else if let hedging {
            try importHedgingPolicy(hedging)
        } else {
            let why = config == nil ? "no methodConfig" : "no retryPolicy"
            builder.set("policy.max_attempts", "1", default: "\(why): gRPC does not retry the call")
            try importCodes(nil, default: why)
        }
        if hedging == nil {
            builder.set("policy.hedge.delay", "none", default: config == nil ? "no methodConfig" : "no hedgingPolicy: the call is not hedged")
        }
        if let timeout = field("timeout") {
            let ns = try timeout.duration()
            guard ns > 0 else { throw timeout.failure("must be more than 0s") }
            builder.set("policy.max_elapsed", ProtoDuration.scenarioText(ns), from: timeout)
            builder.note(
                timeout,
                "approximated: the call's deadline covers every attempt; the simulator starts no attempt after it but lets one in flight run to clients.timeout"
            )
        } else {
            builder.set("policy.max_elapsed", "none", default: "no timeout: the call has no deadline")
        }
    }

    mutating func importRetryPolicy(_ retry: DocumentNode) throws(ScenarioError) {
        let fields = try retry.fields(Self.retryFields, spelling: .camel)
        func required(_ name: String) throws(ScenarioError) -> DocumentNode {
            guard let node = fields.first(where: { $0.name == name })?.value else {
                throw retry.failure("needs \(name) (gRFC A6: every field of retryPolicy is required)")
            }
            return node
        }
        try importAttempts(try required("maxAttempts"), as: "policy.max_attempts")
        let initialNode = try required("initialBackoff")
        let initial = try initialNode.duration()
        guard initial > 0 else { throw initialNode.failure("must be more than 0s (gRFC A6)") }
        let maxNode = try required("maxBackoff")
        let cap = try maxNode.duration()
        guard cap > 0 else { throw maxNode.failure("must be more than 0s (gRFC A6)") }
        let multiplierNode = try required("backoffMultiplier")
        let multiplier = try multiplierNode.number()
        guard multiplier > 0 else { throw multiplierNode.failure("must be more than 0 (gRFC A6; got \(ImportBuilder.number(multiplier)))") }
        guard multiplier >= 1 else {
            throw multiplierNode.failure(
                "below 1 makes delays shrink, which the simulator's backoff does not model (policy.backoff.multiplier is 1…100; got \(ImportBuilder.number(multiplier)))"
            )
        }
        if cap < initial {
            // min(initial × m^(n−1), max) is max for every retry when m ≥ 1: the same delays.
            builder.set("policy.backoff.base", ProtoDuration.scenarioText(cap), from: maxNode)
            builder.note(initialNode, "is above maxBackoff, so every delay is maxBackoff (before jitter): base is set to maxBackoff, the same delays")
        } else {
            builder.set("policy.backoff.base", ProtoDuration.scenarioText(initial), from: initialNode)
        }
        builder.set("policy.backoff.max", ProtoDuration.scenarioText(cap), from: maxNode)
        builder.set("policy.backoff.multiplier", ImportBuilder.number(multiplier), from: multiplierNode)
        let timer = try importRecvTimeout(fields.first { $0.name == "perAttemptRecvTimeout" }?.value)
        try importCodes(try required("retryableStatusCodes"), timer: timer)
        builder.note(
            nil,
            "jitter ±20% (policy.backoff.jitter proportional, jitter_fraction 0.2) as gRFC A6 says since 2024; clients built before it use full jitter"
        )
    }

    /// `maxAttempts` of a retry or hedging policy (> 1; above 5 taken as 5, with a note) as `key`.
    mutating func importAttempts(_ node: DocumentNode, as key: String) throws(ScenarioError) {
        let attempts = try node.integer(in: 2...Self.attemptsMost) { written, below in
            below
                ? "must be more than 1 (gRFC A6; got \(written))"
                : "must be at most \(Self.attemptsMost), a uint32 (service_config.proto; got \(written))"
        }
        builder.set(key, String(min(attempts, Self.attemptCap)), from: node)
        if attempts > Self.attemptCap {
            builder.note(node, "\(attempts) is taken as \(Self.attemptCap): gRFC A6 clients treat any value above 5 as 5")
        }
    }

    /// A hedging policy (A6): up to `maxAttempts` copies, the next after `hedgingDelay` (0s, every
    /// copy at once, when absent), the `nonFatalStatusCodes` (none when absent: any failure ends
    /// the call) sending the next copy at once. The copies are the attempts: no retries besides.
    mutating func importHedgingPolicy(_ hedging: DocumentNode) throws(ScenarioError) {
        let fields = try hedging.fields(Self.hedgingFields, spelling: .camel)
        func field(_ name: String) -> DocumentNode? { fields.first { $0.name == name }?.value }
        guard let attempts = field("maxAttempts") else { throw hedging.failure("needs maxAttempts (gRFC A6: required)") }
        builder.set("policy.max_attempts", "1", default: "hedgingPolicy: the hedged copies are the attempts; gRPC does not retry a hedged call")
        try importAttempts(attempts, as: "policy.hedge.max_attempts")
        if let delay = field("hedgingDelay") {
            builder.set("policy.hedge.delay", ProtoDuration.scenarioText(try delay.duration()), from: delay)
        } else {
            builder.set("policy.hedge.delay", "0s", default: "hedgingDelay default 0s: every copy at once", at: hedging)
        }
        // Optional, unlike retryableStatusCodes: none (or an empty list) makes every failure fatal.
        let codes = field("nonFatalStatusCodes")
        try importCodes(try codes?.items().isEmpty == false ? codes : nil, default: "no nonFatalStatusCodes: any failure ends the call")
    }

    /// The status codes `node` lists (retryable or non-fatal) as the `policy.classify.*` keys;
    /// without `node` (nil), nothing is retried, as `why` says.
    mutating func importCodes(_ node: DocumentNode?, default why: String) throws(ScenarioError) {
        guard let node else {
            builder.set("policy.classify.retryable_statuses", "none", default: why)
            builder.set("policy.classify.throttling_statuses", "none", default: why)
            builder.set("policy.classify.retry_conflict", "false", default: why)
            builder.set("policy.classify.retry_timeouts", "false", default: why)
            builder.set("policy.classify.retry_transport", "false", default: why)
            return
        }
        try importCodes(node)
    }

    /// `perAttemptRecvTimeout` (grpc-java's `ServiceConfigUtil`, grpc-core's retry filter): a
    /// timer per attempt, until the response headers arrive, that cancels the attempt and retries
    /// it whatever `retryableStatusCodes` list (grpc-core's `OnPerAttemptRecvTimerLocked` asks
    /// `ShouldRetry` with no status). It is `clients.timeout` (on a call graph's edge, the call's
    /// `timeout`), and the attempt it ends is retried (`retry_timeouts`); the node, when given.
    mutating func importRecvTimeout(_ node: DocumentNode?) throws(ScenarioError) -> DocumentNode? {
        guard let node else { return nil }
        let ns = try node.duration()
        guard ns > 0 else { throw node.failure("must be more than 0s: a zero timer would cancel every attempt as it starts") }
        builder.set("clients.timeout", ProtoDuration.scenarioText(ns), from: node)
        builder.note(
            node,
            "approximated: gRPC's timer stops when the response headers arrive, the simulator's (clients.timeout) when the whole response does (a simulated response arrives whole, so the same here); the attempt it ends is retried whatever retryableStatusCodes list, as gRPC's retry filter retries it"
        )
        return node
    }

    /// The codes of `node` as the `policy.classify.*` keys; `timer`, a `perAttemptRecvTimeout`
    /// that retries the attempts it ends (so `retry_timeouts` is true, and the list may be empty,
    /// as grpc-java takes it).
    mutating func importCodes(_ node: DocumentNode, timer: DocumentNode? = nil) throws(ScenarioError) {
        let items = try node.items()
        guard !items.isEmpty || timer != nil else { throw node.failure("must not be empty (gRFC A6)") }
        var codes = Set<GRPCStatusCode>()
        for item in items {
            let code = try Self.statusCode(item)
            guard code.number != 0 else { throw item.failure("OK is not a failure: it cannot be retried") }
            codes.insert(code)
            if !builder.grpcCodes.contains(code.name) { builder.grpcCodes.append(code.name) }
        }
        let c = GRPCStatusCode.classification(retrying: codes)
        builder.set("policy.classify.retryable_statuses", ImportBuilder.statuses(c.retryable), from: node)
        builder.set("policy.classify.throttling_statuses", ImportBuilder.statuses(c.throttling), from: node)
        builder.set("policy.classify.retry_conflict", String(c.conflict), from: node)
        builder.set("policy.classify.retry_timeouts", String(c.timeouts || timer != nil), from: c.timeouts ? node : timer ?? node)
        builder.set("policy.classify.retry_transport", String(c.transport), from: node)
        for line in Self.shared(codes) { builder.note(node, line) }
        if codes.contains(GRPCStatusCode.deadlineExceeded) && timer == nil {
            builder.note(
                node,
                "DEADLINE_EXCEEDED: the simulated per-attempt timeout (clients.timeout) is retried; a gRPC client has no per-attempt timeout (its deadline ends the call), so this stands for a server that answers DEADLINE_EXCEEDED"
            )
        }
    }

    /// The status code `item` writes, read as grpc-go reads it (``GRPCStatusCode/rule``): a
    /// near miss is refused stating the rule, with the spelling grpc-go takes when there is one.
    static func statusCode(_ item: DocumentNode) throws(ScenarioError) -> GRPCStatusCode {
        guard case .scalar(let s) = item.node else { throw item.failure("expected a gRPC status code (got \(item.shown)): \(GRPCStatusCode.rule)") }
        let raw = s.string
        let isDigits = !raw.isEmpty && raw.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        if item.scalarTag == .str {
            if let code = GRPCStatusCode.code(named: raw) { return code }
            let shown = "'\(MessageText.escaped(raw))' is not a gRPC status code: \(GRPCStatusCode.rule)"
            if isDigits, let n = Int(raw), let code = GRPCStatusCode.code(numbered: n) {
                throw item.failure("\(shown); write \(n) without quotes, or \"\(code.name)\"")
            }
            if let code = GRPCStatusCode.code(named: raw.uppercased()) { throw item.failure("\(shown); write \"\(code.name)\"") }
            guard !isDigits else { throw item.failure(shown) }
            let hint = Suggest.nearest(raw.uppercased(), in: GRPCStatusCode.all.map(\.name)).map { "; did you mean \($0)?" } ?? ""
            throw item.failure(shown + hint)
        }
        // A number: plain digits only (no sign, point or exponent), and a code's number.
        if isDigits, let n = Int(raw), let code = GRPCStatusCode.code(numbered: n) { return code }
        throw item.failure("\(item.shown) is not a gRPC status code: \(GRPCStatusCode.rule)")
    }

    /// Notes for the statuses several codes share, when the file lists only some of those codes.
    static func shared(_ codes: Set<GRPCStatusCode>) -> [String] {
        var out: [String] = []
        for status in [400, 409, 500] {
            let all = GRPCStatusCode.codes(for: status)
            let listed = all.filter { codes.contains($0) }
            guard !listed.isEmpty, listed.count < all.count else { continue }
            out.append(
                "the simulated \(status) stands for \(all.map(\.name).joined(separator: ", ")) alike (google/rpc/code.proto maps them all to HTTP \(status)): it is retried because \(listed.map(\.name).joined(separator: ", ")) is listed"
            )
        }
        return out
    }

    mutating func importThrottling(_ node: DocumentNode) throws(ScenarioError) {
        let fields = try node.fields(Self.throttlingFields, spelling: .camel)
        guard let tokensNode = fields.first(where: { $0.name == "maxTokens" })?.value,
            let ratioNode = fields.first(where: { $0.name == "tokenRatio" })?.value
        else { throw node.failure("needs maxTokens and tokenRatio (gRFC A6: both required)") }
        let tokens = try tokensNode.integer(in: 1...1000) { written, _ in "must be 1…1000 (gRFC A6; got \(written))" }
        let ratio = try ratioNode.number()
        guard ratio > 0 else { throw ratioNode.failure("must be more than 0 (gRFC A6; got \(ImportBuilder.number(ratio)))") }
        // Checked before × 1000, which makes 1e308 infinite.
        let most = ImportBuilder.most(of: "policy.budget.token_ratio")
        guard ratio <= most else {
            throw ratioNode.failure(
                "must be at most \(ImportBuilder.number(most)), the most policy.budget.token_ratio takes (got \(ImportBuilder.number(ratio)))")
        }
        // A6 supports 3 decimal places; the simulator counts thousandths of a token.
        let thousandths = (ratio * 1000).rounded()
        guard thousandths >= 1 else {
            throw ratioNode.failure("is below 0.0005, which is 0 in the thousandths of a token gRFC A6 supports (got \(ImportBuilder.number(ratio)))")
        }
        builder.set("policy.budget.kind", "grpc", from: node)
        builder.set("policy.budget.capacity", String(tokens), from: tokensNode)
        builder.set("policy.budget.token_ratio", ImportBuilder.number(thousandths / 1000), from: ratioNode)
        if thousandths / 1000 != ratio {
            builder.note(
                ratioNode,
                "\(ImportBuilder.number(ratio)) has more than 3 decimal places (gRFC A6 supports 3): taken as \(ImportBuilder.number(thousandths / 1000))"
            )
        }
        builder.note(node, "throttles per client and host in the simulator; gRPC keeps one token count per server name in each client")
    }
}
