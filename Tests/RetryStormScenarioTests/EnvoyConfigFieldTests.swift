import RetryStormScenario
import RetryStormVocabulary
import Testing

/// Envoy refuses a field its proto does not declare; the importer does too, at every message on
/// the way to a route's retry policy and a cluster's circuit breakers (Bootstrap, Listener,
/// FilterChain, Filter, HttpConnectionManager, RouteConfiguration, VirtualHost, Route,
/// RouteAction, Cluster). Before, `retry_polcy` under `route`, `circuit_breaker` in a cluster or
/// `retry_policy` on the route item imported silently as "Envoy does not retry" with default
/// thresholds.
struct EnvoyConfigFieldTests {
    typealias S = PolicyFormatSupport

    /// A full configuration with one field added where `marker` is (`TOP`, `LISTENER`, `CHAIN`,
    /// `FILTER`, `HCM`, `RC`, `VH`, `ROUTE`, `ACTION`, `CLUSTER`); the other markers become
    /// comments, so that every line keeps its number.
    static func config(_ marker: String, _ field: String) -> String {
        let text = """
            TOP: 1
            static_resources:
              listeners:
              - name: ingress
                LISTENER: 1
                filter_chains:
                - name: main
                  CHAIN: 1
                  filters:
                  - name: envoy.filters.network.http_connection_manager
                    FILTER: 1
                    typed_config:
                      "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
                      HCM: 1
                      route_config:
                        RC: 1
                        virtual_hosts:
                        - name: shop
                          VH: 1
                          domains: ["*"]
                          routes:
                          - name: checkout
                            ROUTE: 1
                            route: {cluster: cart, retry_policy: {retry_on: 5xx}, ACTION: 1}
              clusters:
              - name: cart
                CLUSTER: 1

            """
        var out = text.replacingOccurrences(of: ", ACTION: 1", with: marker == "ACTION" ? ", \(field)" : "")
        for m in ["TOP", "LISTENER", "CHAIN", "FILTER", "HCM", "RC", "VH", "ROUTE", "CLUSTER"] {
            out = out.replacingOccurrences(of: "\(m): 1", with: m == marker ? field : "# \(m)")
        }
        return out
    }

    @Test("the configuration without a stray field imports: 5xx with one retry")
    func clean() throws {
        let imported = try S.importing(Self.config("none", ""), file: "envoy.yaml")
        #expect(imported.value(of: "policy.max_attempts") == "2")
    }

    @Test(
        "a misspelt field is refused at every depth, with its line and column, path and the nearest field",
        arguments: [
            (
                "TOP", "static_resource: {}",
                "envoy.yaml:1:1: field 'static_resource': is not a field of envoy.config.bootstrap.v3.Bootstrap; did you mean 'static_resources'?"
            ),
            (
                "LISTENER", "filter_chain: []",
                "envoy.yaml:5:5: field 'static_resources.listeners[0].filter_chain': is not a field of envoy.config.listener.v3.Listener; did you mean 'filter_chains'?"
            ),
            (
                "CHAIN", "filter_chain_matc: {}",
                "envoy.yaml:8:7: field 'static_resources.listeners[0].filter_chains[0].filter_chain_matc': is not a field of envoy.config.listener.v3.FilterChain; did you mean 'filter_chain_match'?"
            ),
            (
                "FILTER", "typed_confg: {}",
                "envoy.yaml:11:9: field 'static_resources.listeners[0].filter_chains[0].filters[0].typed_confg': is not a field of envoy.config.listener.v3.Filter; did you mean 'typed_config'?"
            ),
            (
                "HCM", "stat_prefx: x",
                "envoy.yaml:14:11: field 'static_resources.listeners[0].filter_chains[0].filters[0].typed_config.stat_prefx': is not a field of envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager; did you mean 'stat_prefix'?"
            ),
            (
                "RC", "virtual_host: []",
                "envoy.yaml:16:13: field 'static_resources.listeners[0].filter_chains[0].filters[0].typed_config.route_config.virtual_host': is not a field of envoy.config.route.v3.RouteConfiguration; did you mean 'virtual_hosts'?"
            ),
            (
                "VH", "domain: ['*']",
                "envoy.yaml:19:15: field 'static_resources.listeners[0].filter_chains[0].filters[0].typed_config.route_config.virtual_hosts[0].domain': is not a field of envoy.config.route.v3.VirtualHost; did you mean 'domains'?"
            ),
            (
                "ACTION", "retry_polcy: {num_retries: 3}",
                "envoy.yaml:24:71: field 'static_resources.listeners[0].filter_chains[0].filters[0].typed_config.route_config.virtual_hosts[0].routes[0].route.retry_polcy': is not a field of envoy.config.route.v3.RouteAction; did you mean 'retry_policy'?"
            ),
            (
                "CLUSTER", "circuit_breaker: {thresholds: [{max_retries: 9}]}",
                "envoy.yaml:27:5: field 'static_resources.clusters[0].circuit_breaker': is not a field of envoy.config.cluster.v3.Cluster; did you mean 'circuit_breakers'?"
            )
        ])
    func misspelt(_ marker: String, _ field: String, _ expected: String) {
        let refusal = S.refusal(Self.config(marker, field), file: "envoy.yaml")
        #expect(refusal?.hasPrefix(expected + " (Envoy refuses a field it does not know") == true, "\(refusal ?? "imported")")
    }

    @Test("retry_policy on the route item rather than under its route is refused, saying where it goes")
    func misplaced() {
        let refusal = S.refusal(Self.config("ROUTE", "retry_policy: {retry_on: reset}"), file: "envoy.yaml")
        #expect(
            refusal?.hasPrefix(
                "envoy.yaml:23:17: field 'static_resources.listeners[0].filter_chains[0].filters[0].typed_config.route_config.virtual_hosts[0].routes[0].retry_policy': is not a field of envoy.config.route.v3.Route; retry_policy is a field of envoy.config.route.v3.RouteAction, which this message holds as route: did you mean route.retry_policy?"
            ) == true, "\(refusal ?? "imported")")
    }

    @Test("every misplaced field is listed at once; a field a newer Envoy may have is imported when listed to ignore")
    func allAndIgnored() throws {
        let text = Self.config("CLUSTER", "circuit_breaker: {}").replacingOccurrences(
            of: "# ROUTE", with: "retry_polcy: {}")
        do {
            _ = try S.importing(text, file: "envoy.yaml")
            Issue.record("imported")
        } catch {
            #expect(
                ([error] + error.more).map(\.field) == [
                    "static_resources.listeners[0].filter_chains[0].filters[0].typed_config.route_config.virtual_hosts[0].routes[0].retry_polcy",
                    "static_resources.clusters[0].circuit_breaker"
                ])
        }
        let ignored = try S.importing(Self.config("VH", "newer_field: true"), PolicyImportRequest(ignore: ["newer_field"]), file: "envoy.yaml")
        #expect(
            ignored.notes.contains {
                $0.hasSuffix("newer_field: ignored as asked: not a field of envoy.config.route.v3.VirtualHost that this importer knows")
            })
    }

    @Test("another filter's typed_config is not read; an xDS response's resources are, each by its @type")
    func notRead() throws {
        let tcp = Self.config("none", "").replacingOccurrences(
            of: "      filters:\n",
            with:
                "      filters:\n      - {name: tcp, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy, cluster: x}}\n"
        )
        #expect(try S.importing(tcp, file: "envoy.yaml").value(of: "policy.max_attempts") == "2")
        let rds = """
            resources:
            - "@type": type.googleapis.com/envoy.config.route.v3.RouteConfiguration
              virtual_hosts: [{name: a, domains: ["*"], routes: [{name: r, route: {cluster: c, retry_polcy: {}}}]}]

            """
        #expect(S.refusal(rds, file: "rds.yaml")?.contains("field 'resources[0].virtual_hosts[0].routes[0].route.retry_polcy'") == true)
    }
}
