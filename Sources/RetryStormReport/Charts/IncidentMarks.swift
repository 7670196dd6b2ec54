import RetryStormEngine
import RetryStormResults
import SVGCharts

/// The incident on a time chart: each trigger window shaded ("capacity 20% 60–90 s", "load ×2
/// 10–20 s", "errors 30% (503) 60–90 s") and a marker at the recovery time ("recovered +72 s").
///
/// The windows are the scenario's ``TriggerWindow``s, read from its data — capacity below nominal
/// (a replayed file's ramps and plateaus, an outage with its ramp back), the load above its base,
/// the server's error window —
/// the same spans the engine's incident metrics and recovery use. They come from the scenario's
/// profiles when the capacity profile reproduces the
/// time series' `capacity_per_s` column; scenario.yaml is the file as given, without `--set`
/// overrides, so when they disagree the window is read from the column instead (the buckets at
/// the lowest capacity), which is right to a bucket.
package enum IncidentMarks {
    /// The lowest-capacity window: from and to in seconds, capacity there as a fraction of nominal.
    package struct Window: Equatable {
        package var from: Double
        package var to: Double
        package var fraction: Double
        /// Where `recovery_s` is measured from: the start of the capacity drop or of the load spike.
        package var disturbedAt: Double
        /// For a load spike instead of a capacity drop: the peak multiplier of the arrival rate.
        package var load: Double? = nil
        /// A capacity drop with a load spike besides (both are shaded; this window is the drop's):
        /// the incident, and `recovery_s`, start with the earlier of the two.
        package var spikeToo = false
        /// Capacity stays at `fraction` throughout (false: it ramps, so `fraction` is its lowest).
        package var level = true
        /// For the server's error window instead of a capacity drop: its error mix.
        package var errors: Scenario.ErrorMix? = nil
        /// The run has an error window and a trigger of another kind (a drop or a spike): the
        /// incident starts with the earliest, and the words name none alone.
        package var errorsToo = false
        /// In a call graph, the service whose capacity drop or error window this is, when it is not
        /// the first service (the one the clients call, which the words call "the server"); nil otherwise.
        package var service: String? = nil

        package init(
            from: Double, to: Double, fraction: Double, disturbedAt: Double, load: Double? = nil, spikeToo: Bool = false,
            level: Bool = true, errors: Scenario.ErrorMix? = nil, errorsToo: Bool = false, service: String? = nil
        ) {
            self.from = from
            self.to = to
            self.fraction = fraction
            self.disturbedAt = disturbedAt
            self.load = load
            self.spikeToo = spikeToo
            self.level = level
            self.errors = errors
            self.errorsToo = errorsToo
            self.service = service
        }
    }

    /// How much the marks say: a whole chart has room for "capacity 20% 60–90 s" and
    /// "recovered +72 s"; a small panel gets "+72 s" and a window label only when `windowLabel`.
    package enum Wording: Equatable {
        case full
        case compact(windowLabel: Bool)
    }

    /// Windows shaded one by one at most; more (a run of dips) are shaded as one span per kind.
    static let maxShaded = 12

    /// Annotations for one variant: each trigger window and the recovery marker (when `recovery`
    /// seconds is finite and positive).
    package static func annotations(
        _ series: VariantTimeSeries, scenario: Scenario, recovery: Double,
        wording: Wording = .full
    ) -> [Annotation] {
        var marks: [Annotation] = []
        let windows = self.windows(series, scenario: scenario)
        for window in windows {
            let text = wording == .compact(windowLabel: false) ? "" : label(window)
            marks.append(.xInterval(from: window.from, to: window.to, label: text))
        }
        if recovery.isFinite, recovery > 0 {
            let start = windows.first?.disturbedAt ?? 0
            let seconds = "+\(HumanNumber(.decimals(1), trimsTrailingZeros: true).format(recovery)) s"
            marks.append(.xMarker(at: start + recovery, label: wording == .full ? "recovered \(seconds)" : seconds))
        }
        return marks
    }

    /// "capacity 20% 60–90 s", "capacity down to 40% 90–245 s" when it ramps, "server down
    /// 60–90 s" at zero capacity, "load ×2 10–20 s" for the load above its base, "errors 30% (503)
    /// 60–90 s" for the error window (its shares together, and what they answer). A window of a
    /// call graph's service behind the first is prefixed with its name ("db capacity 20% 60–90 s",
    /// "db down 60–90 s"): the clients' server was not the one that failed.
    package static func label(_ w: Window) -> String {
        // The one rule for numbers people read (HumanNumber), as in the tables.
        let number = HumanNumber(.decimals(2), trimsTrailingZeros: true)
        let span = "\(number.format(w.from))–\(number.format(w.to)) s"
        let who = w.service.map { $0 + " " } ?? ""
        if let load = w.load { return "load ×\(number.format(load)) \(span)" }
        if let errors = w.errors { return "\(who)errors \(NumberFormat.percent(errors.total)) (\(answers(errors))) \(span)" }
        if w.fraction <= 0 { return w.level ? "\(w.service ?? "server") down \(span)" : "\(who)capacity down to 0% \(span)" }
        return "\(who)capacity \(w.level ? "" : "down to ")\(NumberFormat.percent(w.fraction)) \(span)"
    }

    /// What an error mix answers, in the order of its shares: "503", "400, 500", "500, lost".
    static func answers(_ errors: Scenario.ErrorMix) -> String {
        [(errors.permanent, "400"), (errors.serverError, "\(errors.serverErrorStatus.code)"), (errors.ambiguous, "lost")]
            .filter { $0.0 > 0 }.map(\.1).joined(separator: ", ")
    }

    /// The first window: capacity's when it drops, else the load's, else the error window's (nil: no trigger).
    package static func window(_ series: VariantTimeSeries, scenario: Scenario) -> Window? {
        windows(series, scenario: scenario).first
    }

    /// Every trigger window, capacity's first, then the load's, then the error window, each kind in time order
    /// (in a call graph, the first service's, then each other service's in the scenario's order): the scenario's
    /// ``TriggerWindow``s when its profile reproduces `capacity_per_s`, else the column's lowest
    /// buckets. Beyond ``maxShaded`` windows, one span per kind from its first window's start to
    /// its last one's end.
    package static func windows(_ series: VariantTimeSeries, scenario: Scenario) -> [Window] {
        guard matches(series, scenario: scenario) else { return windowFromColumn(series).map { [$0] } ?? [] }
        guard let trigger = scenario.trigger else { return [] }
        // One more than drawn of each kind: beyond, a kind is drawn as its envelope, found
        // without listing a replay's every dip.
        // The first service's server is `scenario.server`; the services behind it have their own.
        let behind = scenario.services.dropFirst().map { ($0.name as String?, $0.server) }
        var capacity: [(String?, TriggerWindow)] = []
        var errors: [(String?, TriggerWindow)] = []
        for (service, server) in [(nil, scenario.server)] + behind {
            var own = TriggerWindow.capacity(server.profile, limit: maxShaded + 1)
            if own.count > maxShaded { own = TriggerWindow.capacityEnvelope(server.profile).map { [$0] } ?? [] }
            capacity += own.map { (service, $0) }
            errors += TriggerWindow.errors(server).map { (service, $0) }
        }
        var load = TriggerWindow.load(scenario.load, limit: maxShaded + 1)
        if load.count > maxShaded, let elevated = scenario.load.elevated {
            load = [TriggerWindow(kind: .load(peak: scenario.load.peak), start: elevated.start, end: elevated.end)]
        }
        let horizon = Double(scenario.horizon) / 1e9
        let disturbedAt = Double(trigger.start) / 1e9
        let both = !capacity.isEmpty && !load.isEmpty
        let errorsToo = !errors.isEmpty && !(capacity.isEmpty && load.isEmpty)
        let out: [Window] = (capacity + load.map { (nil, $0) } + errors).map { service, t in
            let from = Double(t.start) / 1e9
            let to = t.end == .max ? horizon : min(horizon, Double(t.end) / 1e9)
            switch t.kind {
            case .capacity(let lowest, let level):
                return Window(
                    from: from, to: to, fraction: lowest, disturbedAt: disturbedAt, spikeToo: both, level: level, errorsToo: errorsToo,
                    service: service)
            case .load(let peak):
                return Window(from: from, to: to, fraction: 1, disturbedAt: disturbedAt, load: peak, spikeToo: both, errorsToo: errorsToo)
            case .errors(let mix):
                return Window(
                    from: from, to: to, fraction: 1, disturbedAt: disturbedAt, spikeToo: both, errors: mix, errorsToo: errorsToo,
                    service: service)
            }
        }
        return out.filter { $0.to > $0.from }
    }

    /// Whether the scenario's profile gives the bucket means of `capacity_per_s`, to the 3
    /// decimals written (the simulator's own formula: nominal × ∫ fraction over the bucket).
    package static func matches(_ series: VariantTimeSeries, scenario: Scenario) -> Bool {
        let capacity = series.mean(.capacityPerSecond)
        let nominal = scenario.server.capacity
        // Times beyond Int64 nanoseconds cannot come from the simulator (and would trap below).
        guard series.bucketSeconds < 9e9, (series.times.last ?? 0) < 9e9 else { return false }
        let width = Int64((series.bucketSeconds * 1e9).rounded())
        for (i, t) in series.times.enumerated() {
            let a = Int64((t * 1e9).rounded())
            let e = min(a + width, scenario.horizon)
            let expected = e > a ? nominal * scenario.server.profile.integral(from: a, to: e) / (Double(e - a) / 1e9) : nominal
            if abs(expected - capacity[i]) > 0.001 + 1e-9 * nominal { return false }
        }
        return true
    }

    /// The buckets at the lowest capacity, when it is below the highest (or zero throughout).
    package static func windowFromColumn(_ series: VariantTimeSeries) -> Window? {
        let capacity = series.mean(.capacityPerSecond)
        guard let high = capacity.max(), let low = capacity.min(), let start = series.times.first,
            let end = series.times.last.map({ $0 + series.bucketSeconds })
        else { return nil }
        // A server down for the whole run has no "before" to compare with.
        if high == 0 { return Window(from: start, to: end, fraction: 0, disturbedAt: start) }
        guard low < high * 0.999 else { return nil }
        let tolerance = 0.001 * high
        guard let first = capacity.firstIndex(where: { $0 <= low + tolerance }),
            let last = capacity.lastIndex(where: { $0 <= low + tolerance }),
            let dropped = capacity.firstIndex(where: { $0 < high - tolerance })
        else { return nil }
        return Window(
            from: series.times[first], to: series.times[last] + series.bucketSeconds, fraction: low / high,
            disturbedAt: series.times[dropped])
    }
}
