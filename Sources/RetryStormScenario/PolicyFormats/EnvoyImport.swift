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
        try collect(document, routes: &routes, clusters: &clusters)
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

    /// Walks the document from its top message (``EnvoyMessage/top(_:)``; a Bootstrap when no
    /// field tells; each item of an xDS response's `resources` by its `@type`), refusing at its
    /// field anything a message of the path does not have, and finds the routes (with their
    /// virtual host's retry policy) and the clusters.
    mutating func collect(_ document: DocumentNode, routes: inout [Route], clusters: inout [DocumentNode]) throws(ScenarioError) {
        let top = try Self.mapping(document)
        if let resources = top.first(where: { $0.0 == "resources" })?.1,
            top.count == 1 || top.allSatisfy({ ["resources", "version_info", "type_url", "nonce", "@type"].contains($0.0) })
        {
            for item in try resources.items() {
                let fields = try Self.mapping(item)
                let type = try fields.first { $0.0 == "@type" }?.1.text()
                let message =
                    EnvoyMessage.allCases.first { type?.hasSuffix("." + ($0.name.split(separator: ".").last ?? "")) == true }
                    ?? EnvoyMessage.top(Set(fields.map(\.0))) ?? .bootstrap
                try collect(item, as: message, host: nil, routes: &routes, clusters: &clusters)
            }
            return
        }
        let message = EnvoyMessage.top(Set(top.map(\.0))) ?? .bootstrap
        // A route's settings and its cluster's in one file (`routes:` or `virtual_hosts:` beside
        // `clusters:`), as a team collects them from an RDS and a CDS resource: the clusters are
        // walked as clusters.
        var beside: Set<String> = []
        if ![.bootstrap, .staticResources].contains(message), let list = top.first(where: { $0.0 == "clusters" })?.1 {
            beside.insert("clusters")
            for item in try list.items() { try collect(item, as: .cluster, host: nil, routes: &routes, clusters: &clusters) }
        }
        try collect(document, as: message, host: nil, beside: beside, routes: &routes, clusters: &clusters)
    }

    /// `beside`: fields the file's top holds beside the message's own (``collect(_:routes:clusters:)``).
    mutating func collect(
        _ node: DocumentNode, as message: EnvoyMessage, host: DocumentNode?, beside: Set<String> = [], routes: inout [Route],
        clusters: inout [DocumentNode]
    ) throws(ScenarioError) {
        let fields = try Self.mapping(node)
        for (name, value) in fields where !message.fields.contains(name) && !beside.contains(name) {
            try refuseUnknown(name, value, in: node, of: message)
        }
        switch message {
        case .route:
            var r = Route(node: node)
            for (name, value) in fields {
                if name == "name" {
                    r.name = try value.text()
                    r.nameNode = value
                }
                if name == "route", case .mapping = value.node { r.action = value }
            }
            if let host {
                for (name, value) in try Self.mapping(host) {
                    if name == "retry_policy" { r.hostPolicy = value }
                    if name == "hedge_policy" { r.hostHedge = value }
                }
            }
            routes.append(r)
        case .cluster:
            clusters.append(node)
        default:
            break
        }
        for (field, child, list) in message.children {
            guard let value = fields.first(where: { $0.0 == field })?.1 else { continue }
            for item in list ? try value.items() : [value] {
                if child == .httpConnectionManager {
                    let keys = try Self.mapping(item)
                    let type = try keys.first { $0.0 == "@type" }?.1.text()
                    guard EnvoyMessage.isConnectionManager(Set(keys.map(\.0)), type: type) else { continue }
                }
                // A route's action may be a redirect's; only a mapping is a RouteAction to walk.
                if child == .routeAction, !item.isMapping { continue }
                // A route's retry policy falls back to its virtual host's.
                try collect(item, as: child, host: message == .virtualHost ? node : host, routes: &routes, clusters: &clusters)
            }
        }
    }

    /// Refuses `name`, a field `message` does not have, at its key: with the nearest field it
    /// does have, or, when the field belongs one level down (`retry_policy` on a route item
    /// rather than under its `route`), where it goes. Listed to ignore, it is said instead: a
    /// newer Envoy may have a field this list lacks.
    mutating func refuseUnknown(_ name: String, _ value: DocumentNode, in parent: DocumentNode, of message: EnvoyMessage) throws(ScenarioError) {
        if builder.request.ignores(value.path) {
            builder.note(value, "ignored as asked: not a field of \(message.name) that this importer knows")
            return
        }
        var at = value
        if case .mapping(let m) = parent.node {
            for (k, _) in m {
                if case .scalar(let s) = k, DocumentNode.canonical(s.string, .snake) == name {
                    at = DocumentNode(node: k, path: value.path, file: value.file)
                }
            }
        }
        var hint = Suggest.nearest(name, in: message.fields.sorted()).map { "; did you mean '\($0)'?" } ?? ""
        if let below = message.children.first(where: { !$0.list && $0.message.fields.contains(name) }) {
            hint = "; \(name) is a field of \(below.message.name), which this message holds as \(below.field): did you mean \(below.field).\(name)?"
        }
        throw at.failure(
            "is not a field of \(message.name)\(hint) (Envoy refuses a field it does not know; if a newer Envoy has it, list it to ignore: --ignore \(ImportBuilder.name(value.path)))"
        )
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
