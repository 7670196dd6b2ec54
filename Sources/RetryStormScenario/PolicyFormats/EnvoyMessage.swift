/// The messages of Envoy's configuration on the way from the file's top to a route's retry policy
/// and a cluster's circuit breakers, each with every field its proto declares (the union over
/// Envoy's v3 API, deprecated fields included), so that a misspelt or misplaced field is refused
/// where it is, as Envoy refuses a field it does not know, rather than dropped.
///
/// Sources: `envoy/config/bootstrap/v3/bootstrap.proto` (Bootstrap, StaticResources),
/// `envoy/config/listener/v3/listener.proto` and `listener_components.proto` (Listener,
/// FilterChain, Filter), `envoy/extensions/filters/network/http_connection_manager/v3/
/// http_connection_manager.proto` (HttpConnectionManager), `envoy/config/route/v3/route.proto`
/// (RouteConfiguration), `envoy/config/route/v3/route_components.proto` (VirtualHost, Route,
/// RouteAction), `envoy/config/cluster/v3/cluster.proto` (Cluster).
enum EnvoyMessage: CaseIterable {
    case bootstrap, staticResources, listener, filterChain, filter, httpConnectionManager, routeConfiguration, virtualHost, route, routeAction,
        cluster

    /// The message's full name, for messages.
    var name: String {
        switch self {
        case .bootstrap: "envoy.config.bootstrap.v3.Bootstrap"
        case .staticResources: "envoy.config.bootstrap.v3.Bootstrap.StaticResources"
        case .listener: "envoy.config.listener.v3.Listener"
        case .filterChain: "envoy.config.listener.v3.FilterChain"
        case .filter: "envoy.config.listener.v3.Filter"
        case .httpConnectionManager: "envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager"
        case .routeConfiguration: "envoy.config.route.v3.RouteConfiguration"
        case .virtualHost: "envoy.config.route.v3.VirtualHost"
        case .route: "envoy.config.route.v3.Route"
        case .routeAction: "envoy.config.route.v3.RouteAction"
        case .cluster: "envoy.config.cluster.v3.Cluster"
        }
    }

    /// The fields that hold messages of this walk: the field's name, the message, and whether it is a list.
    var children: [(field: String, message: EnvoyMessage, list: Bool)] {
        switch self {
        case .bootstrap: [("static_resources", .staticResources, false)]
        case .staticResources: [("listeners", .listener, true), ("clusters", .cluster, true)]
        case .listener: [("filter_chains", .filterChain, true), ("default_filter_chain", .filterChain, false)]
        case .filterChain: [("filters", .filter, true)]
        case .filter: [("typed_config", .httpConnectionManager, false)]
        case .httpConnectionManager: [("route_config", .routeConfiguration, false)]
        case .routeConfiguration: [("virtual_hosts", .virtualHost, true)]
        case .virtualHost: [("routes", .route, true)]
        case .route: [("route", .routeAction, false)]
        case .routeAction, .cluster: []
        }
    }

    /// Every field of the message (`@type` too: any message may be an `Any`).
    var fields: Set<String> {
        var out: Set<String> = ["@type"]
        switch self {
        case .bootstrap:
            out.formUnion([
                "node", "node_context_params", "static_resources", "dynamic_resources", "cluster_manager", "hds_config", "flags_path",
                "stats_sinks", "deferred_stat_options", "stats_config", "stats_flush_interval", "stats_flush_on_admin", "watchdog", "watchdogs",
                "tracing", "runtime", "layered_runtime", "admin", "overload_manager", "enable_dispatcher_stats", "header_prefix",
                "stats_server_version_override", "use_tcp_for_dns_lookups", "dns_resolution_config", "typed_dns_resolver_config",
                "bootstrap_extensions", "fatal_actions", "config_sources", "default_config_source", "default_socket_interface",
                "certificate_provider_instances", "inline_headers", "perf_tracing_file_path", "default_regex_engine", "xds_delegate_extension",
                "xds_config_tracker_extension", "listener_manager", "application_log_config", "grpc_async_client_manager_config",
                "memory_allocator_manager"
            ])
        case .staticResources: out.formUnion(["listeners", "clusters", "secrets"])
        case .listener:
            out.formUnion([
                "name", "address", "additional_addresses", "stat_prefix", "filter_chains", "filter_chain_matcher", "use_original_dst",
                "default_filter_chain", "per_connection_buffer_limit_bytes", "metadata", "deprecated_v1", "drain_type", "listener_filters",
                "listener_filters_timeout", "continue_on_listener_filters_timeout", "transparent", "freebind", "socket_options",
                "tcp_fast_open_queue_length", "traffic_direction", "udp_listener_config", "api_listener", "connection_balance_config",
                "reuse_port", "enable_reuse_port", "access_log", "tcp_backlog_size", "max_connections_to_accept_per_socket_event",
                "bind_to_port", "internal_listener", "enable_mptcp", "ignore_global_conn_limit", "bypass_overload_manager", "fcds_config",
                "listener_specifier"
            ])
        case .filterChain:
            out.formUnion([
                "filter_chain_match", "filters", "use_proxy_proto", "metadata", "transport_socket", "transport_socket_connect_timeout", "name",
                "on_demand_configuration", "tls_context"
            ])
        case .filter: out.formUnion(["name", "typed_config", "config_discovery", "config"])
        case .httpConnectionManager:
            out.formUnion([
                "codec_type", "stat_prefix", "rds", "route_config", "scoped_routes", "http_filters", "add_user_agent", "tracing",
                "common_http_protocol_options", "http1_safe_max_connection_duration", "http_protocol_options", "http2_protocol_options",
                "http3_protocol_options", "server_name", "server_header_transformation", "scheme_header_transformation",
                "max_request_headers_kb", "stream_idle_timeout", "request_timeout", "request_headers_timeout", "drain_timeout",
                "delayed_close_timeout", "access_log", "access_log_flush_interval", "flush_access_log_on_new_request", "access_log_options",
                "use_remote_address", "xff_num_trusted_hops", "original_ip_detection_extensions", "early_header_mutation_extensions",
                "internal_address_config", "skip_xff_append", "via", "generate_request_id", "preserve_external_request_id",
                "always_set_request_id_in_response", "forward_client_cert_details", "set_current_client_cert_details", "proxy_100_continue",
                "represent_ipv4_remote_address_as_ipv4_mapped_ipv6", "upgrade_configs", "normalize_path", "merge_slashes",
                "path_with_escaped_slashes_action", "request_id_extension", "local_reply_config", "strip_matching_host_port",
                "strip_any_host_port", "stream_error_on_invalid_http_message", "path_normalization_options", "strip_trailing_host_dot",
                "proxy_status_config", "typed_header_validation_config", "append_x_forwarded_port", "append_local_overload",
                "add_proxy_protocol_connection_state", "idle_timeout", "max_connection_duration", "hash_policy", "user_agent"
            ])
        case .routeConfiguration:
            out.formUnion([
                "name", "virtual_hosts", "vhds", "response_headers_to_add", "response_headers_to_remove", "request_headers_to_add",
                "request_headers_to_remove", "most_specific_header_mutations_wins", "validate_clusters", "max_direct_response_body_size_bytes",
                "cluster_specifier_plugins", "request_mirror_policies", "ignore_port_in_host_matching",
                "ignore_path_parameters_in_path_matching", "typed_per_filter_config", "metadata", "internal_only_headers"
            ])
        case .virtualHost:
            out.formUnion([
                "name", "domains", "routes", "matcher", "require_tls", "virtual_clusters", "rate_limits", "request_headers_to_add",
                "request_headers_to_remove", "response_headers_to_add", "response_headers_to_remove", "cors", "typed_per_filter_config",
                "include_request_attempt_count", "include_attempt_count_in_response", "retry_policy", "retry_policy_typed_config",
                "hedge_policy", "include_is_timeout_retry_header", "per_request_buffer_limit_bytes", "request_mirror_policies", "metadata"
            ])
        case .route:
            out.formUnion([
                "name", "match", "route", "redirect", "direct_response", "filter_action", "non_forwarding_action", "metadata", "decorator",
                "typed_per_filter_config", "request_headers_to_add", "request_headers_to_remove", "response_headers_to_add",
                "response_headers_to_remove", "tracing", "per_request_buffer_limit_bytes", "stat_prefix", "request_body_buffer_limit"
            ])
        case .routeAction:
            out.formUnion([
                "cluster", "cluster_header", "weighted_clusters", "cluster_specifier_plugin", "inline_cluster_specifier_plugin",
                "cluster_not_found_response_code", "metadata_match", "prefix_rewrite", "regex_rewrite", "path_rewrite_policy", "path_rewrite",
                "host_rewrite_literal", "auto_host_rewrite", "host_rewrite_header", "host_rewrite_path_regex", "append_x_forwarded_host",
                "timeout", "idle_timeout", "flush_timeout", "early_data_policy", "retry_policy", "retry_policy_typed_config",
                "request_mirror_policies", "request_mirror_policy", "priority", "rate_limits", "include_vh_rate_limits", "hash_policy", "cors",
                "max_grpc_timeout", "grpc_timeout_offset", "upgrade_configs", "internal_redirect_policy", "internal_redirect_action",
                "max_internal_redirects", "hedge_policy", "max_stream_duration"
            ])
        case .cluster:
            out.formUnion([
                "name", "alt_stat_name", "type", "cluster_type", "eds_cluster_config", "connect_timeout", "per_connection_buffer_limit_bytes",
                "lb_policy", "load_assignment", "hosts", "health_checks", "max_requests_per_connection", "circuit_breakers",
                "upstream_http_protocol_options", "common_http_protocol_options", "http_protocol_options", "http2_protocol_options",
                "typed_extension_protocol_options", "extension_protocol_options", "dns_refresh_rate", "dns_jitter", "dns_failure_refresh_rate",
                "respect_dns_ttl", "dns_lookup_family", "dns_resolvers", "use_tcp_for_dns_lookups", "dns_resolution_config",
                "typed_dns_resolver_config", "wait_for_warm_on_init", "outlier_detection", "cleanup_interval", "upstream_bind_config",
                "lb_subset_config", "ring_hash_lb_config", "maglev_lb_config", "original_dst_lb_config", "least_request_lb_config",
                "round_robin_lb_config", "common_lb_config", "transport_socket", "transport_socket_matches", "tls_context", "metadata",
                "protocol_selection", "upstream_connection_options", "close_connections_on_host_health_failure",
                "ignore_health_on_host_removal", "drain_connections_on_host_removal", "filters", "load_balancing_policy", "lrs_server",
                "lrs_report_endpoint_metrics", "track_timeout_budgets", "upstream_config", "track_cluster_stats", "preconnect_policy",
                "connection_pool_per_downstream_connection"
            ])
        }
        return out
    }

    /// The message a document's top is, told by a field only it has; nil when none is there.
    static func top(_ keys: Set<String>) -> EnvoyMessage? {
        if !keys.isDisjoint(with: ["static_resources", "dynamic_resources", "admin", "node", "layered_runtime", "cluster_manager"]) {
            return .bootstrap
        }
        if keys.contains("virtual_hosts") { return .routeConfiguration }
        if keys.contains("routes") { return .virtualHost }
        if keys.contains("filter_chains") || keys.contains("default_filter_chain") { return .listener }
        if keys.contains("listeners") || keys.contains("clusters") { return .staticResources }
        return nil
    }

    /// Whether a filter's `typed_config` is an HTTP connection manager's: its `@type` says so, or,
    /// without one, it holds a `route_config`. Another filter's configuration is not read.
    static func isConnectionManager(_ keys: Set<String>, type: String?) -> Bool {
        if let type { return type.hasSuffix(".HttpConnectionManager") }
        return keys.contains("route_config")
    }
}
