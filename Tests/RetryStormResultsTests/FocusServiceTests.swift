import GSLSupport
import RetryStormResults
import Testing

/// The focus of a call graph (issue 40): where the storm lands by default, and the rule that no
/// point is chosen for putting clearly more load on it. Hand-made tables whose verdicts follow
/// from the arithmetic of the paired intervals.
struct FocusServiceTests {
    /// A study of `names` over services `gateway` and `db`: each point's replications of the
    /// users' gave-up share and p99, and of each service's peak load and requests per operation.
    static func table(
        names: [String], gaveUp: [[Double]], p99: [[Double]], peak: [String: [[Double]]], requests: [String: [[Double]]]
    ) -> MetricTable {
        var summaries: [SummaryRecord] = []
        var services: [ServiceRecord] = []
        for (p, name) in names.enumerated() {
            for r in gaveUp[p].indices {
                var values = [Double](repeating: 0, count: SummaryRecord.metrics.count)
                values[SummaryRecord.metrics.firstIndex(of: .gaveUpFraction)!] = gaveUp[p][r]
                values[SummaryRecord.metrics.firstIndex(of: .ttsP99)!] = p99[p][r]
                values[SummaryRecord.metrics.firstIndex(of: .operations)!] = 1000
                summaries.append(SummaryRecord(variant: name, replication: r, seed: 1, clients: 1, values: values))
                for service in ["gateway", "db"] {
                    var row = [Double](repeating: 0, count: ServiceRecord.metrics.count)
                    row[ServiceRecord.metrics.firstIndex(of: .peakLoadRatio)!] = peak[service]![p][r]
                    row[ServiceRecord.metrics.firstIndex(of: .requestsPerOperation)!] = requests[service]![p][r]
                    services.append(ServiceRecord(variant: name, replication: r, service: service, values: row))
                }
            }
        }
        return MetricTable(
            names: names, parameters: names.map { _ in [] }, parameterPaths: [], summaries: summaries, services: services)
    }

    /// The SRE graph: `more-retries` doubles the requests per user operation at the
    /// database (18.1 against 9.2) and gives up 0.2 points less. The gateway sits at 0.014×, the
    /// database at 34×: the database is the focus.
    static let sre = table(
        names: ["as-shipped", "more-retries"],
        gaveUp: [[0.050, 0.052, 0.048], [0.048, 0.050, 0.046]],
        p99: [[2.0, 2.1, 1.9], [1.5, 1.6, 1.4]],
        peak: ["gateway": [[0.014, 0.014, 0.014], [0.014, 0.015, 0.014]], "db": [[30, 34, 32], [33, 35, 34]]],
        requests: ["gateway": [[1, 1, 1], [1, 1, 1]], "db": [[9.1, 9.2, 9.3], [18.0, 18.1, 18.2]]])

    @Test("the default focus is the service whose peak load over capacity is highest, at any point")
    func defaultFocus() throws {
        let focus = try #require(Self.sre.focus)
        #expect(focus.name == "db" && focus.choice == .peakLoad && focus.why == "where the storm lands")
        // more-retries' mean, (33 + 35 + 34) / 3 = 34, is the highest.
        #expect(abs(focus.peakLoad - 34) < 1e-12 && focus.peakPoint == 1)
        // Every table of the study holds the same focus.
        #expect(Self.sre.services["gateway"]?.focus == focus)
    }

    @Test("focus: names another service; an unknown name keeps the default; a one-hop table has none")
    func namedFocus() throws {
        var t = Self.sre
        t.focus(on: "gateway")
        #expect(t.focus?.name == "gateway" && t.focus?.choice == .named && t.focus?.peakPoint == 1 && t.focus?.why == "as chosen")
        var u = Self.sre
        u.focus(on: "nowhere")
        #expect(u.focus?.name == "db" && u.focus?.choice == .peakLoad)
        #expect(BestMarksTests.table([.ttsP99: [[1, 2], [3, 4]]]).focus == nil)
    }

    /// Giving up 0.2 points less (paired: exactly 0.002 in every replication) is clear by its
    /// interval and over the 0.1-point minimum, and so is a p99 0.5 s lower; but 18.1 against 9.2
    /// requests per operation (paired +8.9, far over 1%) bars more-retries from every mark but
    /// the database's requests itself, where it is clearly worse anyway.
    @Test("no mark goes to a point that puts clearly more requests per user operation on the focus")
    func loadBar() {
        let t = Self.sre
        #expect(t.loadsFocusClearlyMore(1, than: 0) && !t.loadsFocusClearlyMore(0, than: 1))
        #expect(t.loadingFocusClearlyMore(among: [0, 1]) == [1])
        #expect(t.compare(1, 0, on: .gaveUpFraction) == .clearlyBetter)
        let gaveUp = BestMarks(t, metric: .gaveUpFraction, among: [0, 1])
        #expect(gaveUp.loadsMore == [1] && gaveUp.barred == [1] && gaveUp.marked.isEmpty)
        #expect(gaveUp.verdict == .withheld && gaveUp.withheld == .aheadLoadsMore)
        #expect(gaveUp.notes(names: t.names).contains("not for more-retries, which puts clearly more requests per user operation on db"))
        let p99 = BestMarks(t, metric: .ttsP99, among: [0, 1])
        #expect(p99.marked.isEmpty && p99.withheld == .aheadLoadsMore)
        // The database's own requests column is the bar's metric, never barred by it: as-shipped
        // is clearly lower there, but it gives up 0.2 points more, so the losses bar it (a
        // service's columns read the users' losses) and the column is a trade-off with no mark.
        let db = t.services["db"]!
        #expect(db.isFocusLoad(.requestsPerOperation) && !db.isFocusLoad(.peakLoadRatio))
        let own = BestMarks(db, metric: .requestsPerOperation, among: [0, 1])
        #expect(own.loadsMore.isEmpty && own.losesMore == [0] && own.barred == [0] && own.withheld == .aheadLosesMore)
    }

    /// The hedging experiment's case: no service reaches its capacity, so the focus is the
    /// busiest one, not "where the storm lands".
    @Test("under capacity everywhere, the focus is the busiest service")
    func busiest() {
        let t = Self.table(
            names: ["a", "b"], gaveUp: [[0, 0], [0, 0]], p99: [[1, 1], [1, 1]],
            peak: ["gateway": [[0.02, 0.02], [0.02, 0.02]], "db": [[0.3, 0.4], [0.2, 0.2]]],
            requests: ["gateway": [[1, 1], [1, 1]], "db": [[1, 1], [1, 1]]])
        #expect(t.focus?.name == "db" && t.focus?.why == "the busiest service" && t.focus?.peakPoint == 0)
    }

    /// A difference in load that is real but under 1% (9.20 against 9.25: 0.5%) is not "clearly more".
    @Test("a focus load within the minimum difference bars nothing")
    func loadWithinMinimum() {
        let t = Self.table(
            names: ["a", "b"], gaveUp: [[0.050, 0.052, 0.048], [0.048, 0.050, 0.046]], p99: [[1, 1, 1], [1, 1, 1]],
            peak: ["gateway": [[0.1, 0.1, 0.1], [0.1, 0.1, 0.1]], "db": [[3, 3, 3], [3, 3, 3]]],
            requests: ["gateway": [[1, 1, 1], [1, 1, 1]], "db": [[9.20, 9.30, 9.10], [9.25, 9.35, 9.15]]])
        #expect(t.loadingFocusClearlyMore(among: [0, 1]).isEmpty)
        #expect(BestMarks(t, metric: .gaveUpFraction, among: [0, 1]).marked == [1])
    }

    /// A service's columns are barred by the users' losses: a point that gives up 10 points more
    /// gets no mark on the database's peak load, which its lost operations lowered.
    @Test("a service's columns bar the points that lose clearly more users' operations")
    func serviceColumnsBarLosers() {
        let t = Self.table(
            names: ["keeps", "drops"], gaveUp: [[0.05, 0.06, 0.04], [0.15, 0.16, 0.14]], p99: [[1, 1, 1], [1, 1, 1]],
            peak: ["gateway": [[0.1, 0.1, 0.1], [0.1, 0.1, 0.1]], "db": [[9, 10, 11], [3, 4, 5]]],
            requests: ["gateway": [[1, 1, 1], [1, 1, 1]], "db": [[2, 2.1, 1.9], [2, 2.1, 1.9]]])
        let peak = BestMarks(t.services["db"]!, metric: .peakLoadRatio, among: [0, 1])
        #expect(peak.losesMore == [1] && peak.marked.isEmpty && peak.withheld == .aheadLosesMore)
    }
}
