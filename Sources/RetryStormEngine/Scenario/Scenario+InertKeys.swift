extension Scenario {
    /// Keys set to a value that changes nothing in this scenario, each as one sentence naming the
    /// key and why: `validate` and every simulating command print them as warnings.
    ///
    /// `server.queue.drop_expired` drops a request whose deadline has passed; a server sees a
    /// deadline only from the clients' timeout or deadline (at the first service, or at the one
    /// server of one hop) or from a call that propagates its own (`deadline: propagate`).
    package var inertKeyWarnings: [String] {
        var out: [String] = stuckWindowWarning.map { [$0] } ?? []
        let clientsSendDeadlines = effectivePopulations.contains { $0.clients.timeout != nil || $0.clients.deadline != nil }
        func dropsExpired(_ server: Server) -> Bool {
            if case .queue(let q) = server.model { return q.dropExpired }
            return false
        }
        if services.isEmpty {
            if dropsExpired(server) && !clientsSendDeadlines {
                out.append(
                    "server.queue.drop_expired is true, but no request carries a deadline (clients.timeout and clients.deadline are none): it drops nothing"
                )
            }
            return out
        }
        for (k, service) in services.enumerated() where dropsExpired(service.server) {
            let readsOne =
                k == 0
                ? clientsSendDeadlines
                : services.contains { caller in caller.calls.contains { $0.to == k && $0.propagateDeadline } }
            guard !readsOne else { continue }
            let why =
                k == 0
                ? "the clients send no deadline (clients.timeout and clients.deadline are none)"
                : "no call to \(service.name) propagates a deadline (deadline: propagate)"
            out.append("services.\(service.name).server.queue.drop_expired is true, but \(why): it drops nothing")
        }
        return out
    }

    /// `stuck_window` does not fit between the trigger's end and the horizon, so `stuck` is not
    /// judged (``Stuck``); nil when it fits, or when ``horizonWarning`` already says the trigger
    /// ends too late to see anything after it.
    var stuckWindowWarning: String? {
        let buckets = Int((horizon + bucket - 1) / bucket)
        guard horizonWarning == nil, let trigger, stuckTail(of: buckets) == nil else { return nil }
        func seconds(_ t: Int64) -> String { Double(t) / 1e9 == (Double(t) / 1e9).rounded() ? "\(t / 1_000_000_000) s" : "\(Double(t) / 1e9) s" }
        return
            "stuck_window is \(seconds(stuckWindow)), but the run ends \(seconds(horizon - trigger.end)) after its trigger (and its warmup): stuck is not judged (nan); make the horizon longer or stuck_window shorter"
    }
}
