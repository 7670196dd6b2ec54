import RetryPolicy
import RetryStormVocabulary
import Yams

/// Envoy's retry settings as scenario keys: a route's `retry_policy` and `timeout`
/// (`envoy/config/route/v3/route_components.proto`) and its cluster's `circuit_breakers`
/// (`envoy/config/cluster/v3/circuit_breaker.proto`), with the defaults Envoy's docs give.
///
/// The file is either the three fields alone at the top level (`retry_policy`, `timeout`,
/// `circuit_breakers`), or Envoy configuration holding them where Envoy does: routes (the items
/// of a `routes` list, a route's `route.retry_policy`, else its virtual host's `retry_policy`) and
/// clusters (the items of a `clusters` list, by `name`). The route is the one `--route` names
/// (or the only one); its cluster is `--cluster` or the route's `route.cluster`. Only those
/// fields of a route and a cluster are read: the rest is routing, not retrying.
///
/// The keys start from `policy.preset: envoy` (fully jittered exponential backoff doubling from
/// `base_interval`, Retry-After ignored unless `rate_limited_retry_back_off` says otherwise, no
/// credential refresh, overflow failing at once) and set:
///
/// | field (default) | key |
/// |---|---|
/// | `retry_policy.num_retries` (1: retries, not attempts) | `policy.max_attempts` = num_retries + 1 |
/// | `retry_policy.retry_on` (none: nothing retried), `retriable_status_codes` | `policy.classify.*` |
/// | `retry_policy.retry_back_off.base_interval` (25ms), `max_interval` (10 × base) | `policy.backoff.base`, `policy.backoff.max` |
/// | `retry_policy.rate_limited_retry_back_off` (none: Retry-After ignored) | `policy.retry_after*` |
/// | `retry_policy.per_try_timeout` (none) | `clients.timeout` (on an edge, the call's `timeout`) |
/// | route `timeout` (15s; 0s: none) | `policy.max_elapsed` (approximated) |
/// | `thresholds[priority DEFAULT].max_retries` (3), `retry_budget` {`budget_percent` 20, `min_retry_concurrency` 3} | `policy.budget.*` (kind envoy) |
/// | `thresholds[priority DEFAULT].max_requests` (1024) | `policy.concurrency.max_in_flight` (overflow fails) |
struct EnvoyImport {
    var builder: ImportBuilder

    init(request: PolicyImportRequest, file: String) {
        builder = ImportBuilder(request: request, file: file)
    }

    static let bareFields = ["retry_policy", "timeout", "circuit_breakers"]
    static let retryFields = [
        "retry_on", "num_retries", "per_try_timeout", "per_try_idle_timeout", "retry_priority", "retry_host_predicate", "retry_options_predicates",
        "host_selection_retry_max_attempts", "retriable_status_codes", "retry_back_off", "rate_limited_retry_back_off", "retriable_headers",
        "retriable_request_headers"
    ]
    static let breakerFields = ["thresholds", "per_host_thresholds"]
    static let thresholdFields = [
        "priority", "max_connections", "max_pending_requests", "max_requests", "max_retries", "retry_budget", "track_remaining",
        "max_connection_pools"
    ]
    /// Envoy's defaults (route_components.proto, circuit_breaker.proto, the router filter's docs).
    static let defaultBase: Int64 = 25_000_000
    /// Why `hedge_policy` is refused: Envoy hedges through its retry policy, the simulator after a delay.
    static let hedgeRefusal =
        "Envoy's hedging is not modelled: it keeps an attempt that reached its per-try timeout running while the retry policy sends the next (hedge_on_per_try_timeout), where the simulator hedges after a delay, without backoff (policy.hedge.*, on a call graph's calls)"
    static let defaultRouteTimeout: Int64 = 15_000_000_000
    static let defaultRateLimitedMax: Int64 = 300_000_000_000

    /// A route found in the file: its name, the route action and the virtual host's retry policy.
    struct Route {
        var name: String?
        /// Where the name is written, for messages.
        var nameNode: DocumentNode?
        var node: DocumentNode
        var action: DocumentNode?
        var hostPolicy: DocumentNode?
        var hostHedge: DocumentNode?
    }

    mutating func run(_ document: DocumentNode) throws(ScenarioError) -> ImportedPolicy {
        builder.set("policy.preset", "envoy", default: "Envoy's router: fully jittered backoff, overflow fails at once")
        guard case .mapping(let top) = document.node else { throw document.failure("expected a mapping") }
        let isBare = top.contains { k, _ in
            guard case .scalar(let s) = k else { return false }
            return Self.bareFields.contains(DocumentNode.canonical(s.string, .snake))
        }
        if isBare {
            let fields = try document.fields(Self.bareFields, spelling: .snake)
            try importRoute(
                policy: fields.first { $0.name == "retry_policy" }?.value, timeout: fields.first { $0.name == "timeout" }?.value,
                routeName: nil)
            try importBreakers(fields.first { $0.name == "circuit_breakers" }?.value, cluster: nil, priority: "DEFAULT")
            return try builder.finish(.envoy)
        }
        var routes: [Route] = []
        var clusters: [DocumentNode] = []
        try Self.collect(document, parentKey: nil, host: nil, routes: &routes, clusters: &clusters)
        let route = try pick(routes, in: document)
        var priority = "DEFAULT"
        var clusterName = builder.request.cluster
        var policy = route?.hostPolicy
        var timeout: DocumentNode?
        if let action = route?.action {
            for (name, value) in try Self.mapping(action) {
                switch name {
                case "retry_policy": policy = value
                case "timeout": timeout = value
                case "cluster": if clusterName == nil { clusterName = try value.text() }
                case "priority": priority = try value.text()
                case "hedge_policy": throw value.failure(Self.hedgeRefusal)
                default: continue
                }
            }
        }
        if let hedge = route?.hostHedge { throw hedge.failure(Self.hedgeRefusal) }
        try importRoute(policy: policy, timeout: timeout, routeName: route?.name)
        let cluster = try pickCluster(clusters, named: clusterName, in: document)
        var breakers: DocumentNode?
        if let cluster {
            for (name, value) in try Self.mapping(cluster) {
                if name == "circuit_breakers" { breakers = value }
                if name == "outlier_detection" {
                    try builder.notModelled(
                        value,
                        "outlier detection is not modelled (a per-host circuit breaker, policy.breaker.kind consecutive with open_growth linear, comes close)"
                    )
                }
            }
        }
        try importBreakers(breakers, cluster: cluster, priority: priority)
        return try builder.finish(.envoy)
    }

    /// The fields of a mapping in snake_case, any name allowed (routes and clusters hold much
    /// that is not about retries).
    static func mapping(_ node: DocumentNode) throws(ScenarioError) -> [(String, DocumentNode)] {
        guard case .mapping(let m) = node.node else { throw node.failure("expected a mapping (got \(node.shown))") }
        var out: [(String, DocumentNode)] = []
        for (k, v) in m {
            guard case .scalar(let s) = k else { continue }
            let child = node.child(s.string, v)
            if !child.isSkipped { out.append((DocumentNode.canonical(s.string, .snake), child)) }
        }
        return out
    }

    /// Finds routes (items of `routes` lists, with their virtual host's retry policy) and
    /// clusters (items of `clusters` lists) anywhere in the document.
    static func collect(
        _ node: DocumentNode, parentKey: String?, host: DocumentNode?, routes: inout [Route], clusters: inout [DocumentNode]
    ) throws(ScenarioError) {
        switch node.node {
        case .sequence:
            for item in try node.items() {
                if parentKey == "routes", case .mapping = item.node {
                    var r = Route(node: item)
                    for (name, value) in try mapping(item) {
                        if name == "name" {
                            r.name = try value.text()
                            r.nameNode = value
                        }
                        if name == "route", case .mapping = value.node { r.action = value }
                    }
                    if let host {
                        for (name, value) in try mapping(host) {
                            if name == "retry_policy" { r.hostPolicy = value }
                            if name == "hedge_policy" { r.hostHedge = value }
                        }
                    }
                    routes.append(r)
                    continue
                }
                if parentKey == "clusters", case .mapping = item.node {
                    clusters.append(item)
                    continue
                }
                try collect(item, parentKey: nil, host: parentKey == "virtual_hosts" ? item : host, routes: &routes, clusters: &clusters)
            }
        case .mapping:
            for (name, value) in try mapping(node) {
                try collect(value, parentKey: name, host: host, routes: &routes, clusters: &clusters)
            }
        case .scalar, .alias:
            break
        }
    }

    func pick(_ routes: [Route], in document: DocumentNode) throws(ScenarioError) -> Route? {
        let names = routes.compactMap(\.name)
        if let wanted = builder.request.route {
            let matches = routes.filter { $0.name == wanted }
            guard let r = matches.first else {
                let hint = Suggest.nearest(wanted, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw document.failure(
                    "has no route named '\(MessageText.escaped(wanted))' (routes: \(names.isEmpty ? "none" : names.joined(separator: ", ")))\(hint)")
            }
            // Envoy does not require route names to be unique; --route must pick one, not the first.
            guard matches.count == 1 else {
                let lines = matches.map { ($0.nameNode ?? $0.node).node.mark.map { String($0.line) } ?? "?" }
                throw (r.nameNode ?? r.node).failure(
                    "\(matches.count) routes are named '\(MessageText.escaped(wanted))', at lines \(Self.listed(lines)): --route cannot tell them apart; give each route its own name"
                )
            }
            return r
        }
        guard routes.count <= 1 else {
            throw document.failure(
                "has \(routes.count) routes: name one with --route (policy.import.route); named routes: \(names.isEmpty ? "none" : names.joined(separator: ", "))"
            )
        }
        guard let only = routes.first else {
            throw document.failure("has no route (an item of a `routes` list) and no top-level retry_policy, timeout or circuit_breakers")
        }
        return only
    }

    /// `5 and 12`, `5, 9 and 12`.
    static func listed(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// The cluster named `name` (`--cluster`, else the route's), or the only one when none is
    /// named; nil (Envoy's defaults, with a note) when the route's cluster is not in the file.
    mutating func pickCluster(_ clusters: [DocumentNode], named name: String?, in document: DocumentNode) throws(ScenarioError) -> DocumentNode? {
        var byName: [(String, DocumentNode)] = []
        for c in clusters {
            for (k, v) in try Self.mapping(c) where k == "name" { byName.append((try v.text(), c)) }
        }
        guard let name else { return clusters.count == 1 ? clusters[0] : nil }
        if let found = byName.first(where: { $0.0 == name }) { return found.1 }
        if builder.request.cluster != nil {
            throw document.failure(
                "has no cluster named '\(MessageText.escaped(name))' (clusters: \(byName.isEmpty ? "none" : byName.map(\.0).joined(separator: ", ")))"
            )
        }
        builder.note(nil, "the route's cluster '\(name)' is not in the file: Envoy's default thresholds apply (max_retries 3, max_requests 1024)")
        return nil
    }
}
