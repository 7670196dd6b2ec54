import RetryStormResults
import RetryStormVocabulary
import SVGCharts

/// "Load by service": one panel per service of a call graph, in the scenario's order, from
/// timeseries_services.csv (mean over replications, per second). For a single variant each panel
/// is ``LoadChart`` for that service: the requests reaching it (offered), those it served, and its
/// capacity. For several variants each panel has one offered line per variant and the capacity
/// (one line when every variant has the same, else one per variant): served lines beside them
/// would double the lines to tell apart. Only for call graphs.
///
/// Every value is over the service's nominal capacity (`server.capacity`, named in the panel's
/// title): the panels share one axis, and in requests per second a 2,000/s front service's
/// capacity line flattened a 250/s database's overload to a few pixels. Over nominal capacity,
/// 1 is where each service saturates, as `peak_load_ratio` counts it.
///
/// Every panel shades every trigger window of the graph (``IncidentMarks``, which names a window of
/// a service behind the first: "db capacity 20% 60–90 s"), so a panel shows what its service did
/// while another one failed.
enum ServiceLoadChart {
    static let fileName = "load_services.svg"

    static func caption(_ trigger: IncidentTrigger) -> String {
        "Where the storm lands: each service's requests against its capacity. A service whose offered load climbs above its capacity \(trigger.during) is where retries pile up; one whose load stays flat is shielded by the layers above it."
    }

    /// One service's means per second for one variant.
    struct Load {
        var offered: [Double]
        var served: [Double]
        var capacity: [Double]
    }

    static func build(_ context: ChartContext) -> NamedChart? {
        let records = context.run.results.serviceSeries
        guard !records.isEmpty else { return nil }
        var names: [String] = []
        for r in records where !names.contains(r.service) { names.append(r.service) }
        // loads[v][s]: drawn variant v, service s, merged as the other charts are.
        let loads = context.series.map { v in
            names.map { name -> Load in
                let own = records.filter { $0.variant == v.variant && $0.service == name }
                let nominal = nominalCapacity(context, variant: v.variant, service: name)
                func mean(_ c: TimeSeriesColumn) -> [Double] {
                    context.meanPerSecond(
                        own.compactMap { $0.column(c) }, counts: c.isCount, buckets: v.times.count, bucketSeconds: v.bucketSeconds
                    ).map { nominal > 0 ? $0 / nominal : .nan }
                }
                return Load(offered: mean(.offered), served: mean(.served), capacity: mean(.capacityPerSecond))
            }
        }
        let yAxis = ChartContext.headroomAxis(
            "requests per second ÷ the service's capacity", values: loads.flatMap { $0.flatMap { [$0.offered, $0.served, $0.capacity] } })
        let panels: [SmallMultiples.Panel]
        let lead: String
        if !context.isComparison, let only = context.series.first, let own = loads.first {
            let marks = shading(context, variants: [only.variant], recovery: true)
            panels = zip(names, own).map { name, load in
                SmallMultiples.Panel(
                    title: title(context, name), series: series(load, times: only.times, width: only.bucketSeconds), annotations: marks)
            }
            lead = context.panelLegend
        } else {
            let marks = shading(context, variants: context.series.map(\.variant), recovery: false)
            panels = names.indices.map { s in
                SmallMultiples.Panel(title: title(context, names[s]), series: comparisonSeries(context, loads.map { $0[s] }), annotations: marks)
            }
            let windows = context.sharedWindows.map { "shaded: " + $0.map(IncidentMarks.label).joined(separator: ", ") }
            lead = ["one offered line per variant", windows ?? "shaded: every variant's trigger windows"].joined(separator: " · ")
        }
        let chart = SmallMultiples(
            title: context.title("Load by service"), subtitle: context.timeSubtitle(lead), xAxis: context.timeAxis, yAxis: yAxis,
            panels: panels)
        return NamedChart(fileName: fileName, chart: chart, caption: caption(context.trigger))
    }

    /// The nominal capacity of `service` in `variant`'s scenario, requests per second (0: unknown).
    static func nominalCapacity(_ context: ChartContext, variant: String, service: String) -> Double {
        context.scenario(for: variant).services.first { $0.name == service }?.server.capacity ?? 0
    }

    /// "db (capacity 250/s)", or a range when the drawn variants differ ("db (capacity 40–80/s)").
    static func title(_ context: ChartContext, _ service: String) -> String {
        let capacities = context.series.map { nominalCapacity(context, variant: $0.variant, service: service) }.filter { $0 > 0 }
        guard let low = capacities.min(), let high = capacities.max() else { return service }
        let human = HumanNumber(.decimals(1), trimsTrailingZeros: true)
        // "2,000/s" as the tables group counts; a fractional capacity keeps its decimal.
        func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? Format.grouped(x) : human.format(x) }
        let range = low == high ? number(low) : "\(number(low))–\(number(high))"
        return "\(service) (capacity \(range)/s)"
    }

    /// A single variant's panel, styled as ``LoadChart/series(_:)``: served as a filled staircase
    /// first (so an offered line equal to it shows on top), then capacity, then offered.
    static func series(_ load: Load, times: [Double], width: Double) -> [Series] {
        [
            Series(
                name: "served", points: ChartContext.staircase(x: times, y: load.served, width: width), style: .area,
                color: ChartContext.Colors.goodput),
            Series(name: "capacity", x: times, y: load.capacity, style: .step, color: ChartContext.Colors.capacity),
            Series(name: "offered load (requests reaching the service)", x: times, y: load.offered, style: .step, color: ChartContext.Colors.offered)
        ]
    }

    /// A comparison's panel for one service: the capacity, black when every variant has the same,
    /// else dashed in each variant's colour, then each variant's offered load in its colour.
    static func comparisonSeries(_ context: ChartContext, _ loads: [Load]) -> [Series] {
        let variants = context.series
        // Capacity first: past four series the renderer dashes by position, and the limit stays solid.
        var out: [Series]
        if let first = loads.first, let times = variants.first, loads.allSatisfy({ $0.capacity == first.capacity }) {
            out = [Series(name: "capacity", x: times.times, y: first.capacity, style: .step, color: ChartContext.Colors.capacity)]
        } else {
            out = zip(variants, loads).enumerated().map { i, p in
                Series(
                    name: "capacity (\(p.0.variant))", points: ChartContext.staircase(x: p.0.times, y: p.1.capacity, width: p.0.bucketSeconds),
                    style: .dashed, color: Palette.color(at: i))
            }
        }
        return out
            + zip(variants, loads).enumerated().map { i, p in
                Series(name: p.0.variant, x: p.0.times, y: p.1.offered, style: .step, color: Palette.color(at: i))
            }
    }

    /// The trigger windows of `variants`, each shaded once and unlabelled (the subtitle names
    /// them), with the recovery marker ("+72 s") when `recovery` (one variant: its lines are the
    /// only ones in the panel).
    static func shading(_ context: ChartContext, variants: [String], recovery: Bool) -> [Annotation] {
        var marks: [Annotation] = []
        for variant in variants {
            guard let original = context.run.timeSeries.first(where: { $0.variant == variant }) else { continue }
            let seconds = recovery ? context.run.metrics.interval(variant, .recovery)?.mean ?? .nan : .nan
            let own = IncidentMarks.annotations(
                original, scenario: context.scenario(for: variant), recovery: seconds, wording: .compact(windowLabel: false))
            for mark in own where !marks.contains(mark) { marks.append(mark) }
        }
        return marks
    }
}
