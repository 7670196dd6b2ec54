import RetryPolicy

/// A policy as a gRPC service config (gRFC A6): one methodConfig with its retryPolicy and
/// timeout, and retryThrottling for a `grpc` budget. What the format cannot say is found by
/// ``PolicyExporter`` reading the file back.
enum GRPCServiceConfigExport {
    static func text(_ p: RetryPolicy, service: String?, method: String?) -> String {
        var name = "{}"
        if let service {
            name = "{\"service\": \(PolicyExporter.json(service))" + (method.map { ", \"method\": \(PolicyExporter.json($0))" } ?? "") + "}"
        }
        var method: [String] = ["\"name\": [\(name)]"]
        let codes = retryableCodes(p.classifier)
        if p.maxAttempts > 1 && !codes.isEmpty {
            let b = p.backoff
            let retry = [
                "\"maxAttempts\": \(min(p.maxAttempts, GRPCServiceConfigImport.attemptCap))",
                // A6 needs both above 0; a scenario's durations are at most 30 days.
                "\"initialBackoff\": \"\(ProtoDuration.text(min(max(1, b.base), ScenarioSchema.maxHorizon)))\"",
                "\"maxBackoff\": \"\(ProtoDuration.text(min(max(1, b.max), ScenarioSchema.maxHorizon)))\"",
                "\"backoffMultiplier\": \(ImportBuilder.number(b.kind == .exponential ? b.multiplier : 1))",
                "\"retryableStatusCodes\": [\(codes.map { "\"\($0.name)\"" }.joined(separator: ", "))]"
            ]
            method.append("\"retryPolicy\": {\n        " + retry.joined(separator: ",\n        ") + "\n      }")
        }
        if let e = p.maxElapsed, e > 0 { method.append("\"timeout\": \"\(ProtoDuration.text(min(e, ScenarioSchema.maxHorizon)))\"") }
        var top = ["\"methodConfig\": [\n    {\n      " + method.joined(separator: ",\n      ") + "\n    }\n  ]"]
        if case .grpc(let g) = p.budget {
            top.append("\"retryThrottling\": {\"maxTokens\": \(g.maxTokens), \"tokenRatio\": \(ImportBuilder.number(g.tokenRatio))}")
        }
        return "{\n  " + top.joined(separator: ",\n  ") + "\n}\n"
    }

    /// The codes whose failures the classifier retries, every one of them (``GRPCStatusCode``).
    static func retryableCodes(_ c: Classifier) -> [GRPCStatusCode] {
        GRPCStatusCode.all.filter { code in
            guard code.number != 0 else { return false }
            let statuses = code.statuses.allSatisfy { s in
                s == 409 ? c.retryConflict : (c.retryableStatuses.contains(s) || c.throttlingStatuses.contains(s))
            }
            return statuses && (code != .unavailable || c.retryTransport) && (code != .deadlineExceeded || c.retryTimeouts)
        }
    }
}
