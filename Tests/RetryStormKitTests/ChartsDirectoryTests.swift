import Foundation
import RetryStormKit
import RetryStormReport
import TestSupport
import Testing

/// Reading and writing run directories: bad input names the file and changes nothing; the same
/// CSVs give the same bytes wherever the directory is and however often it is rendered.
@Suite("Charts directory")
struct ChartsDirectoryTests {
    @Test("same CSVs → same SVG and HTML bytes, whatever the directory's path, render after render")
    func determinism() throws {
        for directory in ChartsFixtures.directories {
            let a = try ChartsFixtures.copy(directory, as: "first")
            let b = try ChartsFixtures.copy(directory, as: "second-copy")
            let first = try Redraw.charts(directory: a).map { try String(contentsOfFile: $0, encoding: .utf8) }
            let again = try Redraw.charts(directory: a).map { try String(contentsOfFile: $0, encoding: .utf8) }
            let elsewhere = try Redraw.charts(directory: b).map { try String(contentsOfFile: $0, encoding: .utf8) }
            #expect(first == again && first == elsewhere, "\(directory)")
            let reportA = try String(contentsOfFile: try Redraw.report(directory: a), encoding: .utf8)
            let reportB = try String(contentsOfFile: try Redraw.report(directory: b), encoding: .utf8)
            #expect(reportA == reportB, "\(directory)")
        }
    }

    @Test("writes one SVG per chart into the directory and reports their paths")
    func writes() throws {
        let dir = try ChartsFixtures.copy("sweep")
        let written = try Redraw.charts(directory: dir)
        // The charts ChartSet draws for it (ChartsGoldenTests pins that list).
        let charts = ChartSet.charts(for: try RunDirectory.load(path: dir)).map(\.fileName)
        #expect(written.map { URL(fileURLWithPath: $0).lastPathComponent } == charts && charts.count == 3)
        for path in written { #expect(FileManager.default.fileExists(atPath: path)) }
    }

    /// Replaces `file` in a copy of run-2reps with `text` (nil: deletes it) and loads the copy.
    static func load(corrupting file: String, with text: String?) throws -> (String, Result<RunDirectory, ResultsError>) {
        let dir = try ChartsFixtures.copy("run-2reps")
        let path = dir + "/" + file
        if let text {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } else {
            try FileManager.default.removeItem(atPath: path)
        }
        return (dir, Result { () throws(ResultsError) in try RunDirectory.load(path: dir) })
    }

    static let faults: [(String, String?, String)] = [
        ("timeseries.csv", nil, "/timeseries.csv: missing"),
        ("summary.csv", nil, "/summary.csv: missing"),
        ("tts_quantiles.csv", nil, "/tts_quantiles.csv: missing"),
        ("scenario.yaml", nil, "/scenario.yaml: missing (every result directory has a copy of its scenario)"),
        ("summary.csv", "variant,replication\nbase,0\n", "/summary.csv:1: missing column 'seed'"),
        ("timeseries.csv", "variant,replication,t_s\nbase,0,0\n", "/timeseries.csv:1: missing column 'capacity_per_s'"),
        (
            "tts_quantiles.csv", "variant,replication,quantile,tts_s\nbase,0,0.5,x\n",
            "/tts_quantiles.csv:2: column 'tts_s': expected a number (got 'x')"
        ),
        (
            "compare.csv", "variant,metric\n",
            "/compare.csv:1: expected the columns variant,[swept parameters…,]metric,mean,ci95_low,ci95_high,replications[,diff_mean,diff_ci95_low,diff_ci95_high]"
        ),
        ("tune.json", "{", "/tune.json: is not valid JSON"),
        ("scenario.yaml", "clients:\n  cuont: 5\n", "/scenario.yaml:2:3: field 'clients.cuont': is not a scenario key. Did you mean 'clients.count'?")
    ]

    @Test("bad input: one message naming the file (and line), nothing written", arguments: faults.indices)
    func badInput(index: Int) throws {
        let (file, text, suffix) = Self.faults[index]
        let (dir, result) = try Self.load(corrupting: file, with: text)
        guard case .failure(let error) = result else {
            Issue.record("\(file): loaded")
            return
        }
        #expect(error.message == dir + suffix)
        #expect(throws: ResultsError(dir + suffix)) { try Redraw.charts(directory: dir) }
        let svgs = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".svg") || $0.hasSuffix(".html") }
        #expect(svgs.isEmpty)
    }

    @Test("a missing directory or a file in its place is named")
    func missingDirectory() throws {
        #expect(throws: ResultsError("/nonexistent/run: no such directory")) { try RunDirectory.load(path: "/nonexistent/run") }
        let dir = try ChartsFixtures.copy("run-2reps")
        #expect(throws: ResultsError("\(dir)/summary.csv: is not a directory")) {
            try RunDirectory.load(path: dir + "/summary.csv")
        }
    }
}
