@_spi(Simulation) import RetryPolicy
import RetryStormVocabulary

/// The policy part of a scenario being assembled: a ``RetryPolicy`` (from `policy.preset`, then
/// key by key) plus the parts of composite values (jitter, server hints, budget, breaker,
/// throttle, concurrency, status lists) that only make sense together, put together by
/// ``build(check:)``. A part left nil keeps the preset's value.
struct PolicyDraft: Sendable {
    var policy = PolicyPresets.none
    var jitterName: String?
    var jitterFraction: Double?
    var hintMode: String?
    var hintClamp: Nanoseconds?
    var budget = BudgetParts()
    var breaker = BreakerParts()
    var throttle = ThrottleParts()
    var concurrency = ConcurrencyParts()
    var hedge = HedgeParts()
    /// Status-list texts by key path, parsed in ``build(check:)`` so errors name their key.
    var statusLists: [String: String] = [:]

    struct BudgetParts: Sendable {
        package var kind: String?
        var retries: Int?
        var capacity: Int?
        var refill: Double?
        var tokenRatio: Double?
        var retryCost: Int?
        var timeoutCost: Int?
        var throttlingCost: Int?
        var successRefund: Int?
        var ttl: Nanoseconds?
        var minPerSecond: Double?
        var percent: Double?
        var perRequest: Double?
        var minConcurrency: Int?
    }

    struct BreakerParts: Sendable {
        package var kind: String?
        var window = Window()
        var threshold: Double?
        var comparison: String?
        var minCalls: Int?
        var minFailures: Int?
        var evaluateOnSuccess: Bool?
        var openDuration = OpenDuration()
        var probes: Int?
        var whenOpen: String?
        var records: String?

        /// The window's size for each kind: only the one of the kind the breaker ends with counts.
        struct Window: Sendable {
            var calls: Int?
            var duration: Nanoseconds?
            var consecutive: Int?
        }

        /// The backoff of the open time: its first duration, growth, cap and multiplier.
        struct OpenDuration: Sendable {
            var base: Nanoseconds?
            var growth: String?
            var max: Nanoseconds?
            var multiplier: Double?
        }
    }

    struct ThrottleParts: Sendable {
        package var kind: String?
        var k: Double?
        var window: Nanoseconds?
    }

    struct ConcurrencyParts: Sendable {
        /// `.some(nil)`: set to none.
        var maxInFlight: Int??
        var backgroundMax: Int??
        var whenFull: String?
    }

    struct HedgeParts: Sendable {
        /// The delay as `policy.hedge.delay` gives it; the window joins a percentile in ``build(_:)``.
        enum Delay: Sendable {
            case fixed(Nanoseconds)
            case percentile(Double)
        }

        /// `.some(nil)`: set to none.
        var delay: Delay??
        var maxAttempts: Int?
        var window: Nanoseconds?
    }

    /// Starts again from a preset, forgetting every part set so far.
    mutating func reset(to preset: String) {
        self = PolicyDraft()
        policy = PolicyPresets.policy(named: preset)
    }

    typealias Check = (Bool, String, String, [String]) throws(ScenarioError) -> Void

    /// The finished policy; a failed cross-field rule is reported where its key was set in
    /// `locations` (by key path), or where one of the keys it also names was.
    func build(locations: [String: SourceLocation]) throws(ScenarioError) -> RetryPolicy {
        try build { (ok: Bool, field: String, message: String, also: [String]) throws(ScenarioError) in
            guard !ok else { return }
            var loc = locations[field] ?? SourceLocation(origin: .defaultValue)
            for p in also where locations[p] != nil && locations[field] == nil { loc = locations[p]! }
            throw ScenarioError(loc, field: field, message)
        }
    }

    /// The finished policy. `check(ok, field, message, also)` reports a failed cross-field rule.
    func build(check: Check) throws(ScenarioError) -> RetryPolicy {
        var policy = self.policy
        if let jitterName {
            policy.backoff.jitter = Self.jitter(named: jitterName, fraction: jitterFraction ?? Self.fraction(of: policy.backoff.jitter) ?? 0.2)
        } else if let jitterFraction {
            switch policy.backoff.jitter {
            case .proportional: policy.backoff.jitter = .proportional(jitterFraction)
            case .additive: policy.backoff.jitter = .additive(jitterFraction)
            default: break
            }
        }
        policy.serverHints.mode = hints(policy.serverHints.mode)
        policy.budget = try budget.build(policy.budget, check: check)
        policy.breaker = try breaker.build(policy.breaker, check: check)
        policy.throttle = throttle.build(policy.throttle)
        policy.concurrency = try concurrency.build(policy.concurrency, check: check)
        policy.hedging = hedge.build(policy.hedging)
        try applyStatusLists(to: &policy.classifier, check: check)
        if policy.backoff.kind != .none {
            try check(
                policy.backoff.max >= policy.backoff.base, "policy.backoff.max",
                "(\(Format.duration(policy.backoff.max))) must be at least policy.backoff.base (\(Format.duration(policy.backoff.base)))",
                ["policy.backoff.base"])
        }
        return policy
    }

    func hints(_ current: ServerHintPolicy.Mode) -> ServerHintPolicy.Mode {
        var extra: Nanoseconds = 5_000_000_000
        if case .clampAboveBackoff(let e) = current { extra = e }
        if let hintClamp { extra = hintClamp }
        switch hintMode {
        case nil:
            if case .clampAboveBackoff = current { return .clampAboveBackoff(extra: extra) }
            return current
        case "ignore": return .ignore
        case "replace": return .replace
        case "replace-and-reset": return .replaceAndReset
        case "clamp": return .clampAboveBackoff(extra: extra)
        default: return .atLeast
        }
    }

    func applyStatusLists(to c: inout Classifier, check: Check) throws(ScenarioError) {
        for (path, text) in statusLists.sorted(by: { $0.key < $1.key }) {
            let set = Self.statuses(text)
            try check(set != nil, path, "expected statuses such as 500,502,503 or 500-599 (each 100…599), or none (got '\(text)')", [])
            guard let set else { continue }
            switch path {
            case "policy.classify.retryable_statuses": c.retryableStatuses = set
            case "policy.classify.throttling_statuses": c.throttlingStatuses = set
            case "policy.classify.auth_statuses": c.authRefreshStatuses = set
            case "policy.classify.permanent_statuses": c.permanentStatuses = set
            default: c.hintedStatuses = set
            }
        }
    }

    /// `500,502 503`, `500-599` or `none` → a set; nil if malformed.
    static func statuses(_ text: String) -> StatusSet? {
        let t = text.trimmingWhitespace().lowercased()
        if t.isEmpty || t == "none" { return StatusSet() }
        var set = StatusSet()
        for item in t.split(whereSeparator: { $0 == "," || $0 == " " }) {
            let bounds = item.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count <= 2, let lo = Int(bounds[0]), let hi = Int(bounds.last!), lo <= hi,
                (100...599).contains(lo), (100...599).contains(hi)
            else { return nil }
            for s in lo...hi { set.insert(s) }
        }
        return set
    }

    static func jitter(named name: String, fraction: Double) -> Jitter {
        switch name {
        case "none": .none
        case "equal": .equal
        case "decorrelated": .decorrelated
        case "decorrelated-v2": .decorrelatedV2
        case "proportional": .proportional(fraction)
        case "additive": .additive(fraction)
        default: .full
        }
    }

    static func fraction(of j: Jitter) -> Double? {
        switch j {
        case .proportional(let f), .additive(let f): f
        default: nil
        }
    }
}

extension PolicyDraft.BudgetParts {
    /// The kind named, from its library defaults, or the preset's budget when no kind is named;
    /// then the parameters that apply to it.
    func build(_ current: RetryBudget, check: PolicyDraft.Check) throws(ScenarioError) -> RetryBudget {
        var budget = current
        if let kind, kind != current.kindName {
            budget =
                switch kind {
                case "per-run": .perRun(retries: 100)
                case "token-bucket": .tokenBucket(TokenBucket(capacity: 10, refillPerSecond: 1))
                case "grpc": .grpc(.a6Example)
                case "aws": .aws(.standard)
                case "aws-2026": .aws(.standard2026)
                case "finagle": .ratio(.finagleDefault)
                case "ratio": .ratio(.sreBook)
                case "envoy": .envoy(.retryBudget)
                default: .unlimited
                }
        }
        switch budget {
        case .unlimited:
            break
        case .perRun(let n):
            budget = .perRun(retries: retries ?? n)
        case .tokenBucket(var b):
            if let capacity { b.capacity = Double(capacity) }
            if let refill { b.refillPerSecond = refill }
            budget = .tokenBucket(b)
        case .grpc(var g):
            if let capacity { g.maxTokens = capacity }
            if let tokenRatio { g.tokenRatio = tokenRatio }
            try check(
                g.maxTokens <= 1000, "policy.budget.capacity", "must be at most 1000 for grpc (A6 maxTokens; got \(g.maxTokens))",
                ["policy.budget.kind"])
            budget = .grpc(g)
        case .aws(var q):
            if let capacity { q.capacity = capacity }
            if let retryCost { q.retryCost = retryCost }
            if let timeoutCost { q.timeoutCost = timeoutCost }
            if let throttlingCost { q.throttlingCost = throttlingCost }
            if let successRefund { q.noRetryIncrement = successRefund }
            budget = .aws(q)
        case .ratio(var f):
            let finagle = f.maxRetriesPerRequest > 0 || kind == "finagle"
            if let ttl { f.ttl = ttl }
            if let minPerSecond { f.minRetriesPerSecond = minPerSecond }
            if let percent { f.percentCanRetry = percent }
            if let perRequest { f.maxRetriesPerRequest = perRequest }
            if finagle {
                try check(
                    f.ttl <= 60 * ScenarioSchema.second, "policy.budget.ttl",
                    "must be at most 60s for finagle (RetryBudget's range is 1s…60s; use kind ratio for longer)", ["policy.budget.kind"])
            }
            budget = .ratio(f)
        case .envoy(var e):
            if let percent { e.percent = percent }
            if let minConcurrency { e.minConcurrency = minConcurrency }
            budget = .envoy(e)
        }
        return budget
    }
}

extension PolicyDraft.BreakerParts {
    /// The preset's breaker (or, for a kind named on a policy without one, the template the key
    /// defaults describe: the offline-first chapter's), with the parts set here.
    func build(_ current: CircuitBreaker?, check: PolicyDraft.Check) throws(ScenarioError) -> CircuitBreaker? {
        if kind == "none" { return nil }
        guard var b = current ?? (kind != nil ? .offlineFirst : nil) else { return nil }
        b.window = window.build(b.window, kind: kind)
        if let threshold {
            try check(threshold > 0, "policy.breaker.threshold", "must be more than 0 (a breaker that trips on no failures never closes)", [])
            b.failureRateThreshold = threshold
        }
        if let comparison { b.comparison = comparison == "at-least" ? .atLeast : .above }
        if let minCalls { b.minimumCalls = minCalls }
        if let minFailures { b.minimumFailures = minFailures }
        if let evaluateOnSuccess { b.evaluateOnSuccess = evaluateOnSuccess }
        if let probes { b.halfOpenProbes = probes }
        if let whenOpen { b.whenOpen = whenOpen == "reject" ? .reject : (whenOpen == "fail-attempt" ? .failAttempt : .wait) }
        if let records { b.records = records == "all-failures" ? .allFailures : .hostFailures }
        b.openDuration = openDuration.build(b.openDuration)
        try check(
            b.openDuration.max >= b.openDuration.base, "policy.breaker.open_max",
            "(\(Format.duration(b.openDuration.max))) must be at least policy.breaker.open (\(Format.duration(b.openDuration.base)))",
            ["policy.breaker.open"])
        return b
    }
}

extension PolicyDraft.BreakerParts.Window {
    /// The window of `kind` (nil: the kind of `current`) with the size set here. The current
    /// window's own size survives only if the kind stays the same.
    func build(_ current: CircuitBreaker.Window, kind: String?) -> CircuitBreaker.Window {
        var size = 20
        var span = 120 * ScenarioSchema.second
        var run = 5
        let currentKind: String
        switch current {
        case .count(let n): (currentKind, size) = ("count", n)
        case .time(let d): (currentKind, span) = ("time", d)
        case .consecutive(let n): (currentKind, run) = ("consecutive", n)
        }
        switch kind ?? currentKind {
        case "count": return .count(calls ?? size)
        case "time": return .time(duration ?? span)
        default: return .consecutive(consecutive ?? run)
        }
    }
}

extension PolicyDraft.BreakerParts.OpenDuration {
    /// The open-duration backoff from `current` with the parts set here.
    func build(_ current: Backoff) -> Backoff {
        let currentGrowth: String =
            switch current.kind {
            case .constant, .none: "fixed"
            case .linear: "linear"
            case .exponential: current.jitter == .equal ? "jittered" : "exponential"
            }
        let base = self.base ?? current.base
        let cap = max ?? (growth == "fixed" ? base : current.max)
        let m = multiplier ?? current.multiplier
        switch growth ?? currentGrowth {
        case "fixed": return Backoff(kind: .constant, base: base, max: Swift.max(base, max ?? base))
        case "linear": return Backoff(kind: .linear, base: base, max: cap)
        case "jittered":
            return Backoff(kind: .exponential, base: base, max: cap, multiplier: m, jitter: .equal, capAfterJitter: true, firstRetry: .unjittered)
        default: return Backoff(kind: .exponential, base: base, max: cap, multiplier: m)
        }
    }
}

extension PolicyDraft.ThrottleParts {
    func build(_ current: AdaptiveThrottle?) -> AdaptiveThrottle? {
        if kind == "none" { return nil }
        guard var t = current ?? (kind == "adaptive" ? .sreBook : nil) else { return nil }
        if let k { t.k = k }
        if let window { t.window = window }
        return t
    }
}

extension PolicyDraft.HedgeParts {
    /// The hedging the delay names (none: nil), with the copies and window set here; a part not
    /// set keeps `current`'s, or the key's default (2 copies, a 30 s window).
    func build(_ current: Hedging?) -> Hedging? {
        var currentWindow: Nanoseconds?
        if case .percentile(_, let w)? = current?.delay { currentWindow = w }
        let copies = maxAttempts ?? current?.maxAttempts ?? 2
        let span = window ?? currentWindow ?? 30 * ScenarioSchema.second
        let built: Hedging.Delay
        switch delay {
        case nil:
            guard let current else { return nil }
            built = if case .percentile(let q, _) = current.delay { .percentile(q, window: span) } else { current.delay }
        case .some(nil): return nil
        case .some(.fixed(let ns)?): built = .fixed(ns)
        case .some(.percentile(let q)?): built = .percentile(q, window: span)
        }
        return Hedging(delay: built, maxAttempts: copies)
    }
}

extension PolicyDraft.ConcurrencyParts {
    func build(_ current: ConcurrencyLimit?, check: PolicyDraft.Check) throws(ScenarioError) -> ConcurrencyLimit? {
        let max: Int?
        if let set = maxInFlight { max = set } else { max = current?.maxInFlight }
        guard let max else { return nil }
        let background: Int
        if let set = backgroundMax { background = set ?? max } else { background = current?.backgroundMaxInFlight ?? max }
        try check(
            background <= max, "policy.concurrency.background_max",
            "(\(background)) must not be more than policy.concurrency.max_in_flight (\(max))", ["policy.concurrency.max_in_flight"])
        let full: ConcurrencyLimit.WhenFull = whenFull.map { $0 == "reject" ? .reject : .wait } ?? current?.whenFull ?? .wait
        return ConcurrencyLimit(maxInFlight: max, backgroundMaxInFlight: background, whenFull: full)
    }
}
