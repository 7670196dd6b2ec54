import RetryStormEngine
import RetryStormResults
import SVGCharts

/// The incident on a time chart: the trigger window shaded ("capacity 20% 60–90 s") and a
/// marker at the recovery time ("recovered +72 s").
///
/// The window comes from the scenario's capacity profile when that profile reproduces the
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
        /// A capacity drop with a load spike besides (the window shaded is the drop's): the
        /// incident, and `recovery_s`, start with the earlier of the two.
        package var spikeToo = false

        package init(from: Double, to: Double, fraction: Double, disturbedAt: Double, load: Double? = nil, spikeToo: Bool = false) {
            self.from = from
            self.to = to
            self.fraction = fraction
            self.disturbedAt = disturbedAt
            self.load = load
            self.spikeToo = spikeToo
        }
    }

    /// How much the marks say: a whole chart has room for "capacity 20% 60–90 s" and
    /// "recovered +72 s"; a small panel gets "+72 s" and a window label only when `windowLabel`.
    package enum Wording: Equatable {
        case full
        case compact(windowLabel: Bool)
    }

    /// Annotations for one variant: the window (when capacity drops) and the recovery marker
    /// (when `recovery` seconds is finite and positive).
    package static func annotations(
        _ series: VariantTimeSeries, scenario: Scenario, recovery: Double,
        wording: Wording = .full
    ) -> [Annotation] {
        var marks: [Annotation] = []
        let window = self.window(series, scenario: scenario)
        if let window {
            let text = wording == .compact(windowLabel: false) ? "" : label(window)
            marks.append(.xInterval(from: window.from, to: window.to, label: text))
        }
        if recovery.isFinite, recovery > 0 {
            let start = window?.disturbedAt ?? 0
            let seconds = "+\(HumanNumber(.decimals(1), trimsTrailingZeros: true).format(recovery)) s"
            marks.append(.xMarker(at: start + recovery, label: wording == .full ? "recovered \(seconds)" : seconds))
        }
        return marks
    }

    /// "capacity 20% 60–90 s", or "server down 60–90 s" at zero capacity.
    package static func label(_ w: Window) -> String {
        // The one rule for numbers people read (HumanNumber), as in the tables.
        let number = HumanNumber(.decimals(2), trimsTrailingZeros: true)
        let span = "\(number.format(w.from))–\(number.format(w.to)) s"
        if let load = w.load { return "load ×\(number.format(load)) \(span)" }
        if w.fraction <= 0 { return "server down \(span)" }
        return "capacity \(NumberFormat.percent(w.fraction)) \(span)"
    }

    package static func window(_ series: VariantTimeSeries, scenario: Scenario) -> Window? {
        if matches(series, scenario: scenario) {
            let profile = scenario.server.profile
            guard let first = profile.segments.first else { return loadWindow(scenario) }
            let lowest = first.shape == .constant ? first.from : min(first.from, first.to)
            // The engine's incident starts with the earlier trigger (Scenario.trigger).
            let spike = scenario.load.elevated
            return Window(
                from: Double(first.start) / 1e9, to: Double(first.end) / 1e9, fraction: lowest,
                disturbedAt: Double(min(first.start, spike?.start ?? .max)) / 1e9, spikeToo: spike != nil)
        }
        return windowFromColumn(series)
    }

    /// The window of a load spike (the arrival rate above its base) when capacity does not drop.
    package static func loadWindow(_ scenario: Scenario) -> Window? {
        guard let spike = scenario.load.elevated else { return nil }
        let end = Double(min(spike.end, scenario.horizon)) / 1e9
        return Window(
            from: Double(spike.start) / 1e9, to: end, fraction: 1, disturbedAt: Double(spike.start) / 1e9,
            load: scenario.load.peak)
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
