import RetryStormEngine
import RetryStormResults
import RetryStormVocabulary
import SVGCharts

/// What the chart builders share: the run, the variants drawn and their per-variant scenario,
/// and the wording of subtitles.
struct ChartContext {
    /// Lines in one plot at most, as many as the charts over time have panels: the palette's eight
    /// colours, each used twice with different dash patterns (``Palette/dash(at:of:)``), keep
    /// sixteen lines apart. The rest are left out, and the subtitle says so.
    static let maxVariants = 16
    /// Panels of the charts over time at most (a 4 × 4 grid; a 12-variant comparison shows all).
    static let maxPanels = 16
    /// Categories of a dot plot at most (labels turn to fit; beyond this they no longer do).
    static let maxCategories = 24
    /// Buckets drawn per series at most; longer series are merged (≈ one bucket per pixel).
    static let maxBuckets = 900

    let run: RunDirectory
    /// The scenario's name, the subject of every title.
    let name: String
    /// Variants drawn, in file order, averaged over replications and merged to `maxBuckets`.
    let series: [VariantTimeSeries]
    /// Buckets merged into one (1: none).
    let mergeFactor: Int
    /// The original bucket width, seconds.
    let bucketSeconds: Double

    init(run: RunDirectory) {
        self.run = run
        name = run.scenario.base.name
        let drawn = Array(run.timeSeries.prefix(Self.maxPanels))
        let merged = drawn.map { $0.merged(maxBuckets: Self.maxBuckets) }
        series = merged.map(\.series)
        mergeFactor = merged.map(\.factor).max() ?? 1
        bucketSeconds = run.timeSeries.first?.bucketSeconds ?? 1
    }

    /// Whether there are several variants (panels or one line each rather than one chart).
    var isComparison: Bool { run.timeSeries.count > 1 }

    /// The scenario a variant ran (``RunDirectory/scenario(for:)``).
    func scenario(for variant: String) -> Scenario { run.scenario(for: variant) }

    /// The trigger window and recovery marker of one variant, from the unmerged series: fully
    /// labelled on a single chart; on panels the recovery marker reads "+72 s" and the window is
    /// labelled only when the panels' windows differ (else ``panelLegend`` describes it once).
    func incident(_ variant: String) -> [Annotation] {
        guard let original = run.timeSeries.first(where: { $0.variant == variant }) else { return [] }
        let recovery = run.metrics.interval(variant, .recovery)?.mean ?? .nan
        let wording: IncidentMarks.Wording = isComparison ? .compact(windowLabel: sharedWindow == nil) : .full
        return IncidentMarks.annotations(original, scenario: scenario(for: variant), recovery: recovery, wording: wording)
    }

    /// The trigger window of each drawn variant, in drawing order.
    var windows: [IncidentMarks.Window?] {
        run.timeSeries.prefix(Self.maxPanels).map { IncidentMarks.window($0, scenario: scenario(for: $0.variant)) }
    }

    /// The trigger windows when every drawn variant has the same ones (nil when they differ or there are none).
    var sharedWindows: [IncidentMarks.Window]? {
        let all = run.timeSeries.prefix(Self.maxPanels).map { IncidentMarks.windows($0, scenario: scenario(for: $0.variant)) }
        guard let first = all.first, !first.isEmpty, all.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    /// The first trigger window when every drawn variant has the same windows.
    var sharedWindow: IncidentMarks.Window? { sharedWindows?.first }

    /// What set the drawn variants' incident off, for captions and legends.
    var trigger: IncidentTrigger { IncidentTrigger(windows) }

    /// What the marks on panels mean, for the subtitle: "shaded: capacity 10% 10–20 s · dashed:
    /// recovery, s after the drop" (after the spike began, for a load spike).
    var panelLegend: String {
        var parts: [String] = []
        if let windows = sharedWindows { parts.append("shaded: \(windows.map(IncidentMarks.label).joined(separator: ", "))") }
        // Without a trigger there is no recovery to mark (it is nan).
        if windows.contains(where: { $0 != nil }) { parts.append(trigger.recoveryLegend) }
        return parts.joined(separator: " · ")
    }

    /// "10,000 clients · mean of 2 replications · 1s buckets", plus how many variants are shown
    /// and how buckets were merged; `lead` goes first.
    func timeSubtitle(_ lead: String) -> String {
        var parts = [lead]
        // Panels show how many variants there are; say so only when some are left out.
        if run.timeSeries.count > Self.maxPanels { parts.append(variantCount(shown: Self.maxPanels)) }
        if let clients = clientsText { parts.append(clients) }
        parts.append(replicationsText(run.timeSeries.map(\.replications)))
        let width = NumberFormat.duration(bucketSeconds * Double(mergeFactor))
        parts.append(mergeFactor > 1 ? "\(width) buckets (merged from \(NumberFormat.duration(bucketSeconds)))" : "\(width) buckets")
        return parts.filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// "3 variants", or "first 9 of 36 variants" when only `shown` are drawn.
    func variantCount(shown: Int) -> String {
        let total = run.timeSeries.count
        return total > shown ? "first \(shown) of \(total) variants" : "\(total) variants"
    }

    /// "10,000 clients" when every variant has the same number, else nil.
    var clientsText: String? {
        let counts = run.results.summaries.map(\.clients)
        guard let first = counts.first, counts.allSatisfy({ $0 == first }), first >= 0 else { return nil }
        return "\(Format.grouped(Int64(first))) clients"
    }

    /// "mean of 2 replications" or "1 replication" (or a range when variants differ).
    func replicationsText(_ counts: [Int]) -> String {
        guard let low = counts.min(), let high = counts.max() else { return "" }
        if high <= 1 { return "1 replication" }
        return low == high ? "mean of \(high) replications" : "mean of \(low)–\(high) replications"
    }

    /// A line chart of `series(variant)` over time with the incident marked: one chart for a
    /// single variant, else one panel per variant on shared axes; `extra` annotations (a limit)
    /// go on every chart or panel.
    func overTime(
        title: String, subtitle: String, yAxis: Axis, extra: [Annotation] = [],
        series: (VariantTimeSeries) -> [Series]
    ) -> any Chart {
        if !isComparison, let only = self.series.first {
            return LineChart(
                title: title, subtitle: subtitle, xAxis: timeAxis, yAxis: yAxis,
                series: series(only), annotations: incident(only.variant) + extra)
        }
        let panels = self.series.map {
            SmallMultiples.Panel(title: $0.variant, series: series($0), annotations: incident($0.variant) + extra)
        }
        return SmallMultiples(title: title, subtitle: subtitle, xAxis: timeAxis, yAxis: yAxis, panels: panels)
    }

    /// Whether the positive finite `values` span at least `factor` (largest over smallest): then a
    /// log axis shows them all, where a linear one would crush the small ones against zero.
    static func spansDecade(_ values: [Double], factor: Double = 10) -> Bool {
        let positive = values.filter { $0 > 0 && $0.isFinite }
        guard let low = positive.min(), let high = positive.max() else { return false }
        return high >= factor * low
    }

    /// `text` with its first letter upper-case, to open a sentence.
    static func sentenceCase(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// The variants whose time-to-success quantiles are drawn (at most ``maxVariants``).
    var quantiles: [VariantQuantiles] { Array(run.quantiles.prefix(Self.maxVariants)) }

    /// A quantile line's name: the variant, with its lost share in a comparison (where its curve
    /// levels off, said in words).
    func quantileSeriesName(_ q: VariantQuantiles) -> String {
        isComparison ? "\(q.variant) (\(lostText(q.variant)))" : q.variant
    }

    /// "12.6% lost": the share of `variant`'s operations that did not succeed (gave up, blocked or
    /// unfinished: ``Metric/lostFraction``), the mean over replications.
    func lostText(_ variant: String) -> String {
        guard let share = lostShare(variant) else { return "lost: n/a" }
        return "\(ColumnFormat(metric: .lostFraction, table: run.metrics).text(share)) lost"
    }

    /// The mean share of `variant`'s operations that did not succeed, nil when unknown.
    func lostShare(_ variant: String) -> Double? {
        guard let share = run.metrics.interval(variant, .lostFraction)?.mean, share.isFinite else { return nil }
        return min(1, max(0, share))
    }

    /// `q`'s levels among successes as levels among every operation (the survival view of
    /// `tts_p99_s`): a level f of the successes is f · (1 − lost share) of all operations, so the
    /// curve stops at the share that succeeded and never reaches the levels of the lost ones.
    func levelsOfAll(_ q: VariantQuantiles) -> [Double] {
        let succeeded = 1 - (lostShare(q.variant) ?? 0)
        return q.levels.map { $0 * succeeded }
    }

    /// The subtitle of the quantile charts (distribution and tail): every operation counts, the
    /// lost share of a single variant, how many are drawn, the replications averaged.
    var quantileSubtitle: String {
        let drawn = quantiles
        var parts = ["every operation: a lost one never succeeds"]
        if !isComparison, let only = drawn.first { parts.append(lostText(only.variant)) }
        if run.quantiles.count > Self.maxVariants { parts.append(variantCount(shown: Self.maxVariants)) }
        parts.append(replicationsText(drawn.map(\.replications)).replacingOccurrences(of: "mean of", with: "quantiles averaged over"))
        if drawn.isEmpty { parts.append("no operation succeeded") }
        return parts.joined(separator: " · ")
    }

    /// The mean over replications of one column (`replications[r]`: its values per bucket), merged as
    /// the drawn series were (``VariantTimeSeries/merged(_:factor:counts:)``) into `buckets` buckets
    /// of `bucketSeconds`: a count per second, a level (`counts` false) as it is. A bucket a
    /// replication lacks counts as 0, as a series of fewer buckets ends early.
    func meanPerSecond(_ replications: [[Double]], counts: Bool, buckets: Int, bucketSeconds: Double) -> [Double] {
        let merged = replications.map { VariantTimeSeries.merged($0, factor: max(1, mergeFactor), counts: counts) }
        return (0..<buckets).map { m in
            let sums = merged.map { m < $0.count ? $0[m] : 0 }
            let mean = sums.isEmpty ? 0 : sums.reduce(0, +) / Double(sums.count)
            return counts ? mean / bucketSeconds : mean
        }
    }

    /// "Offered load vs capacity — quickstart".
    func title(_ subject: String) -> String { "\(subject) — \(name)" }

    /// Fixed colours by meaning (Okabe–Ito), the same in every chart.
    enum Colors {
        static let capacity = Palette.okabeIto[7]  // black: the limit
        static let offered = Palette.okabeIto[4]  // vermillion: the load that hurts
        static let goodput = Palette.okabeIto[2]  // bluish green: work done for someone
        static let firstAttempts = Palette.okabeIto[0]
        static let retries = Palette.okabeIto[4]
        static let timedOut = Palette.okabeIto[1]  // orange
        static let rejected = Palette.okabeIto[6]  // olive: refused unserved (503/429)
        static let failed = Palette.okabeIto[7]  // black: another error response
        static let offline = Palette.okabeIto[6]  // olive, dashed: never left the client
        static let gaveUp = Palette.okabeIto[4]
        static let queue = Palette.okabeIto[0]
        static let blocked = Palette.okabeIto[0]  // blue
        static let expired = Palette.okabeIto[2]  // bluish green
        static let budgetDenied = Palette.okabeIto[3]  // reddish purple
        static let heldBack = Palette.okabeIto[5]  // sky blue
    }

    /// Seconds from 0 to the end of the last bucket drawn (the horizon), not a rounder number
    /// past it: space after the horizon would read as "nothing happened".
    var timeAxis: Axis {
        let end = series.compactMap { s in s.times.last.map { $0 + s.bucketSeconds } }.max()
        return Axis(label: "time (s)", min: 0, max: end)
    }

    /// A y axis from 0 to a round number at least 10% above the largest of `values`, so the
    /// labels along the top of the plot (trigger window, recovery) sit above the data.
    static func headroomAxis(_ label: String, values: [[Double]]) -> Axis {
        let top = values.joined().filter(\.isFinite).max() ?? 0
        return Axis(label: label, max: top > 0 ? roundUp(top * 1.1) : nil, includesZero: true)
    }

    /// The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 (× a power of ten) that is ≥ `x` > 0.
    static func roundUp(_ x: Double) -> Double {
        var decade = 1.0
        while decade > x { decade /= 10 }
        while decade * 10 <= x { decade *= 10 }
        for m in [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10] where m * decade >= x { return m * decade }
        return 10 * decade
    }

    /// Bucket values as a staircase of points, for an area series (areas join points with
    /// straight lines): each value holds over its bucket `[t, t + width)`.
    static func staircase(x: [Double], y: [Double], width: Double) -> [DataPoint] {
        var points: [DataPoint] = []
        points.reserveCapacity(2 * x.count)
        for (t, v) in zip(x, y) {
            points.append(DataPoint(x: t, y: v))
            points.append(DataPoint(x: t + width, y: v))
        }
        return points
    }
}
