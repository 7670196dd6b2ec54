import RetryPolicy

/// The gRPC status codes an export writes for a classifier: the codes the policy was imported
/// with when they still give its classifier, else the smallest set of codes that retries every
/// failure the classifier retries (``GRPCStatusCode``'s table).
///
/// Several codes stand for one simulated failure (INTERNAL, UNKNOWN and DATA_LOSS for 500;
/// ABORTED and ALREADY_EXISTS for 409; three for 400): listing all of them would make a real
/// client retry codes nobody chose (a DATA_LOSS, an ALREADY_EXISTS), so one stands for its group
/// — the one gRFC A6's own example lists where it lists one. UNAVAILABLE (502, 503, transport
/// failures) and DEADLINE_EXCEEDED (504, the per-attempt timeout) each cover more than one kind
/// of failure: when the classifier retries only some of them, the code is written and the
/// exporter's reading back names what it adds.
enum GRPCCodeSet {
    /// What the simulator's failures a classifier retries, in the terms of ``GRPCStatusCode``.
    static func classification(of c: Classifier) -> GRPCStatusCode.Classification {
        let statuses = Set(c.retryableStatuses.members)
        let gRPCStatuses = Set(GRPCStatusCode.all.flatMap(\.statuses))
        return GRPCStatusCode.Classification(
            retryable: statuses.intersection(gRPCStatuses).subtracting([200, 409, 429]).sorted(),
            throttling: c.throttlingStatuses.contains(429) || statuses.contains(429) ? [429] : [],
            conflict: c.retryConflict, timeouts: c.retryTimeouts, transport: c.retryTransport)
    }

    /// The representative of each group of codes that share their simulated failures.
    static let preferred = ["INTERNAL", "ABORTED", "INVALID_ARGUMENT"]

    /// The codes to write for `c`: `imported` (as the file listed them) when they classify as
    /// `c` does, else the smallest covering set, in code order. With `timer` (a
    /// `perAttemptRecvTimeout` written beside them, which retries the attempts it ends) the codes
    /// need not retry the per-attempt timeout themselves.
    static func codes(for c: Classifier, imported: [GRPCStatusCode], timer: Bool = false) -> [GRPCStatusCode] {
        var wanted = classification(of: c)
        var listed = GRPCStatusCode.classification(retrying: Set(imported))
        if timer {
            wanted.timeouts = false
            listed.timeouts = false
        }
        if !imported.isEmpty, same(listed, wanted) { return imported }
        var retried = Set(wanted.retryable + wanted.throttling)
        if wanted.conflict { retried.insert(409) }
        var out: [GRPCStatusCode] = []
        var groups = Set<[Int]>()
        let ordered = GRPCStatusCode.all.sorted { a, b in
            preferred.contains(a.name) && !preferred.contains(b.name)
        }
        for code in ordered where code.number != 0 && !groups.contains(code.statuses) {
            let covers =
                !retried.isDisjoint(with: code.statuses) || (code == .unavailable && wanted.transport)
                || (code == .deadlineExceeded && wanted.timeouts)
            guard covers else { continue }
            groups.insert(code.statuses)
            out.append(code)
        }
        return out.sorted { $0.number < $1.number }
    }

    /// Whether two classifications retry the same failures (statuses compared as sets).
    static func same(_ a: GRPCStatusCode.Classification, _ b: GRPCStatusCode.Classification) -> Bool {
        Set(a.retryable) == Set(b.retryable) && Set(a.throttling) == Set(b.throttling) && a.conflict == b.conflict
            && a.timeouts == b.timeouts && a.transport == b.transport
    }

    /// Envoy's gRPC retry conditions (the router filter's `x-envoy-retry-grpc-on`), by code.
    static let envoyConditions = [
        "CANCELLED": "cancelled", "DEADLINE_EXCEEDED": "deadline-exceeded", "INTERNAL": "internal",
        "RESOURCE_EXHAUSTED": "resource-exhausted", "UNAVAILABLE": "unavailable"
    ]
}
