import Foundation
import RetryStormKit
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import SVGCharts
import TestSupport
import Testing

/// The words that name the trigger (issue 15): a load spike is named as the spike in the
/// panels' legend, the captions and the findings; a capacity drop keeps the wording it had.
@Suite("Incident trigger wording")
struct IncidentTriggerTests {
    /// The compare fixture (jitter.yaml: capacity 10% from 10 s to 20 s, three variants) with its
    /// trigger turned into a load spike: scenario.yaml without the outage and with a 2× spike
    /// over the same 10 s, and timeseries.csv's capacity at the nominal 40/s in every bucket, so
    /// that the scenario reproduces the column as a real run of it would.
    static func spikeRun() throws -> RunDirectory {
        let dir = try ChartsFixtures.copy("compare")
        let yaml = dir + "/scenario.yaml"
        var text = try String(contentsOfFile: yaml, encoding: .utf8)
        for (old, new) in [
            ("  arrival: uniform\n  spread: 20s\n", "  arrival: poisson\n  rate: 0.05/s\n"),
            ("  outage: {at: 10s, duration: 10s, fraction: 0.1, recovery: linear, ramp: 10s}\n", ""),
            ("policy:\n", "load.spike: {at: 10s, duration: 10s, multiplier: 2}\npolicy:\n")
        ] {
            #expect(text.contains(old), "fixture changed: \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        try text.write(toFile: yaml, atomically: true, encoding: .utf8)
        try nominalCapacity(dir)
        return try RunDirectory.load(path: dir)
    }

    /// Sets timeseries.csv's capacity in `dir` to the fixture's nominal 40/s in every bucket.
    static func nominalCapacity(_ dir: String) throws {
        let csv = dir + "/timeseries.csv"
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let nominal = rows.enumerated().map { i, row -> String in
            var cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if i > 0, cells.count > 3 { cells[3] = "40.000" }
            return cells.joined(separator: ",")
        }
        try nominal.joined(separator: "\n").write(toFile: csv, atomically: true, encoding: .utf8)
    }

    static func charts(_ run: RunDirectory) -> [String: NamedChart] {
        Dictionary(uniqueKeysWithValues: ChartSet.charts(for: run).map { ($0.fileName, $0) })
    }

    /// Every time chart of `run` carries `legend`, none says "after the drop", and the captions
    /// say the trigger as `during` and `after` words.
    static func expectWording(_ run: RunDirectory, legend: String, during: String, after: String) throws {
        let charts = Self.charts(run)
        for name in ["load.svg", "attempts.svg", "queue.svg", "failures.svg"] {
            let svg = try #require(charts[name]).chart.svg()
            #expect(svg.contains(legend), "\(name)")
            #expect(!svg.contains("after the drop"), "\(name)")
        }
        #expect(
            charts["load.svg"]?.caption
                == "How far the offered load climbs above capacity \(during), and how soon it falls back to what the server can serve.")
        #expect(
            charts["attempts.svg"]?.caption
                == "Where the load comes from: first attempts against retries. Retries that keep coming \(after) are the storm.")
        #expect(
            try #require(charts["failures.svg"]).caption.hasSuffix(
                " and operations that give up. Losses that go on \(after) are the storm's cost."))
    }

    @Test("a load spike's panels say the recovery counts from when the spike began, and the captions name the spike")
    func spikeWording() throws {
        // The window is the spike's [10 s, 20 s) at 2× (IncidentMarks.label), shared by all three panels.
        try Self.expectWording(
            try Self.spikeRun(), legend: "shaded: load ×2 10–20 s · dashed: recovery, s after the spike began", during: "during the load spike",
            after: "after the spike ends")
    }

    @Test("a capacity drop keeps its wording: recovery after the drop, captions about capacity")
    func dropWording() throws {
        let charts = try ChartsContentTests.charts("compare")
        // The fixture's outage: capacity 10% from 10 s to 20 s, a linear ramp back by 30 s: below
        // nominal from 10 s to 30 s, the window the trigger's end is measured from (issue 26).
        let legend = "shaded: capacity down to 10% 10–30 s · dashed: recovery, s after the drop"
        for name in ["load.svg", "attempts.svg", "queue.svg", "failures.svg"] {
            #expect(try #require(charts[name]).chart.svg().contains(legend), "\(name)")
        }
        #expect(
            charts["load.svg"]?.caption
                == "How far the offered load climbs above capacity while capacity is down, and how soon it falls back to what the server can serve.")
        #expect(
            charts["attempts.svg"]?.caption
                == "Where the load comes from: first attempts against retries. Retries that keep coming after capacity returns are the storm.")
        #expect(
            try #require(charts["failures.svg"]).caption.hasSuffix(
                " and operations that give up. Losses that go on after capacity returns are the storm's cost."))
    }

    @Test("the trigger is a spike only when every window is one")
    func mixedWindows() {
        let drop = IncidentMarks.Window(from: 10, to: 20, fraction: 0.1, disturbedAt: 10)
        let spike = IncidentMarks.Window(from: 10, to: 20, fraction: 1, disturbedAt: 10, load: 2)
        #expect(IncidentTrigger([spike, spike]) == .loadSpike)
        #expect(IncidentTrigger([spike, drop]) == .dropAndSpike)
        #expect(IncidentTrigger([spike, nil]) == .capacityDrop)
        #expect(IncidentTrigger([drop, nil]) == .capacityDrop)
        #expect(IncidentTrigger([]) == .capacityDrop)
        let both = IncidentMarks.Window(from: 10, to: 20, fraction: 0.1, disturbedAt: 5, spikeToo: true)
        #expect(IncidentTrigger([both, drop]) == .dropAndSpike)
    }

    /// The compare fixture's brownout (capacity 10% from 10 s to 20 s), its clients made Poisson,
    /// with a 2× load spike from 5 s to 15 s besides: the engine's incident starts at 5 s (`Scenario.trigger`), so the
    /// recovery marker counts from there, and the words name both triggers.
    @Test("a capacity drop with a load spike: the recovery counts from the earlier, the words name both")
    func dropAndSpike() throws {
        let dir = try ChartsFixtures.copy("compare")
        let yaml = dir + "/scenario.yaml"
        var text = try String(contentsOfFile: yaml, encoding: .utf8)
        // A load profile applies to Poisson arrivals; capacity, and so timeseries.csv's column, stays as it was.
        for (old, new) in [
            ("  arrival: uniform\n  spread: 20s\n", "  arrival: poisson\n  rate: 0.05/s\n"),
            ("policy:\n", "load.spike: {at: 5s, duration: 10s, multiplier: 2}\npolicy:\n")
        ] {
            #expect(text.contains(old), "fixture changed: \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        try text.write(toFile: yaml, atomically: true, encoding: .utf8)
        let run = try RunDirectory.load(path: dir)
        let series = try #require(run.timeSeries.first)
        let window = try #require(IncidentMarks.window(series, scenario: run.scenario.base))
        #expect(window.from == 10 && window.to == 30 && window.disturbedAt == 5 && window.spikeToo)
        #expect(IncidentTrigger([window]) == .dropAndSpike)
        let charts = Self.charts(run)
        // Both triggers are shaded (issue 26): the drop's window and the spike's.
        let legend = "shaded: capacity down to 10% 10–30 s, load ×2 5–15 s · dashed: recovery, s after the first trigger"
        for name in ["load.svg", "attempts.svg", "queue.svg", "failures.svg"] {
            #expect(try #require(charts[name]).chart.svg().contains(legend), "\(name)")
        }
        #expect(
            charts["load.svg"]?.caption
                == "How far the offered load climbs above capacity while capacity is down or the load is up, and how soon it falls back to what the server can serve."
        )
    }

    /// The compare fixture with its outage turned into an error window: 30% of answers 503 from
    /// 10 s to 20 s (`server.errors`), capacity at the nominal 40/s in every bucket of
    /// timeseries.csv (as a real run of it would write), so that the window is the only trigger.
    static func errorWindowRun(_ errors: String = "{server: 0.3, status: 503, at: 10s, duration: 10s}") throws -> RunDirectory {
        let dir = try ChartsFixtures.copy("compare")
        let yaml = dir + "/scenario.yaml"
        var text = try String(contentsOfFile: yaml, encoding: .utf8)
        let outage = "  outage: {at: 10s, duration: 10s, fraction: 0.1, recovery: linear, ramp: 10s}\n"
        #expect(text.contains(outage), "fixture changed")
        text = text.replacingOccurrences(of: outage, with: "  errors: \(errors)\n")
        try text.write(toFile: yaml, atomically: true, encoding: .utf8)
        try nominalCapacity(dir)
        return try RunDirectory.load(path: dir)
    }

    /// The window's label is its shares together and what they answer (IncidentMarks.label), and
    /// the words say the errors, not a drop or a spike.
    @Test("an error window is shaded as 'errors 30% (503) 10–20 s' and the captions name the errors")
    func errorWindowWording() throws {
        try Self.expectWording(
            try Self.errorWindowRun(), legend: "shaded: errors 30% (503) 10–20 s · dashed: recovery, s after the errors began",
            during: "while the server answers errors", after: "after the error window ends")
    }

    @Test("an error window alone is named as errors; with a drop or a spike, as the triggers")
    func errorWindowTrigger() {
        let mix = Scenario.ErrorMix(permanent: 0.1, serverError: 0.2, ambiguous: 0.05, serverErrorStatus: .unavailable)
        let errors = IncidentMarks.Window(from: 60, to: 90, fraction: 1, disturbedAt: 60, errors: mix)
        #expect(IncidentMarks.label(errors) == "errors 35% (400, 503, lost) 60–90 s")
        let only500 = IncidentMarks.Window(from: 60, to: 90.5, fraction: 1, disturbedAt: 60, errors: .init(serverError: 0.3))
        #expect(IncidentMarks.label(only500) == "errors 30% (500) 60–90.5 s")
        let drop = IncidentMarks.Window(from: 10, to: 20, fraction: 0.1, disturbedAt: 10)
        let dropWithErrors = IncidentMarks.Window(from: 10, to: 20, fraction: 0.1, disturbedAt: 10, errorsToo: true)
        #expect(IncidentTrigger([errors, errors]) == .errorWindow)
        #expect(IncidentTrigger([errors, nil]) == .errorWindow)
        #expect(IncidentTrigger([errors, drop]) == .errorsAndOthers)
        #expect(IncidentTrigger([dropWithErrors]) == .errorsAndOthers)
        #expect(IncidentTrigger([drop]) == .capacityDrop)
        #expect(IncidentTrigger.errorWindow.ended == "the error window ended")
    }

    /// A mix over the whole run (no `at`) is no trigger: nothing is shaded.
    @Test("an error mix without a window is not shaded")
    func mixWithoutWindow() throws {
        let run = try Self.errorWindowRun("{server: 0.3, status: 503}")
        let series = try #require(run.timeSeries.first)
        #expect(IncidentMarks.windows(series, scenario: run.scenario.base).isEmpty)
    }

    /// The report's findings for one run of a scenario whose only trigger is an error window from
    /// 10 s to 30 s, healthy `recovery` seconds after it began and `after` seconds after it ended.
    static func errorWindowFindings(recovery: Double, after: Double) throws -> String {
        let yaml = """
            name: errors
            seed: 1
            horizon: 60s
            clients: {count: 10, rate: 1/s, timeout: 1s}
            server: {capacity: 100/s, errors: {server: 0.3, status: 503, at: 10s, duration: 20s}}
            """
        var values = [Double](repeating: 0, count: SummaryRecord.metrics.count)
        for (metric, value) in [(Metric.operations, 1000.0), (.recovered, 1), (.recovery, recovery), (.recoveryAfterTrigger, after)] {
            values[try #require(SummaryRecord.metrics.firstIndex(of: metric))] = value
        }
        let results = StudyResults(
            kind: .run, scenario: yaml, summaries: [SummaryRecord(variant: "base", replication: 0, seed: 1, clients: 10, values: values)])
        let run = try RunDirectory(results: results, scenario: ScenarioLoader.parse(text: yaml, path: "errors.yaml"))
        return ReportPage.html(run, charts: [])
    }

    /// Healthy at 10 + 5 = 15 s, inside the window (10–30 s): said with the window still on.
    /// (A recovery after the window's end is named against it in a real run's report:
    /// `ErrorWindowInputTests`.)
    @Test("the findings say the server recovered while the error window was still on")
    func errorWindowRecoverySentence() throws {
        let during = try Self.errorWindowFindings(recovery: 5, after: 0)
        #expect(during.contains("The server recovered at 15 s, while the error window was still on (the trigger ended at 30 s)."), "\(during)")
    }
}
