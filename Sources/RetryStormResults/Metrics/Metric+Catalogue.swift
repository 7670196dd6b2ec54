/// The catalogue: every metric, declared once. ``all`` lists them in summary.csv's column order
/// (the docs' order), the derived ones last; `MetricCatalogueTests` checks that every column of
/// summary.csv, populations.csv and services.csv has exactly one declaration here and every declaration is a
/// column or says how it is derived.
extension Metric {
    // MARK: - Operations and attempts

    /// Operations started after the warmup; a count, in operations.
    public static let operations = Metric.total(
        of: .operations, label: "operations", unit: "operations", better: .neither, in: [.fleet, .population],
        meaning: "operations started")
    /// First attempts plus retries sent after the warmup; a count, in attempts.
    public static let attempts = Metric(
        "attempts", label: "attempts", unit: "attempts", kind: .count, better: .lower, in: [.fleet, .population, .service, .edge],
        meaning: "first attempts + retries (services.csv: those its callers sent to the service; edges.csv: those the caller sent on the edge)")
    /// Attempts per operation after the warmup (`attempts / operations`); a ratio, in attempts/op.
    public static let amplification = Metric(
        "amplification", label: "amplification", unit: "attempts/op", kind: .ratio, better: .lower, in: [.fleet, .population],
        meaning: "`attempts / operations`")
    /// Operations started after the warmup that succeeded; a count, in operations.
    public static let succeeded = Metric.total(
        of: .succeeded, label: "succeeded", unit: "operations", better: .higher, in: [.fleet, .population, .service],
        meaning: "operations that succeeded (services.csv: calls to the service that succeeded, after the warmup)")
    /// Operations started after the warmup that the policy's limits stopped; a count, in operations.
    public static let gaveUp = Metric.total(
        of: .gaveUp, label: "gave up", unit: "operations", better: .lower, in: [.fleet, .population],
        meaning: "operations stopped because the policy's limits ran out")
    /// Operations started after the warmup that stopped on a failure needing attention; a count, in operations.
    public static let blocked = Metric.total(
        of: .blocked, label: "blocked", unit: "operations", better: .lower, in: [.fleet, .population],
        meaning: "operations stopped on a failure that needs attention")

    // MARK: - Load

    /// The most attempts that reached the server in one whole second `[k, k+1)` after the warmup; req/s.
    public static let peakOfferedPerSecond = Metric(
        "peak_offered_per_s", label: "peak offered load", unit: "req/s", kind: .count, better: .lower,
        meaning: "the largest number of attempts reaching the server in one whole second `[k, k+1)`")
    /// ``peakOfferedPerSecond`` over the nominal `server.capacity`; a ratio (×), after the warmup.
    public static let peakLoadRatio = Metric(
        "peak_load_ratio", label: "peak load / capacity", unit: "×", kind: .ratio, better: .lower, in: [.fleet, .service],
        meaning:
            "`peak_offered_per_s / server.capacity` (services.csv: the most requests the service received in one whole second `[k, k+1)` after the warmup, over its own `server.capacity`)"
    )

    // MARK: - Time to success

    /// Mean time to success of every operation after the warmup, seconds; `inf` once one did not succeed.
    public static let ttsMean = timeToSuccess(
        "tts_mean_s", "mean",
        "the mean time to success over every operation: `inf` as soon as one operation did not succeed (see `tts_success_mean_s` for the mean among successes)",
        in: [.fleet, .population])
    /// Median time to success of every operation after the warmup, seconds; `inf` when under 50% succeeded.
    public static let ttsP50 = timeToSuccess("tts_p50_s", "p50", percentile("median", "50%"), in: [.fleet, .population])
    /// 90th-percentile time to success of every operation after the warmup, seconds; `inf` when under 90% succeeded.
    public static let ttsP90 = timeToSuccess("tts_p90_s", "p90", percentile("90th percentile", "90%"), in: [.fleet, .population])
    /// 99th-percentile time to success of every operation after the warmup, seconds; `inf` when under 99% succeeded.
    public static let ttsP99 = timeToSuccess("tts_p99_s", "p99", percentile("99th percentile", "99%"), in: [.fleet, .population])
    /// 99.9th-percentile time to success of every operation after the warmup, seconds; `inf` under 99.9% succeeded.
    public static let ttsP999 = timeToSuccess("tts_p999_s", "p99.9", percentile("99.9th percentile", "99.9%"), in: [.fleet, .population])
    /// Longest time to success of every operation after the warmup, seconds; `inf` once one did not succeed.
    public static let ttsMax = timeToSuccess(
        "tts_max_s", "max", "the longest time to success over every operation: `inf` as soon as one operation did not succeed",
        in: [.fleet, .population])

    /// Mean time to success among the operations after the warmup that succeeded, seconds; `nan` if none did.
    public static let ttsSuccessMean = successOnly("tts_success_mean_s", "mean", "mean", in: [.fleet, .population])
    /// Median time to success among the operations after the warmup that succeeded, seconds; `nan` if none did.
    public static let ttsSuccessP50 = successOnly("tts_success_p50_s", "p50", "median", in: [.fleet, .population])
    /// 90th-percentile time to success among the successes after the warmup, seconds; `nan` if none.
    public static let ttsSuccessP90 = successOnly("tts_success_p90_s", "p90", "90th percentile", in: [.fleet, .population])
    /// 99th-percentile time to success among the successes after the warmup, seconds; `nan` if none.
    public static let ttsSuccessP99 = successOnly("tts_success_p99_s", "p99", "99th percentile", in: [.fleet, .population])
    /// 99.9th-percentile time to success among the successes after the warmup, seconds; `nan` if none.
    public static let ttsSuccessP999 = successOnly("tts_success_p999_s", "p99.9", "99.9th percentile", in: [.fleet, .population])
    /// Longest time to success among the operations after the warmup that succeeded, seconds; `nan` if none did.
    public static let ttsSuccessMax = successOnly("tts_success_max_s", "max", "longest", in: [.fleet, .population])

    /// A time-to-success statistic over every operation (the survival view): an operation that
    /// gave up, was blocked or is unfinished at the horizon never succeeded, so losing operations
    /// makes it worse, not better.
    static func timeToSuccess(_ name: String, _ statistic: String, _ meaning: String, in scopes: [Scope] = [.fleet]) -> Metric {
        Metric(name, label: "time to success \(statistic)", unit: "s", kind: .seconds, better: .lower, in: scopes, meaning: meaning)
    }

    /// The meaning of a survival-view percentile.
    static func percentile(_ words: String, _ share: String) -> String {
        "the \(words) time to success over every operation, from its start to its successful response; an operation that gave up, was blocked or is unfinished counts as never, so it is `inf` when fewer than \(share) of the operations succeeded"
    }

    /// A time-to-success statistic of the operations that succeeded only: it leaves out the lost
    /// ones, so giving up on slow operations makes it look better (``BestMarks`` knows).
    static func successOnly(_ name: String, _ statistic: String, _ words: String, in scopes: [Scope] = [.fleet]) -> Metric {
        Metric(
            name, label: "time to success \(statistic) among successes", unit: "s", kind: .seconds, better: .lower, rewardsGivingUp: true,
            in: scopes,
            meaning:
                "the \(words) time to success among the operations that succeeded, from the operation's start to its successful response (`nan` when none did)"
        )
    }

    // MARK: - Recovery and the run

    /// Seconds from the trigger's start to the start of the bucket after the last failing one;
    /// `inf` if never or saturated at the horizon, `nan` without a trigger.
    public static let recovery = Metric(
        "recovery_s", label: "recovery after outage", unit: "s", kind: .seconds, better: .lower, rewardsGivingUp: true,
        in: [.fleet, .service],
        meaning:
            "from the start of the trigger (the first capacity drop or rise of the load above its base) to the start of the bucket after the last failing one: a bucket that timed out, rejected or expired more attempts than the share failing before the trigger predicts, and whose `recovery_window` (default 10 s) from it does so by more than chance allows, so a stray failure does not count (see Recovery below): how long the incident hurt clients; `inf` if still failing at the horizon or saturated there (a queue full throughout the last window, or goodput short of what arrived; in a call graph, at any service), `nan` without a trigger (services.csv: the failures its callers saw, and its own saturation)"
    )
    /// Share (0…1) of the requests served after the warmup that their client had already abandoned; 0 if none served.
    public static let wastedFraction = Metric(
        "wasted_fraction", label: "wasted work, share of served", unit: "share", kind: .fraction, better: .lower,
        meaning: "`wasted / served`")
    /// Happenings the simulation handled in the whole run, warmup included; a count, in events.
    public static let events = Metric(
        "events", label: "events", unit: "events", kind: .count, better: .neither,
        meaning:
            "happenings the simulation handled: events popped from its queues, plus attempt outcomes settled as the attempt was sent (see Performance: the event queue); `--all-events` gives every outcome its own event and so a larger count, with the same results up to the order of random draws"
    )
    /// When the run stopped, seconds: the horizon, or the last operation's end or request served once all was done.
    public static let simEnd = Metric(
        "sim_end_s", label: "simulation end", unit: "s", kind: .seconds, better: .neither,
        meaning:
            "when the simulation stopped: the horizon, or — when nothing was left to do — the last operation's end or the last request served, whichever is later (a server still at work on a request at the horizon keeps the run going to the horizon; one stopped for good does not)"
    )
    /// Operations started after the warmup and still going at the horizon; a count, in operations.
    public static let unfinished = Metric(
        "unfinished", label: "unfinished at horizon", unit: "operations", kind: .count, better: .neither, in: [.fleet, .population],
        meaning: "operations still going at the horizon")

    // MARK: - Run totals of the time series

    /// First attempts clients sent after the warmup; a count, in attempts.
    public static let firstAttempts = Metric.total(
        of: .firstAttempts, label: "first attempts", unit: "attempts", better: .neither, in: [.fleet, .population],
        meaning: "first attempts sent by clients")
    /// Attempts after the first that clients sent after the warmup; a count, in retries.
    public static let retries = Metric.total(
        of: .retries, label: "retries", unit: "retries", better: .lower, in: [.fleet, .population, .service, .edge],
        meaning: "attempts after the first sent by clients (services.csv: by the service's callers; edges.csv: by the caller on the edge)")
    /// Attempts answered with an error after service, after the warmup; a count, in attempts.
    public static let failed = Metric.total(
        of: .failed, label: "failed attempts", unit: "attempts", better: .lower, in: [.fleet, .population, .service, .edge],
        meaning:
            "attempts answered with an error after service (edges.csv: every attempt on the edge answered with an error, those the callee refused without serving included, so services.csv's `failed + rejected`)"
    )
    /// Attempts their client abandoned at the timeout, after the warmup; a count, in attempts.
    public static let timedOut = Metric.total(
        of: .timedOut, label: "timed-out attempts", unit: "attempts", better: .lower, in: [.fleet, .population, .service, .edge],
        meaning: "attempts abandoned by their client (services.csv: their calling service; edges.csv: the caller) at the timeout")
    /// Attempts the server refused without serving (full queue), after the warmup; a count, in attempts.
    public static let rejected = Metric.total(
        of: .rejected, label: "rejected attempts", unit: "attempts", better: .lower, in: [.fleet, .population, .service],
        meaning: "attempts the server refused without serving (full queue)")
    /// Attempts that reached the server, the rejected ones included, after the warmup; a count, in attempts.
    public static let offered = Metric.total(
        of: .offered, label: "offered attempts", unit: "attempts", better: .neither, in: [.fleet, .population],
        meaning: "attempts that reached the server (including those it rejected)")
    /// Requests the server finished serving, wanted or not, after the warmup; a count, in requests.
    public static let served = Metric.total(
        of: .served, label: "served requests", unit: "requests", better: .neither, in: [.fleet, .service],
        meaning: "requests the server finished serving, wanted or not")
    /// Requests served after their client had abandoned them, after the warmup; a count, in requests.
    public static let wasted = Metric.total(
        of: .wasted, label: "wasted requests", unit: "requests", better: .lower, in: [.fleet, .service],
        meaning: "requests served after their client (services.csv: their calling service) had abandoned them")
    /// Requests dropped unserved at the queue's head, deadline passed, after the warmup; a count, in requests.
    public static let expired = Metric.total(
        of: .expired, label: "expired requests", unit: "requests", better: .neither, in: [.fleet, .service],
        meaning: "requests dropped unserved at the head of the queue (deadline passed, `drop_expired`)")
    /// Attempts that failed on the client for lack of network, after the warmup; a count, in attempts.
    public static let offline = Metric.total(
        of: .offline, label: "offline attempts", unit: "attempts", better: .lower, in: [.fleet, .population],
        meaning: "attempts that failed on the client for lack of network (`clients.offline`)")
    /// Writes the server applied again for an operation already applied, after the warmup; a count, in writes.
    public static let duplicates = Metric.total(
        of: .duplicates, label: "duplicate writes", unit: "writes", better: .lower, in: [.fleet, .population],
        meaning: "writes the server applied again for an operation it had already applied (no idempotency key)")
    /// Status queries sent to reconcile ambiguous failures, after the warmup; a count, in requests.
    public static let queries = Metric.total(
        of: .queries, label: "status queries", unit: "requests", better: .neither, in: [.fleet, .population],
        meaning: "status queries sent to reconcile ambiguous failures")
    /// Operations a status query found applied, after the warmup; a count, in operations.
    public static let confirmed = Metric.total(
        of: .confirmed, label: "confirmed by a status query", unit: "operations", better: .neither, in: [.fleet, .population],
        meaning: "operations a status query found applied (they succeed without a successful attempt)")
    /// Attempts in flight their client abandoned: at an app restart, or a hedged copy another
    /// copy outran; after the warmup; a count, in attempts.
    public static let abandoned = Metric.total(
        of: .abandoned, label: "abandoned attempts", unit: "attempts", better: .neither, in: [.fleet, .population],
        meaning: "attempts in flight their client abandoned: at an app restart (`clients.restart`), or a hedged copy another copy outran")
    /// Retries and hedged copies the retry budget refused, each once (a refused retry ends its operation as gave up), after the warmup; a count.
    public static let budgetDenied = Metric.total(
        of: .budgetDenied, label: "retries denied by the budget", unit: "retries", better: .neither,
        in: [.fleet, .population, .service, .edge],
        meaning:
            "retries and hedged copies the retry budget refused, each counted once and never also in `held_back` (a refused retry ends its operation as gave up, a refused copy leaves the copies out to answer; services.csv: the callers' budgets on their calls to the service; edges.csv: the caller's budget on the edge)"
    )
    /// Times the policy held an attempt back before sending it, after the warmup; a count, in attempts.
    public static let heldBack = Metric.total(
        of: .heldBack, label: "attempts held back", unit: "attempts", better: .neither, in: [.fleet, .population, .service],
        meaning:
            "times the policy held an attempt or a hedged copy back before sending it: a breaker open or its probes out, the host's concurrency slots full, the adaptive throttle refusing (the retry budget's refusals are `budget_denied` alone)"
    )

    // MARK: - The queue

    /// Mean wait in the server's queue before service over the whole run, seconds; `nan` without a queue.
    public static let waitMean = Metric(
        "wait_mean_s", label: "mean wait in the queue", unit: "s", kind: .seconds, better: .lower,
        meaning:
            "mean time a request waited in the server's queue before service, by Little's law: ∫ queue length dt / requests admitted (`nan` for models without a queue)"
    )
    /// Time-average number of requests waiting in the queue over the whole run; in requests.
    public static let queueMean = Metric(
        "queue_mean", label: "mean queue length", unit: "requests", kind: .ratio, better: .neither,
        meaning: "time-average queue length over the horizon")

    // MARK: - Shares lost

    /// Share (0…1) of the operations after the warmup that gave up; `nan` without operations.
    public static let gaveUpFraction = Metric(
        "gave_up_fraction", label: "gave up, share of operations", unit: "share", kind: .fraction, better: .lower,
        in: [.fleet, .population], meaning: "`gave_up / operations` (`nan` without operations)")
    /// Share (0…1) of the operations after the warmup that were blocked; `nan` without operations.
    public static let blockedFraction = Metric(
        "blocked_fraction", label: "blocked, share of operations", unit: "share", kind: .fraction, better: .lower,
        in: [.fleet, .population],
        meaning: "`blocked / operations` (`nan` without operations)")
    /// Share (0…1) of the operations after the warmup still going at the horizon; `nan` without operations.
    public static let unfinishedFraction = Metric(
        "unfinished_fraction", label: "unfinished, share of operations", unit: "share", kind: .fraction, better: .lower,
        in: [.fleet, .population],
        meaning: "`unfinished / operations`: still going at the horizon, so not succeeded (`nan` without operations)")

    // MARK: - The incident window

    /// Median time to success of the operations started in the incident window, seconds; `inf` if under half succeeded.
    public static let incidentTTSP50 = Metric(
        "incident_tts_p50_s", label: "time to success p50 in the incident", unit: "s", kind: .seconds, better: .lower,
        in: [.fleet, .population], window: .incident,
        meaning:
            "the median time to success over every operation that started in the incident window (one that did not succeed counts as never, so `inf` when fewer than half succeeded): from the first trigger (capacity below nominal, or the load above its base, as the scenario's profiles and replayed files give them) to the later of the recovery and the trigger's end (capacity back at nominal, the load back at its base), in whole buckets, after the warmup; to the horizon if it never recovered. Unlike the whole-run percentiles it does not change when more quiet time is simulated after the incident. `nan` without a trigger or without an operation in the window"
    )
    /// 99th-percentile time to success of the operations started in the incident window, seconds; `nan` if no trigger.
    public static let incidentTTSP99 = Metric(
        "incident_tts_p99_s", label: "time to success p99 in the incident", unit: "s", kind: .seconds, better: .lower,
        in: [.fleet, .population], window: .incident,
        meaning:
            "the 99th-percentile time to success over every operation that started in the incident window (as `incident_tts_p50_s`; `inf` when fewer than 99% succeeded)"
    )
    /// Share (0…1) of the operations started in the incident window that gave up; `nan` without a trigger.
    public static let incidentGaveUpFraction = Metric(
        "incident_gave_up_fraction", label: "gave up in the incident, share", unit: "share", kind: .fraction, better: .lower,
        in: [.fleet, .population], window: .incident,
        meaning: "of the operations that started in the incident window, the share that gave up")
    /// The busiest bucket's offered attempts per second over its mean capacity, after the warmup; a ratio (×).
    public static let peakOverload = Metric(
        "peak_overload", label: "peak load / capacity at the time", unit: "×", kind: .ratio, better: .lower,
        meaning:
            "the largest bucket's offered load (attempts reaching the server per second) divided by that bucket's mean capacity, over buckets with capacity (`peak_load_ratio` divides by nominal capacity instead)"
    )
    /// 1 when clients stopped failing before the horizon (``recovery`` finite), else 0, `nan`
    /// without a trigger; one per replication.
    public static let recovered = Metric(
        "recovered", label: "recovered (share of replications)", unit: "0 or 1", kind: .fraction, format: .whole, better: .higher,
        in: [.fleet, .service],
        meaning:
            "1 when clients stopped failing before the horizon and nothing was saturated there (`recovery_s` finite), 0 when not, `nan` without a trigger; its mean over replications is the probability of recovering (services.csv: the service's own)"
    )
    /// 1 when the run is stuck at the horizon (``Stuck``), else 0; `nan` when it ends less than
    /// `stuck_window` after its trigger. Its mean is P(stuck), shown with a Wilson interval.
    public static let stuck = Metric(
        "stuck", label: "stuck (share of replications)", unit: "0 or 1", kind: .fraction, format: .whole, better: .lower,
        in: [.fleet, .population, .service], isIndicator: true,
        meaning:
            "1 when the run is stuck at the horizon, 0 when not: over its last `stuck_window` (default 20 s, whole buckets), which must lie wholly after the trigger's end (capacity back at nominal, the load back at its base), the operations that succeeded fall short of half of the operations started (the first attempts offered) by 3 or more; in a call graph, also when any service is stuck. `nan` when the run ends less than `stuck_window` after its trigger (or its warmup). Its mean over replications is P(stuck), shown with a 95% Wilson interval (populations.csv: the population's own operations; services.csv: the service's queue full at the end of every bucket of the window, or its goodput, `served − wasted`, short of half of what its callers sent it by 3 or more)"
    )
    /// Seconds from the trigger's end to the recovery: 0 if before it, `inf` if never, `nan` without a trigger.
    public static let recoveryAfterTrigger = Metric(
        "recovery_after_trigger_s", label: "recovery after the trigger ended", unit: "s", kind: .seconds, better: .lower,
        rewardsGivingUp: true,
        meaning:
            "from the trigger's end (capacity back at nominal and the load back at its base) to the recovery; 0 when it recovered before the trigger ended (the report then says when, and how far the trigger still was), `inf` when never, `nan` without a trigger"
    )

    // MARK: - Among successes only

    /// Median time to success among the incident window's operations that succeeded, seconds.
    public static let incidentTTSSuccessP50 = Metric(
        "incident_tts_success_p50_s", label: "time to success p50 in the incident among successes", unit: "s", kind: .seconds,
        better: .lower, rewardsGivingUp: true, in: [.fleet, .population], window: .incident,
        meaning:
            "the median time to success among the operations that started in the incident window and succeeded (`nan` without a trigger or without a success in the window)"
    )
    /// 99th-percentile time to success among the incident window's operations that succeeded, seconds.
    public static let incidentTTSSuccessP99 = Metric(
        "incident_tts_success_p99_s", label: "time to success p99 in the incident among successes", unit: "s", kind: .seconds,
        better: .lower, rewardsGivingUp: true, in: [.fleet, .population], window: .incident,
        meaning: "the 99th-percentile time to success among the operations that started in the incident window and succeeded")

    // MARK: - The incident's load

    /// Attempts reaching the server in the incident window over the capacity it had (×); `nan` if no trigger.
    public static let incidentLoadRatio = Metric(
        "incident_load_ratio", label: "mean load / capacity in the incident", unit: "×", kind: .ratio, better: .lower,
        window: .incident,
        meaning:
            "the mean load over the incident window, next to the one-bucket `peak_overload`: the attempts that reached the server in the window's buckets divided by the capacity those buckets had (capacity per second × seconds); above 1 the server could not keep up on average. `nan` without a trigger"
    )

    // MARK: - Guards

    /// Retries and hedged copies a guard refused, each once, after the warmup; a count, in retries.
    public static let retriesRefused = Metric(
        "retries_refused", label: "retries refused by a guard", unit: "retries", kind: .count, better: .neither,
        in: [.fleet, .population],
        meaning:
            "retries and hedged copies a guard refused, each once: the retry budget or gRPC throttling (`budget_denied`), a breaker that fails fast, the adaptive throttle, a concurrency limit that fails when full (a refused retry ends its operation; a refused copy is not asked for again, at any later delay; a first attempt they refuse is not counted)"
    )
    /// Share (0…1) of the retries wanted after the warmup that a guard refused; `nan` when none was wanted.
    public static let retriesRefusedFraction = Metric(
        "retries_refused_fraction", label: "retries refused, share of retries wanted", unit: "share", kind: .fraction,
        better: .neither, in: [.fleet, .population],
        meaning:
            "`retries_refused / (retries + retries_refused)`: of the retries the policy wanted to send (hedged copies included, each once), the share a guard refused (`nan` when it wanted none); above 50% a finding and a warning say which guard and, where it can, why"
    )

    // MARK: - Services of a call graph

    /// Requests the service received after the warmup, the rejected ones included; a count, in requests.
    public static let requests = Metric(
        "requests", label: "requests received", unit: "requests", kind: .count, better: .neither, in: [.service],
        meaning: "requests the service received, the rejected ones included (at the first service, summary.csv's `offered`)")
    /// Calls made to the service after the warmup (at the first service, the user operations); a count, in calls.
    public static let calls = Metric(
        "calls", label: "calls to the service", unit: "calls", kind: .count, better: .neither, in: [.service, .edge],
        meaning:
            "calls made to the service, each an operation of its caller's policy on that edge: at the first service the user operations (`operations`), at another the calls its callers' requests made to it (edges.csv: the calls the caller started on the edge)"
    )
    /// Calls to the service that failed after their retries (gave up or blocked), after the warmup; a count, in calls.
    public static let callsFailed = Metric(
        "calls_failed", label: "failed calls", unit: "calls", kind: .count, better: .lower, in: [.service],
        meaning:
            "calls to the service that failed after their retries, `gave_up + blocked` as its callers counted them (at the first service, the user operations that gave up or were blocked)"
    )
    /// Requests the service received per user operation, over the buckets after the warmup; a ratio, in requests/op.
    public static let requestsPerOperation = Metric(
        "requests_per_operation", label: "requests per user operation", unit: "requests/op", kind: .ratio, better: .lower,
        in: [.service],
        meaning:
            "`requests` over the user operations (the first service's `calls`) of the same buckets: how many requests one user action puts on the service, where the storm lands (`nan` without operations)"
    )
    /// Requests the service received per user operation in the incident window; a ratio, in requests/op.
    public static let incidentRequestsPerOperation = Metric(
        "incident_requests_per_operation", label: "requests per user operation in the incident", unit: "requests/op",
        kind: .ratio, better: .lower, in: [.service], window: .incident,
        meaning:
            "`requests_per_operation` over the incident window's buckets only (from the trigger's first bucket to the first healthy one, as the incident's other metrics): the requests the service received in them over the user operations started in them, where the whole run's figure averages the storm with the calm (`nan` without a trigger or without operations)"
    )
    /// Attempts per call made to the service, after the warmup; a ratio, in attempts/call.
    public static let attemptsPerCall = Metric(
        "attempts_per_call", label: "attempts per call", unit: "attempts/call", kind: .ratio, better: .lower, in: [.service],
        meaning: "`attempts / calls`: how much the edges into the service amplify, per call (`nan` without calls)")
    /// Median latency of the service's requests (services.csv) or the edge's calls (edges.csv)
    /// after the warmup, seconds, within 0.39%; `nan` without one.
    public static let latencyP50 = Metric(
        "latency_p50_s", label: "latency p50", unit: "s", kind: .seconds, better: .lower, rewardsGivingUp: true,
        in: [.service, .edge],
        meaning:
            "the median time a request spent at the service, from its arrival to its answer, over every request that arrived after the warmup and ended before the horizon: answered, refused at the door (0 s), failed, status queries too; one dropped unserved or whose answer was lost counts when the service let go of it (edges.csv: a call's time as its caller saw it, from its start to its end, successful or not, over the calls started after the warmup that ended). Quantiles by nearest rank of a log-binned histogram, within 0.39% (`nan` without a request or call)"
    )
    /// 99th-percentile latency of the service's requests (services.csv) or the edge's calls
    /// (edges.csv) after the warmup, seconds, within 0.39%; `nan` without one.
    public static let latencyP99 = Metric(
        "latency_p99_s", label: "latency p99", unit: "s", kind: .seconds, better: .lower, rewardsGivingUp: true,
        in: [.service, .edge],
        meaning: "the 99th percentile of the same times as `latency_p50_s`: at the service every request, on the edge every ended call")
    /// Hedged copies after the first sent on the edge after the warmup; a count, in attempts.
    public static let hedges = Metric(
        "hedges", label: "hedged copies sent", unit: "attempts", kind: .count, better: .neither, in: [.edge],
        meaning:
            "hedged copies after a call's first attempt that the caller sent on the edge (each also one of `retries`; copies refused or not needed are not counted)"
    )

    // MARK: - Derived (no column)

    /// The share of operations lost: the report's tables and findings, and ``BestMarks``' rule.
    public static let lostFraction = Metric(
        "lost_fraction", label: "lost (gave up, blocked or unfinished)", unit: "share", kind: .fraction, better: .lower,
        meaning:
            "the share of operations that did not succeed — gave up, were blocked or were still unfinished at the horizon: the report's \"lost\" column, and what keeps a point from the best mark on a time among successes (not a column, so no gate, objective or constraint names it)",
        derivation: "`gave_up_fraction + blocked_fraction + unfinished_fraction`, replication by replication")

    /// The share lost in total (gave up + blocked + unfinished): the one column where a point that
    /// loses more still competes (``BestMarks``). Its parts are not: a breaker that keeps
    /// operations waiting past the horizon gives up on none, and must not be marked for it.
    public var isLostShare: Bool { self == .lostFraction }

    /// Every metric, in summary.csv's column order, then services.csv's and edges.csv's own, then the derived ones.
    public static let all: [Metric] = [
        .operations, .attempts, .amplification, .succeeded, .gaveUp, .blocked, .peakOfferedPerSecond, .peakLoadRatio,
        .ttsMean, .ttsP50, .ttsP90, .ttsP99, .ttsP999, .ttsMax, .recovery, .wastedFraction, .events, .simEnd, .unfinished,
        .firstAttempts, .retries, .failed, .timedOut, .rejected, .offered, .served, .wasted, .expired, .offline, .duplicates,
        .queries, .confirmed, .abandoned, .budgetDenied, .heldBack, .waitMean, .queueMean, .gaveUpFraction, .blockedFraction,
        .incidentTTSP50, .incidentTTSP99, .incidentGaveUpFraction, .peakOverload, .recovered, .recoveryAfterTrigger,
        .unfinishedFraction, .ttsSuccessMean, .ttsSuccessP50, .ttsSuccessP90, .ttsSuccessP99, .ttsSuccessP999, .ttsSuccessMax,
        .incidentTTSSuccessP50, .incidentTTSSuccessP99, .incidentLoadRatio, .retriesRefused, .retriesRefusedFraction, .stuck, .requests, .calls,
        .callsFailed, .requestsPerOperation, .incidentRequestsPerOperation, .attemptsPerCall, .latencyP50, .latencyP99, .hedges,
        .lostFraction
    ]
}
