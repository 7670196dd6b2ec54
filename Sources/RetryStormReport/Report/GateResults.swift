import RetryStormResults
import RetryStormVocabulary

/// The release gates judged on the results, as the command judged them for its exit status:
/// the scenario's `expect:` and the `--expect` options of command.txt, at every point of the
/// study (or the variant a gate names); in a tune, the verdicts tune.json records for the
/// recommendation, judged on its fresh replications.
struct GateResults {
    /// One gate: pass or fail, the value judged and the bound, in the metric's table format.
    struct Gate: Equatable {
        var expectation: String
        /// Where it is judged: "every variant", "full-jitter", "the recommendation, 3 fresh replications".
        var scope: String
        var passed: Bool
        /// "21.7× (no-backoff, the highest)".
        var value: String
        /// "at most 25×".
        var bound: String
    }

    var gates: [Gate]
    /// Expectations that could not be read (a directory edited by hand), as they were written.
    var unreadable: [String]

    init(_ d: ReportData) {
        gates = []
        unreadable = []
        let results = d.run.results
        if results.kind == .tune {
            let rec = results.tune?.recommendation
            for v in rec?.gates ?? [] {
                guard let e = Self.parse(v.expectation) else {
                    unreadable.append(v.expectation)
                    continue
                }
                let fresh = v.confirmed_value != nil
                let f = d.format(e.metric)
                let scope = "the recommendation" + (fresh ? ", on \(rec?.confirmed?.replications ?? 0) fresh replications" : "")
                gates.append(
                    Gate(
                        expectation: v.expectation, scope: scope, passed: v.confirmed_met ?? v.met,
                        value: f.text(v.confirmed_value ?? v.value), bound: Self.bound(e, f)))
            }
            return
        }
        var texts = d.run.scenario.expectations.map(\.value)
        texts += results.command?.values(of: "--expect") ?? []
        let noun = results.kind == .compare ? "variant" : "point"
        for text in texts {
            guard let e = Self.parse(text) else {
                unreadable.append(text)
                continue
            }
            let outcomes = e.outcomes(in: d.table)
            guard !outcomes.isEmpty else {
                unreadable.append(text)
                continue
            }
            let f = e.reference == nil ? d.format(e.metric) : ColumnFormat(metric: e.judgedMetric, values: outcomes.map(\.interval))
            let failing = outcomes.filter { !$0.holds }
            let passed = failing.isEmpty
            // The value shown is the one that decides: the worst failure, or the point closest to the bound.
            let shown = (passed ? outcomes : failing).max { Self.distance($0.value, e) < Self.distance($1.value, e) } ?? outcomes[0]
            var value = f.text(shown.value)
            if outcomes.count > 1 {
                value +=
                    " (\(shown.point)"
                    + (passed ? ", closest to the bound)" : failing.count > 1 ? "; \(failing.count) of \(outcomes.count) \(noun)s fail)" : ")")
            }
            var scope = e.variant ?? (d.names.count == 1 ? "the run" : "every \(noun)")
            // A difference names what it subtracts: "decorrelated − full-jitter".
            if let r = e.reference { scope = (e.variant ?? "every other \(noun)") + " − " + r.variant }
            gates.append(Gate(expectation: text, scope: scope, passed: passed, value: value, bound: Self.bound(e, f)))
        }
    }

    static func parse(_ text: String) -> Expectation? {
        try? Expectation.parse(text, at: SourceLocation(origin: .option("--expect \(text)")))
    }

    /// How far `x` lies on the failing side of the bound (larger is worse).
    static func distance(_ x: Double, _ e: Expectation) -> Double {
        guard !x.isNaN else { return .infinity }
        switch e.op {
        case .le, .lt: return x - e.value
        case .ge, .gt: return e.value - x
        case .eq, .ne: return abs(x - e.value)
        }
    }

    /// "at most 25×", "below 0.1%" — with the statistic when it is an end of the interval.
    static func bound(_ e: Expectation, _ f: ColumnFormat) -> String {
        let word: String =
            switch e.op {
            case .le: "at most"
            case .lt: "below"
            case .ge: "at least"
            case .gt: "above"
            case .eq: "exactly"
            case .ne: "not"
            }
        let of: String =
            switch e.statistic {
            case .mean: ""
            case .ci95High: "upper end of the 95% interval "
            case .ci95Low: "lower end of the 95% interval "
            }
        return of + word + " " + boundText(e.value, f)
    }

    /// The bound as it was written, in the metric's unit: "4×", "20%", "0.15%" (not rounded to
    /// the precision of a measured value: the bound is exact).
    static func boundText(_ x: Double, _ f: ColumnFormat) -> String {
        f.exact(x)
    }

    /// The gates' HTML: a table of pass/fail, or one line saying there are none.
    var html: String {
        var out = HTML.element("h2", "Release gates") + "\n"
        if gates.isEmpty && unreadable.isEmpty {
            return out + HTML.element("p", "No release gates: the scenario has no `expect:` and the command no --expect.", class: "note") + "\n"
        }
        var table = ReportTable(header: [.init("gate"), .init("judged at"), .init("result"), .init("value"), .init("bound")], labelColumns: 1)
        for g in gates {
            table.rows.append([
                .text(g.expectation), .text(g.scope),
                ReportTable.Cell(html: g.passed ? "<span class=\"pass\">pass</span>" : "<span class=\"fail\">FAIL</span>"),
                .text(g.value), .text(g.bound)
            ])
        }
        for u in unreadable {
            table.rows.append([
                .text(u), .text("—"), ReportTable.Cell(html: "<span class=\"fail\">not judged</span>"),
                .text("not a gate this version reads"), .text("—")
            ])
        }
        table.className = "gates"
        out += table.html
        let failed = gates.filter { !$0.passed }.count + unreadable.count
        let all = gates.count + unreadable.count
        let verdict =
            all == 1
            ? (failed == 0 ? "The gate passes." : "The gate fails.")
            : failed == 0 ? "All \(all) gates pass." : "\(failed) of \(all) gates fail."
        out +=
            HTML.element(
                "p", verdict,
                class: failed == 0 ? "note verdict-pass" : "note verdict-fail") + "\n"
        return out
    }
}
