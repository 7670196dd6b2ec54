import Foundation
import GSLSupport
import RetryPolicy

/// Rare-event estimation by splitting, branching from copies of the engine's state
/// (``Simulation/init(copying:_:)``), never by replaying a prefix.
///
/// - `collapse`, by multilevel splitting with fixed effort on the server's backlog (requests
///   waiting or in service), up to capacity × timeout (``RareEvent/threshold(_:)``). An empty
///   server is a regeneration point (with immediate retries and no network hop, nothing is
///   pending when it empties), so the mean time to collapse is E[cycle] / P(an excursion from empty
///   reaches the threshold) (Wald's identity). Runs from an empty server, each restarted after a
///   collapse, measure the cycle and the share of excursions entering the first level; from each
///   level's entrance states `n` branches run on with fresh random streams, the states taken in
///   turn, until they reach the next level (handing on their state there) or the server empties.
///   P = (share entering) × Π p_i. Each next level is placed from pilot branches run beforehand
///   and discarded: the highest backlog a share of them (``SplittingOptions/share``) reached.
/// - `stuck`, by sequential Monte Carlo (splitting in time): replications from t = 0 are
///   resampled at checkpoints through the trigger in proportion to exp(β × the growth of their
///   backlog since the last), so those falling behind are dropped and those getting ahead are
///   copied, then run to the horizon and judged (``Stuck``). Levels of backlog rank a state
///   reached early in a trigger with one reached just before its end, and measured that way the
///   estimate came out orders of magnitude low; checkpoints in time do not (see
///   docs/models.md, "Rare events"). β is the first of 1/σ, 2/σ, … (σ the spread of the backlog's
///   growth through the trigger) whose pilot leaves a quarter of its particles stuck.
///
/// The work is split into ``SplittingOptions/batches`` independent batches. Each batch's P is
/// unbiased; the estimate is their mean (a collapse's mean time, the mean cycle over the mean P:
/// the mean of the batches' times would be biased upwards, as E[1/P̂] > 1/P), and its 95% interval
/// is Student's t over the batches, which counts the correlation between branches from a shared
/// state that a binomial formula per level would leave out.
package enum Splitting {
    /// Why the estimate could not be made: no branch got past a level.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Estimates `event` for `scenario` (which ``RareEvent/refusal(_:)`` accepts).
    /// - Parameter progress: told each level's backlog as it is placed.
    package static func estimate(
        _ scenario: Scenario, event: RareEvent, options: SplittingOptions, progress: (String) -> Void = { _ in }
    ) throws(Failure) -> RareEstimate {
        precondition(event.refusal(scenario) == nil, "Splitting.estimate on a refused scenario")
        var run = SplittingRun(scenario: event == .collapse ? RareEvent.healthy(scenario) : scenario, event: event, options: options)
        return try event == .collapse ? run.collapse(progress) : run.stuck(progress)
    }
}

/// A state kept at a level: a class box, as an array holds only copyable values.
final class SplittingState {
    var sim: Simulation<QueueServer, RetryPolicy>
    init(_ sim: consuming Simulation<QueueServer, RetryPolicy>) { self.sim = sim }
}

/// One splitting run's work (see ``Splitting``).
struct SplittingRun {
    typealias Sim = Simulation<QueueServer, RetryPolicy>
    let scenario: Scenario
    let event: RareEvent
    let options: SplittingOptions
    /// The event's backlog, capped at what the queue can hold.
    let top: Int
    private(set) var events: Int64 = 0
    private var branchesStarted: UInt64 = 0
    /// The levels placed so far, lowest first: every batch climbs the same ladder, and the first
    /// to pass its end places the next rung with its pilots.
    private(set) var ladder: [Int] = []
    /// What plain Monte Carlo costs here: events over simulated seconds of runs from an empty
    /// server (`collapse`), or over replications run whole to the horizon (`stuck`).
    private var plainEvents: Int64 = 0
    private var plainUnits = 0.0
    /// What `stuck`'s machinery estimates the probability of, judged on each replication at its
    /// horizon: the replication is stuck, unless ``Splitting/tilted(_:options:verdict:)`` names
    /// another event.
    var verdict: (ReplicationResult) -> Bool = { $0.summary.stuck == 1 }

    init(scenario: Scenario, event: RareEvent, options: SplittingOptions) {
        self.scenario = scenario
        self.event = event
        self.options = options
        let threshold = RareEvent.threshold(scenario) ?? 1
        top = Swift.min(threshold, RareEvent.room(scenario) ?? .max)
    }

    /// Replication `replication` of the scenario at t = 0, its first events scheduled.
    func start(replication: Int) -> Sim {
        guard case .queue(let q) = scenario.server.model else { preconditionFailure("rare needs the queue model") }
        let service = RandomStream(seed: SeedDerivation.seed(scenario: scenario.seed, replication: replication, stream: 2))
        var sim = Sim(
            scenario: scenario, policies: scenario.effectivePopulations.map(\.policy), replication: replication,
            server: QueueServer(q, capacity: scenario.server.capacity, profile: scenario.server.profile, random: service),
            checkInvariants: false)
        sim.scheduleWorkload()
        return sim
    }

    /// A branch from `state`, with streams of its own.
    mutating func branch(_ state: SplittingState) -> Sim {
        branchesStarted += 1
        var streams = StreamCopies(branch: SeedDerivation.seed(scenario: scenario.seed, replication: Int(branchesStarted), stream: 0x5A17))
        return Sim(copying: state.sim, &streams)
    }

    /// Runs `sim` under `watch`, counting its events.
    mutating func advance<W: LoopWatch>(_ sim: inout Sim, _ watch: inout W) {
        let before = sim.progress.processed
        sim.resume(watch: &watch)
        events += sim.progress.processed - before
    }

    /// The level above `current` that `share` of `highest` (the pilot branches' highest backlogs)
    /// reached, at most ``top``; `current + 1` when none got above it.
    func nextLevel(above current: Int, highest: [Int]) -> Int {
        let needed = Swift.max(1, Int((options.share * Double(highest.count)).rounded(.up)))
        let sorted = highest.sorted(by: >)
        let level = sorted.count >= needed ? sorted[needed - 1] : current + 1
        return Swift.min(top, Swift.max(current + 1, level))
    }

    // MARK: - batches

    /// The estimate from `batches` independent splitting runs of `effort / batches` branches per
    /// level, on one ``ladder``. The interval comes from the spread of the batches' estimates
    /// (Student's t with batches − 1 degrees of freedom), which counts the correlation between
    /// branches of a shared state that a binomial formula would leave out.
    mutating func batched(
        _ progress: (String) -> Void,
        _ one: (inout SplittingRun, _ batch: Int, _ branches: Int) throws(Splitting.Failure) -> Batch
    ) throws(Splitting.Failure) -> RareEstimate {
        let count = options.batches
        let branches = options.effort / count
        var results: [Batch] = []
        for b in 0..<count {
            let placed = ladder.count
            let batch = try one(&self, b, branches)
            if ladder.count > placed { progress("levels: " + ladder.map(String.init).joined(separator: " → ")) }
            progress("batch \(b + 1) of \(count): \(batch.scale / batch.probability)")
            results.append(batch)
        }
        return summarise(results, progress)
    }

    /// The estimate and its interval from independent batches (see ``batched(_:_:)``).
    func summarise(_ results: [Batch], _ progress: (String) -> Void) -> RareEstimate {
        let count = results.count
        let branches = options.effort / count
        // A collapse's mean time is a ratio of the batches' means, Σ scale / Σ probability: each
        // batch's probability is unbiased (fixed-effort splitting), its reciprocal is not
        // (Jensen), so the batches' times are not averaged. Its variance by the delta method over
        // the batches; a probability's is the batches' plain variance of the mean.
        let k = Double(count)
        let x = results.map(\.probability).reduce(0, +) / k
        let y = results.map(\.scale).reduce(0, +) / k
        // Sum each level's branches over the batches (they share the ladder; a batch that stopped
        // early contributes to the levels it reached).
        var levels: [RareEstimate.Level] = []
        for r in results {
            for (i, l) in r.levels.enumerated() {
                if i == levels.count {
                    levels.append(l)
                } else {
                    // A collapse's levels share one ladder; a stuck checkpoint's backlog is its
                    // particles' mean, pooled here over the batches.
                    let branches = levels[i].branches + l.branches
                    let backlog = (levels[i].backlog * levels[i].branches + l.backlog * l.branches) / Swift.max(1, branches)
                    levels[i] = RareEstimate.Level(
                        backlog: event == .collapse ? l.backlog : backlog, branches: branches, reached: levels[i].reached + l.reached,
                        time: l.time)
                }
            }
        }
        let unit = event == .collapse ? "branches per level" : "particles"
        let method = results[0].method + "; \(count) independent batches of \(branches) \(unit), the interval from their spread"
        let threshold = RareEvent.threshold(scenario) ?? top
        guard x > 0 else {
            // Nothing seen in any batch: the rule of three at each batch's deepest level bounds the
            // probability, which bounds a collapse's mean time from below.
            let bound = results.map(\.bound).reduce(0, +) / k
            let note = event == .collapse ? "no branch reached the collapse backlog" : "no branch was stuck"
            return RareEstimate(
                event: event, estimate: event == .collapse ? .infinity : 0, low: event == .collapse ? y / bound : 0,
                high: event == .collapse ? .infinity : bound, method: method + "; \(note) (the bound is the rule of three)",
                levels: levels, eventsSimulated: events, threshold: threshold, effort: options.effort, base: y)
        }
        // The probability's 95% interval from the batches (Student's t, batches − 1 degrees of
        // freedom), clipped to [0, 1]: a stuck estimate's, and, inverted, a collapse's mean time's
        // (y / x, its cycle length y measured over every excursion, far more precisely than x).
        let se = (results.map { ($0.probability - x) * ($0.probability - x) }.reduce(0, +) / (k - 1) / k).squareRoot()
        let t = Statistics.studentT975(degreesOfFreedom: count - 1)
        let low = Swift.max(0, x - t * se)
        let high = Swift.min(1, x + t * se)
        let base = event == .collapse ? y : results.map(\.base).reduce(0, +) / k
        // Plain Monte Carlo's events for the same relative half-width h: (1.96/h)² collapses of
        // y/x seconds each, or (1.96/h)²(1 − x)/x replications.
        let h = t * se / x
        let perUnit = plainUnits > 0 ? Double(plainEvents) / plainUnits : 0
        let needed = 1.96 * 1.96 / (h * h) * (event == .collapse ? y / x : (1 - x) / x) * perUnit
        var e = RareEstimate(
            event: event, estimate: x, low: low, high: high, method: method, levels: levels, eventsSimulated: events,
            threshold: threshold, effort: options.effort, base: base)
        if event == .collapse {
            e = RareEstimate(
                event: event, estimate: y / x, low: y / high, high: low > 0 ? y / low : .infinity, method: method, levels: levels,
                eventsSimulated: events, threshold: threshold, effort: options.effort, base: base)
        }
        e.plainEvents = h > 0 && needed.isFinite && needed > 0 ? needed : nil
        return e
    }

    /// One batch's estimate: `scale / probability`.
    struct Batch {
        /// The chance of the event (`stuck`), or of reaching the threshold from the first level (`collapse`).
        let probability: Double
        /// 1 (`stuck`), or the simulated seconds per first entrance to the first level (`collapse`).
        let scale: Double
        let levels: [RareEstimate.Level]
        let method: String
        /// See ``RareEstimate/base``.
        let base: Double
        /// The rule of three's bound on the probability when nothing was seen, else 0.
        var bound = 0.0
    }

    /// The ladder's rung `index` (above `level`), placed now from pilot branches from `states`
    /// (see ``nextLevel(above:highest:)``) if no batch has got this far.
    mutating func rung(_ index: Int, above level: Int, states: [SplittingState], down: Int) -> Int {
        if index < ladder.count { return ladder[index] }
        var highest: [Int] = []
        for i in 0..<options.pilot {
            var b = branch(states[i % states.count])
            var pilot = LevelWatch(up: top, down: down)
            advance(&b, &pilot)
            highest.append(pilot.highest)
        }
        ladder.append(nextLevel(above: level, highest: highest))
        return ladder[index]
    }

    // MARK: - collapse

    mutating func collapse(_ progress: (String) -> Void) throws(Splitting.Failure) -> RareEstimate {
        try batched(progress) { (run, b, n) throws(Splitting.Failure) in try run.collapseBatch(b, n) }
    }

    /// Runs the first stage of `collapse` until `watch` stops at an entrance or its events are
    /// spent, starting a fresh replication after each collapse and at each horizon.
    mutating func firstStage(_ sim: inout Sim, _ watch: inout ExcursionWatch, _ replication: inout Int) {
        while true {
            advance(&sim, &watch)
            if watch.atEntrance || watch.spent { return }
            replication += 1
            sim = start(replication: replication)
            watch.restart()
        }
    }

    /// One batch of `collapse`, `n` branches per level; its first stage from replications
    /// `batch × 10^6` on of the healthy scenario.
    mutating func collapseBatch(_ batch: Int, _ n: Int) throws(Splitting.Failure) -> Batch {
        var replication = batch * 1_000_000
        var sim = start(replication: replication)
        let half = options.firstStageEvents / Int64(2 * options.batches)
        var watch = ExcursionWatch(top: top, events: half)
        let before = events
        firstStage(&sim, &watch, &replication)
        var firstHalf = Double(watch.countedTime) / 1e9
        var first = 0
        if let placed = ladder.first {
            first = placed
        } else {
            // The first level: the highest backlog at least n excursions reached in the first half.
            var reaching = 0
            for level in stride(from: top, through: 1, by: -1) {
                reaching += watch.maxima[level]
                if reaching >= n {
                    first = level
                    break
                }
            }
            if first == 0 {
                guard watch.excursions > 1 else {
                    throw Splitting.Failure(
                        description: "the server never emptied in its first \(half) events: it is overloaded from the start (see retrystorm explain)")
                }
                first = 1
            }
            ladder = [first]
        }
        // Collect the first level's entrances in the second half.
        watch.resetCounts(events: half)
        watch.entry = first
        var states: [SplittingState] = []
        while first < top {
            firstStage(&sim, &watch, &replication)
            guard watch.atEntrance else { break }
            var exact = StreamCopies(branch: nil)
            states.append(SplittingState(Sim(copying: sim, &exact)))
            if states.count >= n { break }
            sim.recorder.forgetSuccessTimes()
        }
        if first == top { firstStage(&sim, &watch, &replication) }
        plainEvents += events - before
        plainUnits += firstHalf + Double(watch.countedTime) / 1e9
        firstHalf = 0
        // Per excursion from empty: its mean length (the regenerative cycle) and the chance it
        // enters the first level (at the threshold itself: collapses), then the chance of
        // climbing on from there. The mean time to collapse is cycle / chance (Wald).
        let excursions = Double(Swift.max(1, watch.excursions))
        let cycle = Double(watch.countedTime) / 1e9 / excursions
        var levels = [RareEstimate.Level(backlog: first, branches: watch.excursions, reached: watch.entrances)]
        var probability = Double(watch.entrances) / excursions
        let method = first == top ? "plain Monte Carlo: collapses counted from an empty server" : collapseMethod
        guard first < top, !states.isEmpty else {
            return Batch(
                probability: probability, scale: cycle, levels: levels, method: method, base: cycle,
                bound: probability > 0 ? 0 : 3 / excursions)
        }
        var level = first
        while level < top {
            guard levels.count < options.maxLevels else {
                throw Splitting.Failure(
                    description: "more than \(options.maxLevels) levels below backlog \(top); the event is too rare to split this finely")
            }
            let next = rung(levels.count, above: level, states: states, down: 0)
            var reached: [SplittingState] = []
            for i in 0..<n {
                var b = branch(states[i % states.count])
                var w = LevelWatch(up: next, down: 0)
                advance(&b, &w)
                if w.reachedUp { reached.append(SplittingState(b)) }
            }
            levels.append(RareEstimate.Level(backlog: next, branches: n, reached: reached.count))
            guard !reached.isEmpty else {
                // This batch's estimate of the probability is 0; the rule of three bounds it.
                return Batch(
                    probability: 0, scale: cycle, levels: levels, method: method, base: cycle, bound: probability * 3 / Double(n))
            }
            probability *= Double(reached.count) / Double(n)
            states = reached
            level = next
        }
        return Batch(probability: probability, scale: cycle, levels: levels, method: method, base: cycle)
    }

    var collapseMethod: String { "fixed-effort multilevel splitting on the backlog, from an empty server (regenerative)" }

    // MARK: - stuck

    /// Runs `sim` to the horizon and returns its result.
    mutating func finished(_ sim: inout Sim, replication: Int) -> ReplicationResult {
        var unwatched = Unwatched()
        advance(&sim, &unwatched)
        sim.finish()
        return sim.result(scenario, replication: replication)
    }

    /// Runs `sim` to the horizon: 1 when ``verdict`` holds there (the replication is stuck), else 0.
    mutating func judge(_ sim: inout Sim, replication: Int) -> Double {
        verdict(finished(&sim, replication: replication)) ? 1 : 0
    }

    /// Runs `sim` to the first event at or after `time` and returns the backlog then.
    mutating func backlog(_ sim: inout Sim, at time: Int64) -> Int {
        var w = TimeWatch(at: time)
        advance(&sim, &w)
        return w.backlog
    }

    /// The checkpoints through the trigger: 16, evenly from its start to its end plus one timeout
    /// (the retries of the attempts it timed out), nanoseconds.
    var checkpoints: [Int64] {
        guard let trigger = scenario.trigger else { return [] }
        let start = trigger.start
        let end = Swift.min(scenario.horizon - 1, Time.adding(Swift.max(trigger.start, trigger.end), scenario.clients.timeout ?? 0))
        return (1...16).map { start + (end - start) * Int64($0) / 16 }
    }

    mutating func stuck(_ progress: (String) -> Void) throws(Splitting.Failure) -> RareEstimate {
        let count = options.batches
        let n = options.effort / count
        // Choose the tilt: rounds of `pilot` particles at β = j/σ, σ the spread of the backlog's
        // change through the trigger at β = 0, until a quarter of the final particles are stuck.
        var replication = 1_000_000
        let pilot = Swift.max(20, options.pilot)
        let before = events
        let plain = smc(particles: pilot, beta: 0, firstReplication: replication)
        plainEvents += events - before
        plainUnits += Double(pilot)
        replication += pilot
        let sigma = Swift.max(1, plain.spread)
        var beta = 0.0
        var chosen = plain
        for j in 1...8 where chosen.stuckShare < 0.25 {
            beta = Double(j) / sigma
            chosen = smc(particles: pilot, beta: beta, firstReplication: replication)
            replication += pilot
        }
        progress(String(format: "tilt β = %.4g per request (%d/σ, σ = %.1f requests)", beta, Int((beta * sigma).rounded()), sigma))
        var results: [Batch] = []
        for b in 0..<count {
            let run = smc(particles: n, beta: beta, firstReplication: b * n)
            progress("batch \(b + 1) of \(count): \(run.estimate)")
            results.append(
                Batch(
                    probability: run.estimate, scale: 1, levels: run.levels,
                    method: String(
                        format:
                            "sequential Monte Carlo (splitting in time): replications resampled at %d checkpoints through the trigger by exp(β·Δbacklog), β = %.4g per request",
                        checkpoints.count, beta),
                    base: plain.stuckShare, bound: run.estimate > 0 ? 0 : 3 / Double(n) * run.reachWeight))
        }
        return summarise(results, progress)
    }

    /// One sequential Monte Carlo estimate of P(stuck): `particles` replications from t = 0,
    /// resampled at each checkpoint in proportion to exp(β × the change in their backlog since the
    /// last), then run to the horizon. Unbiased for any β: the selection's weights telescope along
    /// each particle's line to exp(β(h_last − h_first)), which the estimate divides out, times the
    /// product of the checkpoints' mean weights (del Moral's Feynman–Kac estimator).
    mutating func smc(particles n: Int, beta: Double, firstReplication: Int) -> SMCRun {
        guard let triggerStart = scenario.trigger?.start else { return SMCRun(estimate: 0, stuckShare: 0, spread: 0, levels: [], reachWeight: 1) }
        var sims: [SplittingState] = []
        var first: [Int] = []
        var last: [Int] = []
        for r in firstReplication..<(firstReplication + n) {
            var sim = start(replication: r)
            let h = backlog(&sim, at: triggerStart)
            sims.append(SplittingState(sim))
            first.append(h)
            last.append(h)
        }
        var logNormaliser = 0.0
        var levels: [RareEstimate.Level] = []
        var resampler = RandomStream(seed: SeedDerivation.seed(scenario: scenario.seed, replication: firstReplication, stream: 0x5A18))
        let points = checkpoints
        for (k, t) in points.enumerated() {
            var weights: [Double] = []
            var now: [Int] = []
            for i in 0..<n {
                let h = backlog(&sims[i].sim, at: t)
                now.append(h)
                weights.append(beta * Double(h - last[i]))
            }
            // Log-sum-exp: β·Δbacklog may run to hundreds.
            let top = weights.max() ?? 0
            let g = weights.map { exp($0 - top) }
            let total = g.reduce(0, +)
            logNormaliser += top + log(total / Double(n))
            last = now
            levels.append(RareEstimate.Level(backlog: now.reduce(0, +) / Swift.max(1, n), branches: n, reached: n, time: Double(t) / 1e9))
            guard beta > 0, k < points.count - 1 else { continue }
            // Systematic resampling: n evenly spaced points through the cumulative weights.
            let u = resampler.uniform()
            var picks: [Int] = []
            var cumulative = 0.0
            var i = 0
            for j in 0..<n {
                let point = (Double(j) + u) / Double(n) * total
                while i < n - 1 && cumulative + g[i] <= point {
                    cumulative += g[i]
                    i += 1
                }
                picks.append(i)
            }
            levels[levels.count - 1] = RareEstimate.Level(
                backlog: levels[levels.count - 1].backlog, branches: n, reached: Set(picks).count, time: Double(t) / 1e9)
            sims = picks.map { SplittingState(branch(sims[$0])) }
            first = picks.map { first[$0] }
            last = picks.map { last[$0] }
        }
        var sum = 0.0
        var stuck = 0
        var changes: [Double] = []
        for i in 0..<n {
            changes.append(Double(last[i] - first[i]))
            guard judge(&sims[i].sim, replication: firstReplication + i) == 1 else { continue }
            stuck += 1
            sum += exp(logNormaliser - beta * Double(last[i] - first[i]))
        }
        let mean = changes.reduce(0, +) / Double(n)
        let spread = (changes.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(Swift.max(1, n - 1))).squareRoot()
        // The rule of three's bound needs the weight of a stuck particle: the smallest line's.
        let lightest = (0..<n).map { exp(logNormaliser - beta * Double(last[$0] - first[$0])) }.min() ?? 1
        return SMCRun(estimate: sum / Double(n), stuckShare: Double(stuck) / Double(n), spread: spread, levels: levels, reachWeight: lightest)
    }

    /// One ``smc(particles:beta:firstReplication:)`` estimate.
    struct SMCRun {
        let estimate: Double
        /// The share of the final particles stuck (tilted: not the probability).
        let stuckShare: Double
        /// The standard deviation of the backlog's change through the trigger, requests.
        let spread: Double
        let levels: [RareEstimate.Level]
        /// The weight a stuck particle would have had at least, for the rule of three.
        let reachWeight: Double
    }
}

extension Splitting {
    /// The check that a copy of the engine's state is whole: replication `replication` of
    /// `scenario` (one hop, queue model) is stopped where its backlog first reaches `backlog`
    /// (requests waiting or in service), copied, and both run on to the horizon. An exact copy
    /// (`branch` nil) must give the original's result, field for field; a branch (`branch` a seed)
    /// draws a future of its own. Nil when the backlog is never reached.
    package static func continued(
        _ scenario: Scenario, replication: Int, stoppedAt backlog: Int, branch: UInt64?
    ) -> (original: ReplicationResult, copy: ReplicationResult)? {
        let run = SplittingRun(scenario: scenario, event: .stuck, options: SplittingOptions())
        var original = run.start(replication: replication)
        var watch = LevelWatch(up: backlog, down: -1)
        original.resume(watch: &watch)
        guard watch.reachedUp else { return nil }
        // The copy starts with no times to success (``Recorder/init(copying:)``): the original
        // forgets its own here, so that both report the same successes, those after the copy.
        original.recorder.forgetSuccessTimes()
        var streams = StreamCopies(branch: branch)
        var copy = SplittingRun.Sim(copying: original, &streams)
        var unwatched = Unwatched()
        original.resume(watch: &unwatched)
        copy.resume(watch: &unwatched)
        original.finish()
        copy.finish()
        return (original.result(scenario, replication: replication), copy.result(scenario, replication: replication))
    }
}

extension Splitting {
    /// `stuck`'s sequential Monte Carlo, tilt and batches for another event judged at the
    /// horizon: the probability that a replication of `scenario` (a one-hop `queue` server with a
    /// trigger and a timeout) ends with `verdict` true. The estimator is unbiased whatever the
    /// event; this checks it against events whose probability is known exactly, far rarer than
    /// plain replications can see (SplittingTests).
    package static func tilted(
        _ scenario: Scenario, options: SplittingOptions, verdict: @escaping (ReplicationResult) -> Bool
    ) throws(Failure) -> RareEstimate {
        var run = SplittingRun(scenario: scenario, event: .stuck, options: options)
        run.verdict = verdict
        return try run.stuck { _ in }
    }
}

extension Splitting {
    /// Plain Monte Carlo of `collapse`, to set beside splitting where both can run: replications
    /// of the healthy scenario from `replication` on, each from an empty server until it collapses
    /// (a collapse sustained by retries may never end, so each starts afresh) or its horizon, until
    /// `events` events have been handled. Returns the simulated seconds and the collapses: their
    /// mean time is seconds / collapses (a run cut off by its horizon adds its time, no collapse).
    package static func plainCollapse(_ scenario: Scenario, replication: Int, events: Int64) -> (seconds: Double, collapses: Int) {
        var run = SplittingRun(scenario: RareEvent.healthy(scenario), event: .collapse, options: SplittingOptions())
        var seconds = 0.0
        var collapses = 0
        var r = replication
        while run.events < events {
            var sim = run.start(replication: r)
            var watch = LevelWatch(up: run.top, down: -1)
            run.advance(&sim, &watch)
            seconds += Double(sim.progress.clock) / 1e9
            if watch.reachedUp { collapses += 1 }
            r += 1
        }
        return (seconds, collapses)
    }
}
