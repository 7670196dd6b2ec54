/// What the laws of a retrying FIFO server say about a scenario, without simulating it
/// (`retrystorm explain`; docs/models.md, "Explain: the laws"). Every figure is nil where its
/// law does not hold, and `reason` says why.
package struct Explanation: Sendable {
    /// The scenario's name.
    package var scenario: String
    /// One entry per server: `server` for a single hop, each service in a call graph.
    package var services: [Service]
    /// The clients' retry budget.
    package var budget: Budget
    /// Said whatever the laws: the baseline is unstable, the trigger drains after the horizon.
    package var warnings: [String]

    /// The laws at one server.
    package struct Service: Sendable {
        /// `server`, or the service's name.
        package var name: String
        /// Why the laws do not hold here (nil: they do, and every section below is filled in
        /// unless its own reason says otherwise).
        package var reason: String?
        /// First attempts per second sent to it at the load's base.
        package var load: Double
        /// Its nominal capacity, requests per second.
        package var capacity: Double
        /// The clients' per-attempt timeout, seconds.
        package var timeout: Double
        /// Attempts an operation makes when every attempt times out (1 when timeouts are not retried).
        package var attempts: Int
        /// The sustain law; nil where the laws do not hold.
        package var sustain: Sustain?
        /// The trigger law; nil without a trigger or where the laws do not hold.
        package var trigger: Trigger?
        /// Why there is no trigger law (nil when there is one).
        package var triggerReason: String?
        /// The collapse law; nil where it does not hold.
        package var collapse: Collapse?
        /// Why there is no collapse law (nil when there is one).
        package var collapseReason: String?
    }

    /// Whether a retry-sustained overload can persist.
    package struct Sustain: Sendable {
        /// The highest first-attempt load, per second, at which it cannot: above it, there is a
        /// backlog past the critical one, up to the most the server holds, where every attempt
        /// times out and is retried into a server that serves less than it is sent. With
        /// congestion the deepest backlog serves slowest, so that is where it is judged.
        package var maxFirstAttemptLoad: Double
        /// The critical backlog n*, requests in the system: past it a new request's time in the
        /// system exceeds the timeout.
        package var criticalBacklog: Double
        /// Attempts per second the bad state sends: the first attempts and the retries a drained
        /// budget still allows.
        package var retriedLoad: Double
        /// The server's slowest rate from the critical backlog to the most it holds, requests per
        /// second: its rate at n* without congestion, at its room with (0 with no queue limit).
        package var slowestRate: Double
        /// The load is above `maxFirstAttemptLoad`: a bad state deep enough persists.
        package var persists: Bool { retriedLoad >= slowestRate }
    }

    /// What the scenario's own trigger does.
    package struct Trigger: Sendable {
        /// "a drop to 10% of capacity", "the load at ×3".
        package var what: String
        /// Its length, seconds.
        package var duration: Double
        /// The shortest trigger of the same depth that tips the server into the retry-sustained
        /// state, seconds; nil when none does or the trigger is not one step (`tips` still says
        /// what the scenario's own does).
        package var criticalDuration: Double?
        /// The longest trigger of the same depth that still tips it, seconds; nil when every
        /// length from `criticalDuration` up tips it (or none does). Past it the queue fills
        /// during the trigger and its refusals end operations before they can retry.
        package var longestTipping: Double?
        /// The scenario's trigger tips it: after it, the fluid model stays in the bad state for good.
        package var tips: Bool
        /// When it does not tip: seconds from the trigger's end to the last attempt that times
        /// out; nil when it tips, or when the backlog still drains an hour after the horizon.
        package var drainTime: Double?
        /// Some attempt times out in the fluid model: false when the trigger passes without a
        /// failure (the simulator's recovery is then 0).
        package var timesOut: Bool
        /// Seconds from the trigger's end to the horizon, to tell slow recovery from none.
        package var horizonLeft: Double
        /// It does not tip but drains after the horizon: stuck at the horizon, recovering slowly.
        package var drainsAfterHorizon: Bool { !tips && (drainTime.map { $0 > horizonLeft } ?? true) }
    }

    /// The mean time to spontaneous collapse from a healthy start.
    package struct Collapse: Sendable {
        /// Seconds until the backlog first reaches the critical backlog; +∞ beyond 10^308 s.
        package var meanTime: Double
    }

    /// When the retry budget drains.
    package struct Budget: Sendable {
        /// The budget's kind as the scenario spells it (`unlimited` for none).
        package var kind: String
        /// The failure rate (of attempts, failing independently) above which the budget drains;
        /// nil when it never does or has no rate (none, per run).
        package var drainFailureRate: Double?
        /// Retries per second the drained budgets still allow across the fleet; nil without a limit.
        package var drainedRetryRate: Double?
        /// Said when there is no rate: why.
        package var note: String?
    }
}
