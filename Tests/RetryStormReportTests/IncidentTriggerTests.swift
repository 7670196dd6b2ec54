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
        let csv = dir + "/timeseries.csv"
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let nominal = rows.enumerated().map { i, row -> String in
            var cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if i > 0, cells.count > 3 { cells[3] = "40.000" }
            return cells.joined(separator: ",")
        }
        try nominal.joined(separator: "\n").write(toFile: csv, atomically: true, encoding: .utf8)
        return try RunDirectory.load(path: dir)
    }

    static func charts(_ run: RunDirectory) -> [String: NamedChart] {
        Dictionary(uniqueKeysWithValues: ChartSet.charts(for: run).map { ($0.fileName, $0) })
    }

    @Test("a load spike's panels say the recovery counts from when the spike began, and the captions name the spike")
    func spikeWording() throws {
        let charts = Self.charts(try Self.spikeRun())
        // The window is the spike's [10 s, 20 s) at 2× (IncidentMarks.label), shared by all three panels.
        let legend = "shaded: load ×2 10–20 s · dashed: recovery, s after the spike began"
        for name in ["load.svg", "attempts.svg", "queue.svg", "failures.svg"] {
            let svg = try #require(charts[name]).chart.svg()
            #expect(svg.contains(legend), "\(name)")
            #expect(!svg.contains("after the drop"), "\(name)")
        }
        #expect(
            charts["load.svg"]?.caption
                == "How far the offered load climbs above capacity during the load spike, and how soon it falls back to what the server can serve.")
        #expect(
            charts["attempts.svg"]?.caption
                == "Where the load comes from: first attempts against retries. Retries that keep coming after the spike ends are the storm.")
        #expect(
            try #require(charts["failures.svg"]).caption.hasSuffix(
                " and operations that give up. Losses that go on after the spike ends are the storm's cost."))
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
}
