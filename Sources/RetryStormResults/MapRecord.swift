import GSLSupport

/// One row of map.csv, which `retrystorm map` writes beside a sweep's files: one grid point, how
/// many of its replications ran and were stuck at the horizon (``Metric/stuck``), P(stuck) with
/// its 95% Wilson interval, and the median recovery.
///
/// Everything in it is computed from summary.csv's rows (the `stuck` and `recovery_s` columns),
/// so `retrystorm report` draws the same map from the files alone.
public struct MapRecord: Sendable, Equatable {
    /// The swept keys' values, as sweep.csv writes them.
    public var parameters: [String]
    /// Replications run at the point (more near the boundary: `retrystorm map`).
    public var replications: Int
    /// Replications stuck at the horizon.
    public var stuck: Int
    /// P(stuck): `stuck` over the replications judged (those whose run was long enough after its
    /// trigger), with the 95% Wilson interval; NaN when none was judged.
    public var pStuck: Double
    /// The lower end of P(stuck)'s 95% Wilson interval (NaN when none was judged).
    public var pStuckLow: Double
    /// The upper end of P(stuck)'s 95% Wilson interval (NaN when none was judged).
    public var pStuckHigh: Double
    /// The median of `recovery_s` over the replications, seconds: `inf` when at least half never
    /// recovered, NaN without a trigger.
    public var recoveryP50: Double

    /// The columns after the swept keys'.
    package static let columns = ["replications", "stuck", "p_stuck", "p_stuck_low", "p_stuck_high", "recovery_p50_s"]

    /// The map of `table`'s points, in its order.
    package static func records(_ table: MetricTable) -> [MapRecord] {
        table.names.indices.map { p in
            let name = table.names[p]
            let stuck = table.cell(name, .stuck)
            let values = stuck?.values ?? []
            let ci = stuck?.interval ?? Metric.stuck.interval95([])
            return MapRecord(
                parameters: table.parameters[p], replications: values.count, stuck: values.filter { $0 >= 0.5 }.count,
                pStuck: ci.mean, pStuckLow: ci.low, pStuckHigh: ci.high,
                recoveryP50: median(table.cell(name, .recovery)?.values ?? []))
        }
    }

    /// The median of `values` with NaNs left out (NaN when none is left); +∞ sorts last, and a
    /// middle pair with +∞ in it is +∞.
    package static func median(_ values: [Double]) -> Double {
        let xs = values.filter { !$0.isNaN }.sorted()
        guard !xs.isEmpty else { return .nan }
        let m = xs.count / 2
        if xs.count % 2 == 1 { return xs[m] }
        return xs[m - 1].isInfinite || xs[m].isInfinite ? .infinity : (xs[m - 1] + xs[m]) / 2
    }

    /// map.csv of `records`, whose swept keys are `paths`.
    package static func csv(_ records: [MapRecord], paths: [String]) -> String {
        var table = CSVTable(columns: paths + columns)
        let six = ValueFormat.fixed(6)
        for r in records {
            table.append(
                r.parameters + [
                    String(r.replications), String(r.stuck), six.text(r.pStuck), six.text(r.pStuckLow), six.text(r.pStuckHigh),
                    six.text(r.recoveryP50)
                ])
        }
        return table.contents
    }
}

extension StudyResults {
    /// Whether `retrystorm map` made these results (command.txt's first word): they then hold
    /// map.csv, and the report draws the map.
    package var isMap: Bool { command?.arguments.first == "map" }
}
