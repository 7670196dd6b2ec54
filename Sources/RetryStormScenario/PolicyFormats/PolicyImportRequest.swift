/// What to import from a policy file: its format (nil: told from the file) and which part of it.
package struct PolicyImportRequest: Sendable, Equatable {
    package var format: PolicyFormat?
    /// gRPC: the method whose `methodConfig` applies (`service` with proto package, `method`).
    package var service: String?
    package var method: String?
    /// Envoy: the route (by `name`) and the cluster (by `name`; by default the route's `cluster`).
    package var route: String?
    package var cluster: String?
    /// AWS shared config: the profile (`[profile NAME]`; by default `[default]`).
    package var profile: String?
    /// Fields of the file the user accepts are not simulated (`loadBalancingConfig`,
    /// `circuit_breakers.thresholds.max_connections`): a field the simulator does not model is
    /// refused unless its path (without list indices) or its name is here; then it is said on
    /// stderr. Fields that change how retries work (Envoy's hedging) cannot be ignored.
    package var ignore: [String]

    package init(
        format: PolicyFormat? = nil, service: String? = nil, method: String? = nil, route: String? = nil, cluster: String? = nil,
        profile: String? = nil, ignore: [String] = []
    ) {
        self.format = format
        self.service = service
        self.method = method
        self.route = route
        self.cluster = cluster
        self.profile = profile
        self.ignore = ignore
    }

    /// Whether the user listed the field at `path` (`methodConfig[0].waitForReady`) to ignore.
    func ignores(_ path: String) -> Bool {
        ignore.contains(ImportBuilder.bare(path)) || ignore.contains(ImportBuilder.name(path))
    }
}
