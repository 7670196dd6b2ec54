/// The service a call graph's verdicts look at besides the users' outcomes: where the storm
/// lands. A study of a call graph has one focus, the same for every point, so that one column
/// compares like with like.
///
/// By default it is the service whose offered load over its capacity peaks highest
/// (services.csv's `peak_load_ratio`: the largest mean over the points, the first service in the
/// file's order on a tie); `focus:` in the scenario or `--focus NAME` chooses another.
public struct FocusService: Sendable, Equatable {
    /// How the focus was chosen.
    public enum Choice: Sendable, Equatable {
        /// The highest peak load over capacity (the default).
        case peakLoad
        /// Named by the scenario's `focus:` (or `--focus`).
        case named
    }

    /// The service's name, as declared under `services:`.
    public var name: String
    /// Whether it is the default (the highest peak) or the one `focus:` names.
    public var choice: Choice
    /// The highest mean peak load over capacity of the service among the points (×; NaN when no
    /// point has a value).
    public var peakLoad: Double
    /// The point whose mean peak load is ``peakLoad`` (an index into the table's names; nil when none).
    public var peakPoint: Int?

    /// Why this service, for a sentence: "where the storm lands" (its peak load reached its
    /// capacity), "the busiest service" (the highest peak, under capacity) or "as chosen".
    public var why: String {
        switch choice {
        case .named: "as chosen"
        case .peakLoad: peakLoad >= 1 ? "where the storm lands" : "the busiest service"
        }
    }

    /// The metric that says how much load a point puts on the focus: requests at the service per
    /// user operation. What ``MetricTable/loadsFocusClearlyMore(_:than:)`` compares, and the one
    /// column of the focus that is never barred by it.
    public static let load = Metric.requestsPerOperation

    /// The default focus among `services` (the names in services.csv's order, each with its
    /// table): the highest mean peak load over capacity at any point, the first on a tie; nil
    /// without services.
    static func peakLoad(_ services: [String], _ tables: [String: MetricTable]) -> FocusService? {
        var best: FocusService?
        for name in services {
            guard let table = tables[name] else { continue }
            let peak = table.highestMean(.peakLoadRatio)
            if best == nil || (peak.value > best!.peakLoad) || (best!.peakLoad.isNaN && !peak.value.isNaN) {
                best = FocusService(name: name, choice: .peakLoad, peakLoad: peak.value, peakPoint: peak.point)
            }
        }
        return best
    }

    /// `name` as the focus, with its highest peak load in `table` (its service's table).
    static func named(_ name: String, _ table: MetricTable) -> FocusService {
        let peak = table.highestMean(.peakLoadRatio)
        return FocusService(name: name, choice: .named, peakLoad: peak.value, peakPoint: peak.point)
    }
}

extension MetricTable {
    /// The largest mean of `metric` over the points and the point that has it (NaN and nil when
    /// no point has a value); the first point on a tie.
    func highestMean(_ metric: Metric) -> (value: Double, point: Int?) {
        var best: (value: Double, point: Int?) = (.nan, nil)
        for (p, name) in names.enumerated() {
            guard let m = interval(name, metric)?.mean, !m.isNaN else { continue }
            if best.point == nil || m > best.value { best = (m, p) }
        }
        return best
    }

    /// Makes `name` the focus (the scenario's `focus:`); nil or a name that is not one of
    /// ``serviceNames`` keeps the default. The load bar of every table (populations' and
    /// services' included) follows it.
    package mutating func focus(on name: String?) {
        guard let name, let table = services[name] else { return }
        setFocus(FocusService.named(name, table))
    }

    /// The focus's requests per user operation at point `p`, replication by replication.
    func focusLoad(_ p: Int) -> Cell? {
        guard let loads = focusLoads, p < loads.count else { return nil }
        return loads[p]
    }

    /// Whether point `a` puts clearly more load on the focus than point `b`: its requests per user
    /// operation at the focus (``FocusService/load``) are clearly above `b`'s, by the paired 95%
    /// interval and by more than the minimum difference. False without a focus.
    package func loadsFocusClearlyMore(_ a: Int, than b: Int) -> Bool {
        guard a != b, let x = focusLoad(a), let y = focusLoad(b) else { return false }
        let d = PairedDifference(x.values, replications: x.replications, minus: y.values, replications: y.replications)
        return Self.comparison(
            d, x.interval.mean, y.interval.mean, metric: FocusService.load, lowerIsBetter: true, minimum: minimumDifference)
            == .clearlyWorse
    }

    /// The points of `points` that put clearly more load on the focus than another of them.
    package func loadingFocusClearlyMore(among points: [Int]) -> Set<Int> {
        guard focus != nil else { return [] }
        return Set(points.filter { p in points.contains { loadsFocusClearlyMore(p, than: $0) } })
    }

    /// Whether `metric` of this table is the focus's load itself, which the load bar never bars
    /// (as the lost share is never barred for losing).
    package func isFocusLoad(_ metric: Metric) -> Bool {
        guard let focus else { return false }
        return service == focus.name && metric == FocusService.load
    }
}
