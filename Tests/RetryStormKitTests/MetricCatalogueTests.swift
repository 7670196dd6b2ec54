import RetryStormEngine
import RetryStormKit
import RetryStormReport
import Testing

/// The metric catalogue is the one declaration of every metric: every column of summary.csv,
/// populations.csv and services.csv has exactly one, every one is a column or says how it is derived, nothing
/// falls back to a default entry, and the time series' names are declared once beside it.
@Suite("Metric catalogue")
struct MetricCatalogueTests {
    @Test("every metric is declared once: names unique, and named(_:) finds each declaration")
    func declaredOnce() {
        let names = Metric.all.map(\.name)
        #expect(Set(names).count == names.count, "a name declared twice: \(names.filter { n in names.filter { $0 == n }.count > 1 })")
        for m in Metric.all {
            #expect(Metric.named(m.name)?.label == m.label, "\(m.name)")
        }
        #expect(Metric.named("tts_p99") == nil && Metric.named("") == nil)
    }

    @Test(
        "every column of summary.csv, populations.csv and services.csv has exactly one declaration, in the file's scope",
        arguments: Metric.Scope.allCases)
    func columnsDeclared(scope: Metric.Scope) {
        let (columns, header, keys) = Self.file(scope)
        #expect(header == keys + columns.map(\.name))
        for name in header.dropFirst(keys.count) {
            let declarations = Metric.all.filter { $0.name == name }
            #expect(declarations.count == 1, "\(scope.file) column \(name): \(declarations.count) declarations")
            #expect(declarations.first?.scopes.contains(scope) == true, "\(name) is a column of \(scope.file) but not declared in it")
        }
        #expect(Set(columns).count == columns.count, "\(scope.file) has a column twice")
    }

    /// The metric columns, the header and the key columns of `scope`'s file.
    static func file(_ scope: Metric.Scope) -> (metrics: [Metric], header: [String], keys: [String]) {
        switch scope {
        case .fleet: (SummaryRecord.metrics, SummaryRecord.columns, SummaryRecord.keyColumns)
        case .population: (PopulationRecord.metrics, PopulationRecord.columns, PopulationRecord.keyColumns)
        case .service: (ServiceRecord.metrics, ServiceRecord.columns, ServiceRecord.keyColumns)
        case .edge: (EdgeRecord.metrics, EdgeRecord.columns, EdgeRecord.keyColumns)
        }
    }

    @Test("every declaration is a column of the files its scopes name, or is derived (and then no column)")
    func declarationsAreColumns() {
        for m in Metric.all {
            if let derivation = m.derivation {
                #expect(m.scopes.isEmpty && !m.isColumn, "\(m.name) is derived but declared a column")
                #expect(Metric.Scope.allCases.allSatisfy { !Self.file($0).metrics.contains(m) }, "\(m.name)")
                // The columns it is derived from are metrics.
                let sources = derivation.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
                    .flatMap { $0.element.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }) }
                #expect(!sources.isEmpty && sources.allSatisfy { Metric.summaryColumn(named: String($0)) != nil }, "\(m.name): \(derivation)")
            } else {
                #expect(!m.scopes.isEmpty, "\(m.name) is in no file and says nothing of how it is derived")
            }
            for scope in Metric.Scope.allCases {
                #expect(m.scopes.contains(scope) == Self.file(scope).metrics.contains(m), "\(m.name) and \(scope.file) disagree")
            }
        }
        // The catalogue's order is summary.csv's (and the docs').
        #expect(Metric.columns(of: .fleet) == SummaryRecord.metrics)
        #expect(Metric.all.filter(\.isColumn) == Metric.all.prefix { $0.isColumn }, "derived metrics come last")
    }

    @Test("each declaration is whole: a label, a unit, a meaning; a format, bounds and direction that fit its kind")
    func facts() {
        for m in Metric.all {
            #expect(!m.label.isEmpty && !m.unit.isEmpty && !m.meaning.isEmpty, "\(m.name)")
            #expect(m.label != m.name || !m.name.contains("_"), "\(m.name) is labelled with its column name")
            #expect(m.bounds.lowerBound >= 0, "\(m.name)")
            switch m.kind {
            case .count: #expect(m.format == .whole && m.bounds == 0...Double.infinity, "\(m.name)")
            case .fraction: #expect(m.bounds == 0...1, "\(m.name)")
            case .seconds: #expect(m.unit == "s" && m.name.hasSuffix("_s") && m.format == .fixed(6), "\(m.name)")
            case .ratio: #expect(m.format == .fixed(6), "\(m.name)")
            }
            // Only a time rewards giving up, and only one that is better lower.
            if m.rewardsGivingUp { #expect(m.kind == .seconds && m.better == .lower, "\(m.name)") }
            if m.window == .incident { #expect(m.name.hasPrefix("incident_"), "\(m.name)") }
        }
        #expect(Metric.recovered.format == .whole, "recovered is 0 or 1 per replication")
    }

    /// The seven counts that had no entry and fell back to "an unbounded ratio judged neither way".
    @Test(
        "the counts that fell back to a default entry are counts, labelled, cut at 0",
        arguments: ["offline", "duplicates", "queries", "confirmed", "abandoned", "budget_denied", "held_back"])
    func formerlyMissing(name: String) throws {
        let m = try #require(Metric.named(name))
        #expect(m.kind == .count && m.format == .whole && m.bounds == 0...Double.infinity)
        #expect(m.label != name)
        #expect(ColumnFormat(metric: m, values: []).number(1234) == "1,234")
    }

    @Test("a count's unit stands beside its label unless the label names it; seconds, shares and ratios keep theirs")
    func symbols() {
        #expect(Metric.gaveUp.axisTitle == "gave up (operations)")
        #expect(Metric.failed.axisTitle == "failed attempts")
        #expect(Metric.operations.symbol == "" && Metric.peakOfferedPerSecond.symbol == "req/s")
        #expect(Metric.ttsP99.axisTitle == "time to success p99 (s)")
        #expect(Metric.peakLoadRatio.axisTitle == "peak load / capacity (×)")
        #expect(Metric.gaveUpFraction.axisTitle == "gave up, share of operations")
    }

    /// The message of the ScenarioError `body` throws (nil when it does not throw).
    static func message(_ body: () throws(ScenarioError) -> Void) -> String? {
        do { try body() } catch { return error.message }
        return nil
    }

    @Test("gates, objectives and constraints take summary.csv's columns only, by name, with a hint")
    func edges() throws {
        let here = SourceLocation(origin: .option("test"))
        #expect(try Expectation.parse("held_back<=3", at: here).metric == .heldBack)
        #expect(
            Self.message { () throws(ScenarioError) in _ = try Expectation.parse("lost_fraction<=0.1", at: here) }?
                .hasPrefix("'lost_fraction' is not a metric (summary.csv column).") == true)
        #expect(
            Self.message { () throws(ScenarioError) in _ = try Expectation.parse("held_back<=3%", at: here) }
                == "'3%': held_back is not a fraction, so it takes a plain number in its unit (attempts), not a percentage")
        #expect(try Objective.parse("max:recovered", at: here) == Objective(.recovered, maximize: true))
        #expect(Objective("max:recovered")?.description == "max:recovered")
        #expect(
            Self.message { () throws(ScenarioError) in _ = try Objective.parse("tts_p99", at: here) }
                == "field 'objective': 'tts_p99' is not a metric (summary.csv column). Did you mean 'tts_p99_s'?")
    }

    @Test("timeseries.csv: names declared once, every counter but the incident's written once, each count's run total in summary.csv under its name")
    func timeSeries() throws {
        let names = TimeSeriesColumn.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(TimeSeriesRecord.columnNames == ["variant", "replication"] + names)
        let counters = TimeSeriesColumn.allCases.compactMap(\.counter)
        #expect(Set(counters).count == counters.count)
        // The incident's counters, the call graph's dependency failures (part of `failed`,
        // counted apart for the recovery rule: a column would change every one-hop file), and
        // the hedged copies' conservation law (issue 38: sent are `retries`, refused are
        // `budget_denied` or `held_back`; the checks read them, no file needs them).
        #expect(
            Set(counters)
                == Set(Counter.allCases).subtracting([
                    .gaveUpByStart, .blockedByStart, .confirmedByStart, .dependencyFailed, .hedgesWanted, .hedgesSent, .hedgesRefused,
                    .hedgesNotNeeded
                ]))
        for column in TimeSeriesColumn.allCases where column.isCount {
            let total = try #require(Metric.summaryColumn(named: column.name), "\(column.name) has no run total in summary.csv")
            #expect(total.kind == .count, "\(column.name)")
        }
        #expect(PopulationSeriesRecord.columns == ["variant", "replication", "population", "t_s", "offered"])
        #expect(
            ServiceSeriesRecord.columnNames == [
                "variant", "replication", "service", "t_s", "offered", "served", "capacity_per_s", "queue_len", "timed_out", "retries"
            ])
    }
}
