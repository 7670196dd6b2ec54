/// The `policy.import.*` keys: a policy file as a service ships it, read into the policy keys it
/// decides (``PolicyImportKeys``). Their setters do nothing: the loader replaces them by the
/// file's keys before any key is applied, as `policy.preset` is applied first.
extension ScenarioSchema {
    static let policyImport: [Field] = [
        Field(
            "policy.import.file", .file(column: nil), "none",
            "A policy file as a service ships it: a gRPC service config (JSON), Envoy route and cluster settings (YAML or JSON) or the AWS SDKs' shared config file (INI), read into the policy keys it decides (`retrystorm policy import` prints them; docs/policy-formats.md). Every field is mapped or refused. Another key of the same scenario, population or call that the file decides is refused, and so is a key a variant's own file decides; a variant that imports no file, --set, --vary and --grid change them. Relative to the scenario file (to the working directory from --set, --vary or --grid); results keep a copy. none: no file."
        ) { _, _ in },
        Field(
            "policy.import.format", .choice(["auto"] + PolicyFormat.allCases.map(\.rawValue)), "auto",
            "The file's format; `auto`: the AWS shared config file when it starts with a [section], a gRPC service config when it has methodConfig or retryThrottling at the top, else Envoy settings."
        ) { _, _ in },
        Field(
            "policy.import.service", .text, "",
            "grpc-service-config: the service (with its proto package) whose methodConfig applies; needed when the file has several; none: the one a variant would inherit is cleared."
        ) { _, _ in },
        Field(
            "policy.import.method", .text, "",
            "grpc-service-config: the method, with service: its own methodConfig, else the service's, else the default one (as gRPC picks); none: cleared, as for service."
        ) { _, _ in },
        Field(
            "policy.import.route", .text, "",
            "envoy: the route (by name) whose retry_policy and timeout apply; needed when the file has several; none: cleared, as for service."
        ) { _, _ in },
        Field(
            "policy.import.cluster", .text, "",
            "envoy: the cluster (by name) whose circuit_breakers apply; by default the route's cluster, or the only one; none: cleared, as for service."
        ) { _, _ in },
        Field(
            "policy.import.profile", .text, "",
            "aws-config: the profile ([profile NAME]) whose retry_mode and max_attempts apply; by default [default]; none: cleared, as for service."
        ) { _, _ in },
        Field(
            "policy.import.ignore", .text, "",
            "Fields of the file that the simulator does not model and the simulation may leave out (comma-separated, paths without list indices or bare names, e.g. loadBalancingConfig,max_connections): said on stderr instead of refused; none: cleared, as for service."
        ) { _, _ in }
    ]
}
