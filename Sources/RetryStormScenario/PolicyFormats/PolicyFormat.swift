/// The formats services ship their retry policy in, which `retrystorm policy import` reads and
/// `retrystorm policy export --format` writes.
package enum PolicyFormat: String, Sendable, CaseIterable {
    /// A gRPC service config (JSON): `methodConfig[].retryPolicy`, `retryThrottling` (gRFC A6,
    /// `grpc/service_config/service_config.proto`).
    case grpcServiceConfig = "grpc-service-config"
    /// Envoy route and cluster settings (YAML or JSON): a route's `retry_policy` and `timeout`, a
    /// cluster's `circuit_breakers` (`envoy/config/route/v3/route_components.proto`,
    /// `envoy/config/cluster/v3/circuit_breaker.proto`).
    case envoy
    /// The AWS SDKs' shared config file (`~/.aws/config`, INI): a profile's `retry_mode` and
    /// `max_attempts` (the AWS SDKs and Tools Reference Guide, "Retry behavior").
    case awsConfig = "aws-config"

    /// The preset whose semantics the format's keys start from.
    var preset: String {
        switch self {
        case .grpcServiceConfig: "grpc"
        case .envoy: "envoy"
        case .awsConfig: "aws-standard"
        }
    }
}
