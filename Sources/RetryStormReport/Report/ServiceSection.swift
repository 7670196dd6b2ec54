import GSLSupport
import RetryStormResults

/// The report's call-graph section (`id="call-graph"`): which layer amplifies. A sentence per point
/// naming the service whose requests grow most over the calls its callers made to it
/// (``ServiceAmplification``), then a table of every service's requests per user operation and
/// growth. Nothing for a run without services.csv (one hop).
///
/// The sentence claims a layer amplifies only when its growth is clearly above 1, and names one
/// layer as the one that grows most only when it is clearly above every other — by the paired 95%
/// interval over replications and by the run's ``MinimumDifference``, the rule behind every
/// "clearly" of the report; with one replication by the minimum alone, and the lead says that
/// nothing is told from noise. It ranks services within a point, never points against each other:
/// fewer requests downstream can come from giving up sooner, so a comparison states each point's
/// lost share beside it.
enum ServiceSection {
    static let id = "call-graph"

    /// At most this many points of a sweep or a tune get a sentence, the first in the report's
    /// order (their many points are in the table); every variant of a compare gets one.
    static let pointsSaid = 6

    static func html(_ d: ReportData) -> String {
        let records = d.run.results.services
        guard !records.isEmpty else { return "" }
        let points = d.order.map { d.names[$0] }
        let amplification = ServiceAmplification(records, points: points, scenario: { d.run.scenario(for: $0) })
        guard !amplification.rows.isEmpty else { return "" }
        let formats = Formats(amplification.rows)
        var out = "<section id=\"\(id)\">\n" + HTML.element("h3", "Call graph: which layer amplifies") + "\n"
        let lead =
            "Requests each service received per user operation (services.csv's requests_per_operation), and that over what its callers' requests call it with (each caller's requests per user operation times its calls per request; for the first service, the user operations themselves): 1× adds nothing, 3× triples the load below. "
            + (d.replications > 1
                ? "Mean over \(d.replications) replications and its 95% confidence interval; a layer is named only where paired differences tell it from the others."
                : "One replication: no intervals, so no layer can be told from another by more than noise (run with --replications 3 or more).")
        out += HTML.element("p", lead, class: "note") + "\n"
        let said = d.run.results.kind == .compare ? points.count : min(points.count, pointsSaid)
        if said < points.count {
            out +=
                HTML.element(
                    "p", "The first \(said) of the \(points.count) points in the report's order; every point is in the table.", class: "note") + "\n"
        }
        for (i, point) in points.prefix(said).enumerated() {
            let share = d.lost[d.order[i]]
            let lost = d.names.count > 1 && share.mean.isFinite ? d.lostFormat.quote(share) : nil
            let own = amplification.rows(point)
            if let s = sentence(own, point: d.names.count > 1 ? point : nil, lost: lost, minimum: d.table.minimumDifference, formats: formats) {
                out += HTML.element("p", s) + "\n"
            }
        }
        out += table(amplification.rows, formats, several: d.names.count > 1, kind: d.run.results.kind).html
        return out + "</section>\n"
    }

    /// The formats of the two figures over every row, so a value prints the same in the sentences and the table.
    struct Formats {
        let perOperation: ColumnFormat
        /// A ratio in "×", as peak load's.
        let growth: ColumnFormat

        init(_ rows: [ServiceAmplification.Row]) {
            perOperation = ColumnFormat(metric: .requestsPerOperation, values: rows.map(\.perOperationInterval))
            growth = ColumnFormat(metric: .peakLoadRatio, values: rows.map(\.growthInterval))
        }
    }

    /// Where `rows` (one point's services) multiply the requests most, in one sentence (nil when no
    /// service has a growth). `point` leads it when the report has several, with `lost` (the
    /// point's lost share, quoted) after it.
    ///
    /// "In every-layer, which lost 0.52% (±0.10) of its user operations, the requests multiply most
    /// at db: it receives 5.4 (±0.3) requests per user operation, 3.0× (±0.2) what backend receives."
    /// Services the largest growth is not clearly above share the claim when they add requests too
    /// (a mean above 1); those that do not, but whose interval reaches it, are named as too noisy to rank.
    static func sentence(
        _ rows: [ServiceAmplification.Row], point: String?, lost: String?, minimum: MinimumDifference, formats: Formats
    ) -> String? {
        let candidates = rows.filter { $0.growthInterval.mean.isFinite }
        guard let top = candidates.max(by: { $0.growthInterval.mean < $1.growthInterval.mean }) else { return nil }
        let lead = point.map { p in "In \(p)\(lost.map { ", which lost \($0) of its user operations" } ?? ""), " } ?? ""
        guard adds(top, minimum: minimum) else {
            return Findings.capitalized(
                lead
                    + "no service receives clearly more requests than the calls its callers made: the largest growth is \(top.service)'s, \(growth(top, formats))."
            )
        }
        let close = candidates.filter { $0.service != top.service && !clearlyAbove(top, $0, minimum: minimum) }
        let tied = [top] + close.filter { $0.growthInterval.mean > 1 }
        let noisy = close.filter { $0.growthInterval.mean <= 1 }
        var sentence = lead + "the requests multiply most at "
        if tied.count == 1 {
            sentence += "\(top.service): it receives \(describe(top, formats))"
        } else {
            let who = ReportData.list(tied.map(\.service)).replacingOccurrences(of: " and ", with: " or ")
            sentence += "\(who), their difference within noise or too small to matter: "
            sentence += tied.map { "\($0.service) receives \(describe($0, formats))" }.joined(separator: "; ")
        }
        if !noisy.isEmpty {
            let growths = noisy.map { "\($0.service) at \(formats.growth.text($0.growthInterval.mean)) \(spread($0.growthInterval, formats.growth))" }
            sentence += "; too noisy to rank: \(ReportData.list(growths))"
        }
        return Findings.capitalized(sentence + ".")
    }

    /// Whether `row`'s growth is clearly above 1: by more than the minimum that matters and, with
    /// replications, with its whole 95% interval above 1.
    static func adds(_ row: ServiceAmplification.Row, minimum: MinimumDifference) -> Bool {
        let g = row.growthInterval
        return minimum.matters(g.mean - 1, between: g.mean, and: 1, metric: .requestsPerOperation) && (g.count >= 2 ? g.low > 1 : g.mean > 1)
    }

    /// Whether `a`'s growth is clearly above `b`'s: by more than the minimum that matters and, with
    /// replications, by a paired interval above 0 (common random numbers pair replication r of
    /// both services; their growths share its arrivals).
    static func clearlyAbove(_ a: ServiceAmplification.Row, _ b: ServiceAmplification.Row, minimum: MinimumDifference) -> Bool {
        let x = a.growthInterval.mean
        let y = b.growthInterval.mean
        guard minimum.matters(x - y, between: x, and: y, metric: .requestsPerOperation), x > y else { return false }
        guard a.replications.count >= 2 else { return true }
        return PairedDifference(a.growth, replications: a.replications, minus: b.growth, replications: b.replications).clearlyAbove
    }

    /// "5.4 (±0.3) requests per user operation, 3.0× (±0.2) what backend receives".
    static func describe(_ row: ServiceAmplification.Row, _ formats: Formats) -> String {
        let p = row.perOperationInterval
        let interval = spread(p, formats.perOperation)
        return "\(formats.perOperation.number(p.mean))\(interval.isEmpty ? "" : " " + interval) requests per user operation, \(growth(row, formats))"
    }

    /// "3.0× (±0.2) what backend receives".
    static func growth(_ row: ServiceAmplification.Row, _ formats: Formats) -> String {
        let g = row.growthInterval
        let interval = spread(g, formats.growth)
        return formats.growth.text(g.mean) + (interval.isEmpty ? "" : " " + interval) + " " + sent(row)
    }

    /// "(±0.2)", "[0, 1.5]" where the range cut it, "" with one replication.
    static func spread(_ ci: ConfidenceInterval, _ format: ColumnFormat) -> String {
        format.spread(ci).map { $0.hasPrefix("[") ? $0 : "(\($0))" } ?? ""
    }

    /// What the growth is over, after "3.0×": "the user operations (the clients' retries)", "the
    /// calls backend made", "the calls its callers made (2 per api request)".
    static func sent(_ row: ServiceAmplification.Row) -> String {
        if row.callers.isEmpty { return "the user operations (the clients' retries)" }
        if row.callers.count == 1, row.callers[0].count == 1 { return "the calls \(row.callers[0].name) made" }
        return "the calls its callers made (\(row.callers.map { "\($0.count) per \($0.name) request" }.joined(separator: ", ")))"
    }

    /// The point (when there are several), the service, its requests per user operation and its growth.
    static func table(_ rows: [ServiceAmplification.Row], _ formats: Formats, several: Bool, kind: StudyKind) -> ReportTable {
        var header: [ReportTable.Header] = several ? [.init(kind == .compare ? "variant" : "point")] : []
        header += [
            .init("service"), .init("requests per user operation", unit: formats.perOperation.unitSymbol),
            .init("per call its callers made", unit: formats.growth.unitSymbol)
        ]
        var table = ReportTable(header: header, labelColumns: several ? 2 : 1)
        for r in rows {
            var row: [ReportTable.Cell] = several ? [.text(r.point)] : []
            row += [.text(r.service), .value(r.perOperationInterval, formats.perOperation), .value(r.growthInterval, formats.growth)]
            table.rows.append(row)
        }
        return table
    }
}
