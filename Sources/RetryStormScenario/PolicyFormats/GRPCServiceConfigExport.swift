import RetryPolicy

/// A policy as a gRPC service config (gRFC A6): one methodConfig with its retryPolicy — or its
/// hedgingPolicy, for a hedged policy: A6 lets a method have one or the other — and timeout, and
/// retryThrottling for a `grpc` budget. What the format cannot say is found by
/// ``PolicyExporter`` reading the file back.
enum GRPCServiceConfigExport {
    /// `codes`: the status codes to write as retryable (or non-fatal, when hedged), ``GRPCCodeSet``'s choice;
    /// `recvTimeout`: the per-attempt timeout to write as `perAttemptRecvTimeout` (``writesTimer(_:attemptTimeout:)``).
    static func text(_ p: RetryPolicy, codes: [GRPCStatusCode], recvTimeout: Nanoseconds?, service: String?, method: String?) -> String {
        var name = "{}"
        if let service {
            name = "{\"service\": \(PolicyExporter.json(service))" + (method.map { ", \"method\": \(PolicyExporter.json($0))" } ?? "") + "}"
        }
        var method: [String] = ["\"name\": [\(name)]"]
        let listed = "[\(codes.map { "\"\($0.name)\"" }.joined(separator: ", "))]"
        if let h = p.hedging, case .fixed(let delay) = h.delay {
            // A percentile delay has no A6 form: such a policy is written unhedged, and the
            // reading back says what is lost.
            var hedge = [
                "\"maxAttempts\": \(h.maxAttempts)", "\"hedgingDelay\": \"\(ProtoDuration.text(min(delay, ScenarioSchema.maxHorizon)))\""
            ]
            if !codes.isEmpty { hedge.append("\"nonFatalStatusCodes\": \(listed)") }
            method.append("\"hedgingPolicy\": {\n        " + hedge.joined(separator: ",\n        ") + "\n      }")
        } else if p.maxAttempts > 1 && !codes.isEmpty {
            let b = p.backoff
            let retry = [
                "\"maxAttempts\": \(min(p.maxAttempts, GRPCServiceConfigImport.attemptCap))",
                // A6 needs both above 0; a scenario's durations are at most 30 days.
                "\"initialBackoff\": \"\(ProtoDuration.text(min(max(1, b.base), ScenarioSchema.maxHorizon)))\"",
                "\"maxBackoff\": \"\(ProtoDuration.text(min(max(1, b.max), ScenarioSchema.maxHorizon)))\"",
                "\"backoffMultiplier\": \(ImportBuilder.number(b.kind == .exponential ? b.multiplier : 1))",
                "\"retryableStatusCodes\": \(listed)"
            ]
            let timer = recvTimeout.map { ["\"perAttemptRecvTimeout\": \"\(ProtoDuration.text(min($0, ScenarioSchema.maxHorizon)))\""] } ?? []
            method.append("\"retryPolicy\": {\n        " + (retry + timer).joined(separator: ",\n        ") + "\n      }")
        }
        if let e = p.maxElapsed, e > 0 { method.append("\"timeout\": \"\(ProtoDuration.text(min(e, ScenarioSchema.maxHorizon)))\"") }
        var top = ["\"methodConfig\": [\n    {\n      " + method.joined(separator: ",\n      ") + "\n    }\n  ]"]
        if case .grpc(let g) = p.budget {
            top.append("\"retryThrottling\": {\"maxTokens\": \(g.maxTokens), \"tokenRatio\": \(ImportBuilder.number(g.tokenRatio))}")
        }
        return "{\n  " + top.joined(separator: ",\n  ") + "\n}\n"
    }

    /// Whether the per-attempt timeout goes out as `perAttemptRecvTimeout`: only in a retryPolicy
    /// (a hedged call has none) whose classifier retries timeouts, since gRPC retries the attempt
    /// the timer ends whatever the codes say.
    static func writesTimer(_ p: RetryPolicy, attemptTimeout: Nanoseconds?) -> Bool {
        attemptTimeout != nil && p.hedging == nil && p.maxAttempts > 1 && p.classifier.retryTimeouts
    }
}
