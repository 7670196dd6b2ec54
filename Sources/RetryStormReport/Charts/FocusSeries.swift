import RetryStormResults

/// One drawn variant's time series at the focus of a call graph (``FocusService``), from
/// timeseries_services.csv: means over replications per second (levels as they are), merged as
/// the variant's own series are (``ChartContext/meanPerSecond(_:counts:buckets:bucketSeconds:)``),
/// so they line up with its `times`.
struct FocusSeries {
    /// The focus's name.
    var service: String
    var offered: [Double]
    var served: [Double]
    var capacity: [Double]
    var queueLength: [Double]

    /// The focus's series of every drawn variant, by name (empty without a focus).
    static func byVariant(_ context: ChartContext) -> [String: FocusSeries] {
        var out: [String: FocusSeries] = [:]
        for v in context.series { out[v.variant] = FocusSeries(context, v) }
        return out
    }

    /// The focus's series for drawn variant `v` (nil without a focus or without its rows).
    init?(_ context: ChartContext, _ v: VariantTimeSeries) {
        guard let focus = context.run.metrics.focus else { return nil }
        let own = context.run.results.serviceSeries.filter { $0.variant == v.variant && $0.service == focus.name }
        guard !own.isEmpty else { return nil }
        func mean(_ c: TimeSeriesColumn) -> [Double] {
            context.meanPerSecond(own.compactMap { $0.column(c) }, counts: c.isCount, buckets: v.times.count, bucketSeconds: v.bucketSeconds)
        }
        service = focus.name
        offered = mean(.offered)
        served = mean(.served)
        capacity = mean(.capacityPerSecond)
        queueLength = mean(.queueLength)
    }
}
