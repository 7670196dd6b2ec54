import RetryPolicy

/// A policy as Envoy settings: the route's `retry_policy` and `timeout` and the cluster's
/// `circuit_breakers`, the three fields alone at the top level (the form ``EnvoyImport`` reads
/// besides full configuration). What Envoy cannot say is found by ``PolicyExporter`` reading the
/// file back.
enum EnvoyExport {
    static let millisecond: Nanoseconds = 1_000_000
    /// The most retries a scenario's policy.max_attempts (at most 1,000,000 attempts) allows.
    static let maxRetries = 999_999

    /// `grpcCodes`: the gRPC codes the policy was imported with (a gRPC service config's, or
    /// Envoy's gRPC conditions), written as Envoy's gRPC conditions where Envoy has one.
    static func text(_ p: RetryPolicy, attemptTimeout: Nanoseconds?, grpcCodes: [GRPCStatusCode] = []) -> String {
        var out = "retry_policy:\n"
        let (conditions, codes) = retryOn(p.classifier, grpcCodes: grpcCodes)
        if !conditions.isEmpty { out += "  retry_on: \(conditions.joined(separator: ","))\n" }
        // Within what a scenario takes (policy.max_attempts ≤ 1,000,000): an unlimited policy reads
        // back as the most a scenario allows, and the difference is said.
        out += "  num_retries: \(min(max(0, p.maxAttempts - 1), maxRetries))\n"
        if let attemptTimeout { out += "  per_try_timeout: \(ProtoDuration.text(attemptTimeout))\n" }
        if !codes.isEmpty { out += "  retriable_status_codes: [\(codes.map(String.init).joined(separator: ", "))]\n" }
        // Envoy rounds a base below 1 ms up to 1 ms and needs max_interval ≥ base_interval.
        let base = max(millisecond, p.backoff.base)
        out += "  retry_back_off:\n    base_interval: \(ProtoDuration.text(base))\n"
        out += "    max_interval: \(ProtoDuration.text(max(base, p.backoff.max)))\n"
        if p.serverHints.mode == .replace && p.serverHints.discardAboveCeiling {
            out += "  rate_limited_retry_back_off:\n    reset_headers:\n      - name: Retry-After\n        format: SECONDS\n"
            out += "    max_interval: \(ProtoDuration.text(min(p.serverHints.ceiling, ScenarioSchema.maxHorizon)))\n"
        }
        out += "timeout: \(ProtoDuration.text(min(p.maxElapsed ?? 0, ScenarioSchema.maxHorizon)))\n"
        var thresholds: [String] = ["priority: DEFAULT"]
        if case .envoy(let e) = p.budget {
            if e.percent == 0 {
                thresholds.append("max_retries: \(e.minConcurrency)")
            } else {
                thresholds.append(
                    "retry_budget: {budget_percent: {value: \(ImportBuilder.number(e.percent * 100))}, min_retry_concurrency: \(e.minConcurrency)}")
            }
        }
        if let c = p.concurrency, c.whenFull == .reject { thresholds.append("max_requests: \(c.maxInFlight)") }
        out += "circuit_breakers:\n  thresholds:\n    - " + thresholds.joined(separator: "\n      ") + "\n"
        return out
    }

    /// `retry_on` conditions (``EnvoyImport/importConditions(_:codes:)`` reads them) and the
    /// `retriable_status_codes` the classifier's retried failures need.
    ///
    /// A policy born gRPC (`grpcCodes`) is written with Envoy's gRPC conditions first: a gRPC
    /// error reaches Envoy as HTTP 200 with a `grpc-status`, which no HTTP condition matches
    /// (the router filter's docs, `x-envoy-retry-grpc-on`). The statuses they cover are taken
    /// out before the HTTP conditions are chosen for the rest (resets, connection failures, 409).
    static func retryOn(_ c: Classifier, grpcCodes: [GRPCStatusCode] = []) -> (conditions: [String], codes: [Int]) {
        var retried = Set(c.retryableStatuses.members + c.throttlingStatuses.members)
        var conditions: [String] = []
        for code in grpcCodes {
            guard let name = GRPCCodeSet.envoyConditions[code.name], !conditions.contains(name), Set(code.statuses).isSubset(of: retried) else {
                continue
            }
            conditions.append(name)
        }
        for code in grpcCodes where conditions.contains(GRPCCodeSet.envoyConditions[code.name] ?? "") { retried.subtract(code.statuses) }
        let all5xx = Set(500...599)
        if retried.isSuperset(of: all5xx) && c.retryTimeouts && c.retryTransport {
            conditions.append("5xx")
            retried.subtract(all5xx)
        } else if retried.isSuperset(of: [502, 503, 504]) && c.retryTimeouts && c.retryTransport {
            conditions.append("gateway-error")
            retried.subtract([502, 503, 504])
        } else if c.retryTimeouts && c.retryTransport {
            conditions.append("reset")
        } else if c.retryTransport {
            conditions.append("connect-failure")
        }
        if c.retryConflict { conditions.append("retriable-4xx") }
        let codes = retried.filter { (100...599).contains($0) }.sorted()
        if !codes.isEmpty { conditions.append("retriable-status-codes") }
        return (conditions, codes)
    }
}
