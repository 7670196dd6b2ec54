import GSLSupport
import RetryStormResults
import SVGCharts

/// The report's findings: two to five sentences generated from the results, each quoting its
/// numbers with their 95% intervals, in the formats of the tables (``ReportData/format(_:)``).
///
/// For several points (compare, sweep), in this order:
/// 1. which keeps the spike lowest (peak load / capacity), against the baseline or, without one,
///    the next best, by the paired difference; in a call graph, at its focus (``FocusService``),
///    and which puts the fewest requests per user operation there;
/// 2. which finishes first (p99 time to success), likewise;
/// 3. what they cost in lost operations (gave up + blocked): who loses clearly more, against the
///    fewest, or that none does;
/// 4. where the median time to success does not separate the points (within noise).
/// Every superlative follows ``BestMarks``: only a marked point is crowned (never one that loses
/// clearly more operations, never one that another beats clearly, never one left best by
/// default), shared when the leaders are about the same, and without a mark the sentence says why.
/// A tune leads with its recommendation, its confirmation, the runner-up and the constraints; a
/// run describes its one configuration. With one replication nothing is crowned.
enum Findings {
    static func sentences(_ d: ReportData) -> [String] {
        if d.run.results.kind == .tune, let tune = d.run.results.tune, let rec = tune.recommendation, let objective = d.run.tuning?.objective {
            return tuneSentences(d, tune, rec, objective: objective.metric) + guards(d)
        }
        if d.names.count == 1 { return runSentences(d) + guards(d) }
        if d.replications < 2 { return oneReplication(d) + guards(d) }
        // A map's question is where it tips: that answer leads.
        if d.run.results.isMap {
            return [stuck(d), spike(d), finish(d), lost(d), median(d)].compactMap { $0 } + [coldStart(d), horizon(d)].compactMap { $0 }
                + guards(d)
        }
        return [spike(d), finish(d), lost(d), median(d)].compactMap { $0 } + incidentSentences(d) + guards(d)
    }

    // MARK: - Several points

    static func noun(_ d: ReportData) -> String { d.run.results.kind == .compare ? "variants" : "points" }

    /// The spike, like every column, follows ``BestMarks``: a point that loses clearly more
    /// operations sends fewer retries, so its low spike is no reason to choose it (the sentence on
    /// losses says what its spike cost).
    static func spike(_ d: ReportData) -> String? {
        let metric = Metric.peakLoadRatio
        guard d.interval(d.order[0], metric) != nil else { return nil }
        // A call graph's first service is rarely where its storm lands: its spike is judged at the focus.
        if let focus = d.table.focus, let table = d.table.services[focus.name] {
            let why = ", " + focus.why
            let spike = crown(
                d.judged(on: table), metric: metric, marks: BestMarks(table, metric: metric, among: d.order),
                verb: ("keeps the spike at \(focus.name) lowest", "keep the spike at \(focus.name) lowest"),
                what: "peak load at \(focus.name)", unit: " capacity")
            let load = crown(
                d.judged(on: table), metric: FocusService.load, marks: BestMarks(table, metric: FocusService.load, among: d.order),
                verb: ("puts the least load on \(focus.name)", "put the least load on \(focus.name)"),
                what: "requests per user operation at \(focus.name)", unit: "")
            return (["The focus is \(focus.name)\(why)."] + [spike, load].compactMap { $0 }).joined(separator: " ")
        }
        return crown(
            d, metric: metric, marks: BestMarks(d.table, metric: metric, among: d.order),
            verb: ("keeps the spike lowest", "keep the spike lowest"), what: "peak load", unit: " capacity")
    }

    static func finish(_ d: ReportData) -> String? {
        let metric = Metric.ttsP99
        guard d.interval(d.order[0], metric) != nil else { return nil }
        if let never = neverFinishes(d) { return never }
        return crown(
            d, metric: metric, marks: BestMarks(d.table, metric: metric, among: d.order),
            verb: ("finishes first", "finish first"), what: "p99 time to success", unit: "")
    }

    /// When p99 over every operation is never at every point (each lost more than 1%), nothing
    /// finishes first: the sentence says so, and quotes the p99 among successes only as what it is.
    static func neverFinishes(_ d: ReportData) -> String? {
        let means = d.order.compactMap { d.interval($0, .ttsP99)?.mean }
        guard !means.isEmpty, means.allSatisfy({ $0 == .infinity }) else { return nil }
        var s =
            "No \(noun(d).dropLast()) has a p99 time to success: each lost more than 1% of its operations, so its p99 over every operation is never"
        let success = d.order.compactMap { d.interval($0, .ttsSuccessP99)?.mean }.filter(\.isFinite)
        if let lo = success.min(), let hi = success.max() {
            let f = d.format(.ttsSuccessP99)
            let range = f.number(lo) == f.number(hi) ? f.text(lo) : "from \(f.text(lo)) to \(f.text(hi))"
            s += "; among successes alone it runs \(range), which leaves out what each lost"
        }
        return s + "."
    }

    /// The sentence for `metric` by `marks`, the superlative only where ``BestMarks`` marks: the
    /// leader against a point it is clearly ahead of (the baseline when it is one, else the
    /// closest), and the points about the same as it; the tied leaders; or, without a mark, why.
    static func crown(
        _ d: ReportData, metric: Metric, marks: BestMarks, verb: (one: String, many: String), what: String, unit: String
    ) -> String? {
        let f = d.format(metric)
        let names = d.names
        let sign: Double = f.metric.better == .higher ? -1 : 1
        func key(_ p: Int) -> Double {
            let m = d.interval(p, metric)?.mean ?? .nan
            return m.isNaN ? .infinity : sign * m
        }
        let byMean = d.order.sorted { (key($0), $0) < (key($1), $1) }
        func quote(_ p: Int) -> String { d.quote(p, metric, words: unit) }
        func values(_ ps: [Int]) -> String { ReportData.list(ps.prefix(3).map { "\(names[$0]) (\(f.text(d.interval($0, metric)?.mean ?? .nan)))" }) }
        let minimum = "under \(marks.minimum.words(for: metric))"
        switch marks.verdict {
        case .single:
            guard let leader = marks.marked.first else { return nil }
            var s = "\(names[leader]) \(verb.one): \(what) \(quote(leader))"
            // Against a finite value where there is one: "against never" says less than the closest time.
            func finite(_ p: Int) -> Bool { d.interval(p, metric)?.mean.isFinite ?? false }
            let reference =
                d.baseline.flatMap { b in names.firstIndex(of: b) }.flatMap { marks.behind.contains($0) && finite($0) ? $0 : nil }
                ?? byMean.first { marks.behind.contains($0) }
            if let r = reference, let diff = d.table.difference(names[leader], minus: names[r], metric), let other = d.interval(r, metric) {
                let who = names[r] == d.baseline ? "the baseline \(names[r])" : names[r]
                s += " against \(f.text(other.mean)) for \(who)"
                // Against never the difference is infinite: "against never" says all there is.
                if diff.interval.mean.isFinite { s += ", a paired difference of \(f.difference(diff.interval))" }
            }
            let same = byMean.filter { marks.aboutTheSame.contains($0) }
            if !same.isEmpty {
                s += "; about the same: \(values(same))\(same.count > 3 ? " and \(same.count - 3) more" : "")"
            }
            return s + "."
        case .shared:
            let tied = byMean.filter { marks.marked.contains($0) }
            // The unit's words once, after the last value: "1.41× (±0.09) and 1.50× (±0.05) capacity".
            var s =
                "\(ReportData.list(tied.map { names[$0] })) \(verb.many), about the same as each other: \(what) "
                + ReportData.list(tied.map { d.quote($0, metric) }) + unit
            // Two nevers differ by nothing a number says: "never and never" is the whole story.
            if tied.count == 2, let diff = d.table.difference(names[tied[1]], minus: names[tied[0]], metric),
                tied.allSatisfy({ d.interval($0, metric)?.mean.isFinite ?? false })
            {
                s += ", a paired difference of \(f.difference(diff.interval))"
            }
            return s + "."
        case .withheld:
            guard let lo = byMean.first, let hi = byMean.last else { return nil }
            let range =
                "from \(f.text(d.interval(lo, metric)?.mean ?? .nan)) (\(names[lo])) to \(f.text(d.interval(hi, metric)?.mean ?? .nan)) (\(names[hi]))\(unit)"
            switch marks.withheld {
            case .aheadLosesMore?, .aheadLoadsMore?:
                // The points that pass every test but the bars: what each is clearly ahead of.
                let ahead = byMean.filter(marks.barred.contains)
                let word = f.metric.better == .higher ? "higher" : "lower"
                let parts = ahead.prefix(3).map { p in
                    "\(names[p]) (\(f.text(d.interval(p, metric)?.mean ?? .nan))) is clearly \(word) than "
                        + BestMarks.list(marks.clearlyAhead[p] ?? [], names)
                }
                if marks.withheld == .aheadLoadsMore, let focus = marks.focus {
                    return "No \(noun(d).dropLast()) \(verb.one) without losing clearly more operations or putting clearly more load on \(focus): "
                        + "\(ReportData.list(parts)), with nothing clearly \(word) than \(ahead.count == 1 ? "it" : "them"), but "
                        + "\(ahead.count == 1 ? "it loses" : "they lose") clearly more operations or put\(ahead.count == 1 ? "s" : "") clearly more requests per user operation on \(focus)."
                }
                return "No \(noun(d).dropLast()) \(verb.one) without losing clearly more operations: \(ReportData.list(parts)), "
                    + "with nothing clearly \(word) than \(ahead.count == 1 ? "it" : "them"), but \(ahead.count == 1 ? "it loses" : "they lose") clearly more."
            case .noClearLeader?:
                return "No \(noun(d).dropLast()) is clearly ahead of every other on \(what): \(range)."
            case .aboutTheSame?, nil:
                let who = d.order.count <= 4 ? ReportData.list(d.order.map { names[$0] }) : "the \(d.order.count) \(noun(d))"
                return "The \(what) is about the same across \(who): \(range), every difference within noise or \(minimum)."
            }
        case .none:
            return nil
        }
    }

    static func lost(_ d: ReportData) -> String {
        let f = d.lostFormat
        let names = d.names
        let how = d.lostHow
        let byLost = d.order.sorted { (d.lost[$0].mean, $0) < (d.lost[$1].mean, $1) }
        func quote(_ p: Int) -> String { ReportData.quote(d.lost[p], f) }
        guard !d.losesMore.isEmpty else {
            guard let lo = byLost.first, let hi = byLost.last else { return "" }
            let range =
                f.number(d.lost[lo].mean) == f.number(d.lost[hi].mean)
                ? f.text(d.lost[lo].mean)
                : "between \(f.text(d.lost[lo].mean)) and \(f.text(d.lost[hi].mean))"
            return "No \(noun(d).dropLast()) loses clearly more operations than another: \(range) of operations \(how)."
        }
        let losers = d.order.filter { d.losesMore.contains($0) }
        let keepers = byLost.filter { !d.losesMore.contains($0) }
        var s: String
        if losers.count <= 4 {
            s =
                "\(ReportData.list(losers.map { names[$0] })) lose\(losers.count == 1 ? "s" : "") clearly more operations: "
                + "\(ReportData.list(losers.map(quote))) of operations \(how)"
        } else {
            let sorted = losers.sorted { d.lost[$0].mean < d.lost[$1].mean }
            s =
                "\(losers.count) of the \(names.count) \(noun(d)) lose clearly more operations: from \(f.text(d.lost[sorted[0]].mean)) "
                + "to \(f.text(d.lost[sorted[sorted.count - 1]].mean)) of operations \(how)"
        }
        if let best = keepers.first {
            let same = keepers.filter { f.number(d.lost[$0].mean) == f.number(d.lost[best].mean) }
            let who = same.count <= 3 ? ReportData.list(same.map { names[$0] }) : "\(same.count) \(noun(d))"
            s += ", against \(f.text(d.lost[best].mean)) for \(who)"
        }
        // A lower spike bought by giving up is not a better policy: say what it cost. In a call
        // graph the spike that matters is the focus's.
        let focus = d.table.focus.flatMap { f in d.table.services[f.name].map { (f.name, d.judged(on: $0)) } }
        let spikes = focus?.1 ?? d
        let peak = Metric.peakLoadRatio
        let keptPeak = keepers.compactMap { spikes.interval($0, peak)?.mean }.min() ?? .infinity
        let cheaper = losers.filter { (spikes.interval($0, peak)?.mean ?? .infinity) < keptPeak }
        if !cheaper.isEmpty, cheaper.count <= 3 {
            let g = spikes.format(peak)
            s +=
                "; the lower spike\(cheaper.count == 1 ? "" : "s")\(focus.map { " at \($0.0)" } ?? "") of \(ReportData.list(cheaper.map { "\(names[$0]) (\(g.text(spikes.interval($0, peak)?.mean ?? .nan)))" })) "
                + "come\(cheaper.count == 1 ? "s" : "") at that cost"
        }
        // And fewer losses bought with the focus's load are not a better policy either.
        if let (name, at) = focus, let best = keepers.first, d.table.loadingFocusClearlyMore(among: d.order).contains(best) {
            let g = at.format(FocusService.load)
            let lightest = d.order.min {
                (at.interval($0, FocusService.load)?.mean ?? .infinity) < (at.interval($1, FocusService.load)?.mean ?? .infinity)
            }
            s += "; but \(names[best]) puts clearly more requests per user operation on \(name), \(at.quote(best, FocusService.load))"
            if let l = lightest { s += " against \(g.text(at.interval(l, FocusService.load)?.mean ?? .nan)) for \(names[l])" }
        }
        return s + "."
    }

    /// Said only when the median separates nothing: every pair about the same.
    static func median(_ d: ReportData) -> String? {
        let metric = Metric.ttsP50
        guard d.interval(d.order[0], metric) != nil else { return nil }
        let marks = BestMarks(d.table, metric: metric, among: d.order)
        guard marks.verdict == .withheld, marks.withheld == .aboutTheSame else { return nil }
        let f = d.format(metric)
        let points = d.order
        if points.count == 2, let diff = d.table.difference(d.names[points[1]], minus: d.names[points[0]], metric),
            points.allSatisfy({ d.interval($0, metric)?.mean.isFinite ?? false })
        {
            return "The median time to success of \(d.names[points[0]]) and \(d.names[points[1]]) is about the same: "
                + "\(d.quote(points[0], metric)) and \(d.quote(points[1], metric)), a paired difference of \(f.difference(diff.interval))."
        }
        let means = points.compactMap { d.interval($0, metric)?.mean }
        let who = points.count <= 4 ? ReportData.list(points.map { d.names[$0] }) : "the \(points.count) \(noun(d))"
        return
            "The median time to success does not separate \(who): from \(f.text(means.min() ?? .nan)) to \(f.text(means.max() ?? .nan)), every difference within noise or too small to matter."
    }

    static func oneReplication(_ d: ReportData) -> [String] {
        var parts: [String] = []
        for (metric, what) in [(Metric.peakLoadRatio, "peak load"), (.ttsP99, "p99 time to success")] {
            let f = d.format(metric)
            let values = d.order.compactMap { p in d.interval(p, metric).map { (p, $0.mean) } }.filter { !$0.1.isNaN }
            guard let lo = values.min(by: { $0.1 < $1.1 }), let hi = values.max(by: { $0.1 < $1.1 }) else { continue }
            parts.append("\(what) from \(f.text(lo.1)) (\(d.names[lo.0])) to \(f.text(hi.1)) (\(d.names[hi.0]))")
        }
        let lost = d.order.map { (p: $0, x: d.lost[$0].mean) }.filter { !$0.x.isNaN }
        if let lo = lost.min(by: { $0.x < $1.x }), let hi = lost.max(by: { $0.x < $1.x }) {
            parts.append("lost operations from \(d.lostFormat.text(lo.x)) (\(d.names[lo.p])) to \(d.lostFormat.text(hi.x)) (\(d.names[hi.p]))")
        }
        var out = [
            "One replication per \(noun(d).dropLast()): no intervals, so no difference can be told from noise and nothing is marked best (run with --replications 3 or more)."
        ]
        if !parts.isEmpty { out.append(capitalized(parts.joined(separator: "; ")) + ".") }
        return out
    }

    // MARK: - One configuration

    static func runSentences(_ d: ReportData) -> [String] {
        var out: [String] = []
        if d.interval(0, .peakLoadRatio) != nil {
            var s = "Peak load reached \(d.quote(0, .peakLoadRatio, words: " capacity"))"
            if let o = d.interval(0, .peakOverload), o.mean.isFinite {
                s += ", \(d.quote(0, .peakOverload, words: " the capacity left at that moment"))"
            }
            // Beside the one busiest bucket, the incident's mean: how long the overload lasted.
            if let mean = d.interval(0, .incidentLoadRatio), mean.mean.isFinite {
                s += "; over the incident the offered load averaged \(d.quote(0, .incidentLoadRatio, words: " the capacity it had"))"
            }
            out.append(s + ".")
        }
        if d.interval(0, .ttsP50) != nil {
            // Survival view first ("never" past the share that succeeded), then the successes alone.
            out.append(
                "Counting every operation, time to success was \(d.quote(0, .ttsP50)) at the median and \(d.quote(0, .ttsP99)) at the 99th percentile"
                    + "; successful operations alone took \(d.quote(0, .ttsSuccessP50)) and \(d.quote(0, .ttsSuccessP99)).")
        }
        out.append(
            "\(capitalized(ReportData.quote(d.lost[0], d.lostFormat))) of operations \(d.lostHow)"
                + " (\(d.format(.operations).text(d.interval(0, .operations)?.mean ?? .nan)) operations).")
        if let recovery = recoverySentence(d) { out.append(recovery) }
        if d.replications < 2 {
            out.append("One replication: no intervals (run with --replications 3 or more to see the noise).")
        }
        return Array(out.prefix(5)) + incidentSentences(d)
    }

    // MARK: - Tune

    static func tuneSentences(_ d: ReportData, _ tune: TuneFile, _ rec: TuneFile.Recommendation, objective: Metric) -> [String] {
        let f = d.format(objective)
        let label = f.metric.label
        func interval(_ i: TuneFile.Interval) -> ConfidenceInterval {
            ConfidenceInterval(mean: i.mean, low: i.ci95_low, high: i.ci95_high, count: i.replications)
        }
        var out: [String] = []
        var s =
            rec.feasible
            ? "Recommended: \(TuneSection.setting(rec.point, d))"
            : "No evaluated point meets every constraint; the closest (total relative violation \(HumanNumber(.significant(3), trimsTrailingZeros: true).format(rec.violation))) is \(TuneSection.setting(rec.point, d))"
        s += ", with \(label) \(ReportData.quote(interval(rec.objective), f)) on the \(rec.objective.replications) replications that chose it"
        if let c = rec.confirmed {
            s += " and \(ReportData.quote(interval(c), f)) on \(c.replications) fresh ones"
        }
        out.append(s + ".")
        if let runner = tune.runners_up?.first {
            let diff = runner.difference_from_recommended
            let verdict = TuneSection.runnerUpVerdict(runner, rec, tune, d, objective: objective).phrase(
                minimum: d.table.minimumDifference, metric: objective)
            var r = "The runner-up \(runner.variant) differs by \(f.difference(interval(diff.interval))): \(verdict)"
            if let fresh = runner.confirmed_difference {
                r +=
                    (fresh.indistinguishable ? "; within noise on the fresh replications too: " : "; on the fresh replications: ")
                    + f.difference(interval(fresh.interval))
            }
            out.append(r + ".")
        }
        if !rec.constraints.isEmpty {
            let judged = rec.constraints.map { TuneSection.verdict($0, d) }
            let broken = judged.filter { $0.verdict == .notMet }.count
            let noisy = judged.filter { $0.verdict == .withinNoise }.count
            let fresh = rec.confirmed != nil
            let summary =
                broken > 0
                ? "breaks \(broken == 1 ? "a constraint" : "constraints")"
                : noisy > 0
                    ? "is within noise of \(noisy == 1 ? "a bound" : "bounds")"
                    : judged.allSatisfy(\.withConfidence) ? "meets every constraint with confidence" : "meets every constraint"
            out.append(
                "It \(summary)\(fresh ? " on the fresh replications" : ""): "
                    + ReportData.list(
                        judged.map { v in
                            let interval = v.interval.isEmpty ? "" : "; \(v.interval)"
                            return "\(v.label) \(v.value) (\(v.bound)\(interval)\(v.withConfidence ? ": " + v.verdict.rawValue : ""))"
                        })
                    + ".")
        }
        let extended = (tune.extensions ?? []).filter { !$0.added.isEmpty }
        let edges = (tune.extensions ?? []).filter { $0.still_on_edge != nil }
        if !extended.isEmpty || !edges.isEmpty {
            // A sentence opens with "The", not with a key's path (a capital would misspell it).
            var e =
                extended.isEmpty
                ? ""
                : "The grid was extended past its edge: "
                    + extended.map { "\($0.path) to \($0.added.joined(separator: ", "))" }.joined(separator: "; ")
            if edges.isEmpty {
                e += e.isEmpty ? "" : "; the recommendation lies inside the values evaluated"
            } else {
                e +=
                    (e.isEmpty ? "" : "; ") + "the recommendation still lies on the edge of "
                    + ReportData.list(edges.map { "\($0.path) (\($0.still_on_edge ?? ""))" }) + ": the optimum may lie beyond"
            }
            out.append(capitalized(e) + ".")
        }
        return Array(out.prefix(5))
    }

    static func capitalized(_ s: String) -> String {
        guard let first = s.first else { return s }
        return first.uppercased() + s.dropFirst()
    }
}
