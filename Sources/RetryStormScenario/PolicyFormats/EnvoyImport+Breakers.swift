import RetryPolicy
import RetryStormVocabulary

/// A cluster's `circuit_breakers`: the thresholds of the route's priority.
extension EnvoyImport {
    /// Envoy's defaults for a priority's thresholds (circuit_breaker.proto).
    static let defaultMaxRetries = 3
    static let defaultMaxRequests = 1024
    static let defaultBudgetPercent = 20.0
    static let defaultMinRetryConcurrency = 3

    mutating func importBreakers(_ node: DocumentNode?, cluster: DocumentNode?, priority: String) throws(ScenarioError) {
        guard ["DEFAULT", "HIGH"].contains(priority) else {
            throw (cluster ?? node)?.failure("the route's priority must be DEFAULT or HIGH (got '\(MessageText.escaped(priority))')")
                ?? ScenarioError(SourceLocation(origin: .file(builder.file)), "the route's priority must be DEFAULT or HIGH")
        }
        var chosen: DocumentNode?
        if let node {
            for (name, value) in try node.fields(Self.breakerFields, spelling: .snake) {
                if name == "per_host_thresholds" {
                    try builder.notModelled(value, "per-host thresholds are not modelled (the simulator limits per client and host already)")
                    continue
                }
                var seen = Set<String>()
                for item in try value.items() {
                    let fields = try item.fields(Self.thresholdFields, spelling: .snake)
                    let p = try fields.first { $0.name == "priority" }?.value.text() ?? "DEFAULT"
                    guard ["DEFAULT", "HIGH"].contains(p) else {
                        throw item.failure("priority must be DEFAULT or HIGH (got '\(MessageText.escaped(p))')")
                    }
                    guard seen.insert(p).inserted else { throw item.failure("gives the thresholds of priority \(p) a second time") }
                    if p == priority { chosen = item }
                }
            }
        }
        let fields = try chosen?.fields(Self.thresholdFields, spelling: .snake) ?? []
        func field(_ name: String) -> DocumentNode? { fields.first { $0.name == name }?.value }
        for name in ["max_connections", "max_pending_requests", "max_connection_pools"] {
            guard let value = field(name) else { continue }
            try builder.notModelled(value, "connections and connection pools are not modelled (a simulated attempt needs no connection)")
        }
        if let track = field("track_remaining") { _ = try track.boolean() }  // statistics only: no effect on requests
        if let budget = field("retry_budget") {
            try importBudget(budget)
        } else if let maxRetries = field("max_retries") {
            let n = try Self.count(maxRetries, as: "policy.budget.min_concurrency", atLeast: "must not be negative")
            setBudget(percent: ("0", nil, "max_retries: no share of requests"), minimum: (String(n), maxRetries, ""))
        } else {
            setBudget(
                percent: ("0", nil, "max_retries: no share of requests"), minimum: (String(Self.defaultMaxRetries), nil, "max_retries default 3"))
        }
        if let maxRequests = field("max_requests") {
            let n = try Self.count(maxRequests, as: "policy.concurrency.max_in_flight", atLeast: "must be at least 1 for a request to be sent")
            builder.set("policy.concurrency.max_in_flight", String(n), from: maxRequests)
        } else {
            builder.set("policy.concurrency.max_in_flight", String(Self.defaultMaxRequests), default: "max_requests default 1024")
        }
        builder.set("policy.concurrency.background_max", "none", default: "Envoy has one lane per priority")
        builder.set("policy.concurrency.when_full", "reject", default: "an overflowing request fails at once (503, x-envoy-overloaded)")
        builder.note(
            chosen ?? node,
            "approximated: Envoy counts max_retries, retry_budget and max_requests per cluster over every request through one proxy; the simulator per client and host (the same for a sidecar proxy per client and one host)"
        )
    }

    mutating func importBudget(_ budget: DocumentNode) throws(ScenarioError) {
        let fields = try budget.fields(["budget_percent", "min_retry_concurrency"], spelling: .snake)
        var percent = Self.defaultBudgetPercent
        var percentNode: DocumentNode?
        if let p = fields.first(where: { $0.name == "budget_percent" })?.value {
            // type.v3.Percent: {value: 20.0}.
            guard let v = try p.fields(["value"], spelling: .snake).first?.value else { throw p.failure("needs value (a percentage 0…100)") }
            percent = try v.number()
            guard (0...100).contains(percent) else { throw v.failure("must be 0…100 (got \(ImportBuilder.number(percent)))") }
            percentNode = v
        }
        var minimum = Self.defaultMinRetryConcurrency
        let minimumNode = fields.first { $0.name == "min_retry_concurrency" }?.value
        if let minimumNode {
            minimum = try Self.count(minimumNode, as: "policy.budget.min_concurrency", atLeast: "must not be negative")
        }
        setBudget(
            percent: (ImportBuilder.number(percent / 100), percentNode, "budget_percent default 20%"),
            minimum: (String(minimum), minimumNode, "min_retry_concurrency default 3"))
    }

    /// A threshold that becomes the integer key `path`, in its range: below it refused as
    /// `atLeast` says, above it naming the most the key takes.
    static func count(_ node: DocumentNode, as path: String, atLeast: String) throws(ScenarioError) -> Int {
        try node.integer(in: ImportBuilder.range(of: path)) { written, below in
            below ? "\(atLeast) (got \(written))" : ImportBuilder.aboveKey(path, written)
        }
    }

    /// The budget keys: each value with the field it comes from, or the default it is.
    mutating func setBudget(percent: (String, DocumentNode?, String), minimum: (String, DocumentNode?, String)) {
        builder.set("policy.budget.kind", "envoy", default: "circuit_breakers: concurrent retries")
        for (path, (value, node, source)) in [("policy.budget.percent", percent), ("policy.budget.min_concurrency", minimum)] {
            if let node { builder.set(path, value, from: node) } else { builder.set(path, value, default: source) }
        }
    }
}
