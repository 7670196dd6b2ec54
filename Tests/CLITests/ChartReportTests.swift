import Foundation
import TestSupport
import Testing

/// `run` writes the charts; `chart` re-renders them byte for byte; `report` writes one
/// self-contained page; bad input gets status 2 and one line naming the file.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ChartReportTests {
    static let charts = [
        "load.svg", "peak_load.svg", "attempts.svg", "queue.svg", "failures.svg", "tts_cdf.svg",
        "tts_tail.svg", "tts_p50_p99.svg"
    ]

    /// A fresh `run` of tiny.yaml with 2 replications.
    func freshRun() throws -> URL {
        let out = try CLI.temporaryDirectory().appendingPathComponent("out")
        let r = try CLI.run(["run", CLI.fixture("tiny.yaml").path, "--out", out.path, "--replications", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        return out
    }

    @Test("run writes every chart; chart re-renders the same bytes; report writes report.html")
    func chartAndReport() throws {
        let out = try freshRun()
        let written = try Self.charts.map { try CLI.read(out.appendingPathComponent($0)) }
        let c = try CLI.run(["chart", out.path])
        #expect(c.status == 0, "\(c.stderr)")
        #expect(c.stdout == Self.charts.map { out.appendingPathComponent($0).path + "\n" }.joined())
        #expect(try Self.charts.map { try CLI.read(out.appendingPathComponent($0)) } == written)

        let r = try CLI.run(["report", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try CLI.read(out.appendingPathComponent("report.html"))
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<h1>tiny</h1>"))
        #expect(html.components(separatedBy: "<svg ").count - 1 == Self.charts.count)
        let again = try CLI.run(["report", out.path])
        #expect(again.status == 0)
        #expect(try CLI.read(out.appendingPathComponent("report.html")) == html)
    }

    @Test("--png without rsvg-convert on PATH: SVGs written, a note on stderr, status 0")
    func pngWithoutConverter() throws {
        let out = try freshRun()
        let r = try CLI.run(
            program: try CLI.binary, ["chart", out.path, "--png"], in: nil, timeout: 600,
            environment: ["PATH": "/nonexistent"])
        #expect(r.status == 0 && !r.signalled)
        #expect(r.stderr == "retrystorm: rsvg-convert is not installed; wrote SVGs only (install librsvg2-bin for PNGs)\n")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("load.svg").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("load.png").path))
    }

    @Test("bad input: status 2, one line naming the file (and line), nothing written", arguments: ["chart", "report"])
    func badInput(command: String) throws {
        let missing = try CLI.run([command, "/nonexistent/run"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "retrystorm: error: /nonexistent/run: no such directory\n")

        let out = try freshRun()
        let summary = out.appendingPathComponent("summary.csv")
        try (try CLI.read(summary) + "base,2,11\n").write(to: summary, atomically: true, encoding: .utf8)
        for name in Self.charts + ["report.html"] { try? FileManager.default.removeItem(at: out.appendingPathComponent(name)) }
        let r = try CLI.run([command, out.path])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("retrystorm: error: \(out.path)/summary.csv:4: expected "), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".svg") || $0.hasSuffix(".html") }.isEmpty)
    }

    /// The (stroke, dash) of every element of `svg` drawn with `width` px lines and no fill: the
    /// series' lines (2 px) or their legend swatches (2.5 px).
    static func lineStyles(_ svg: String, element: String, width: String) -> [String] {
        svg.components(separatedBy: "<\(element) ").dropFirst().compactMap { rest -> String? in
            let tag = String(rest.prefix { $0 != ">" })
            guard tag.contains("stroke-width=\"\(width)\""), element == "line" || tag.contains("fill=\"none\"") else { return nil }
            func attribute(_ name: String) -> String {
                tag.components(separatedBy: " \(name)=\"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) } ?? ""
            }
            return attribute("stroke") + " " + attribute("stroke-dasharray")
        }
    }

    @Test(
        "results/library-presets: the time-to-success charts draw all 12 variants, each line its own colour and dash, shown in the legend",
        arguments: ["tts_cdf.svg", "tts_tail.svg"])
    func twelveVariantLines(file: String) throws {
        let svg = try CLI.read(CLI.packageRoot.appendingPathComponent("results/library-presets/\(file)"))
        #expect(!svg.contains("first 9 of"))
        let lines = Self.lineStyles(svg, element: "path", width: "2")
        #expect(lines.count == 12, "\(lines)")
        #expect(Set(lines).count == 12, "\(lines)")
        // Lines 9-12 reuse the first colours with another dash: blue solid, then blue dashed.
        #expect(lines[0] == "#0072b2 " && lines[8] == "#0072b2 8 4", "\(lines)")
        let swatches = Self.lineStyles(svg, element: "line", width: "2.5")
        #expect(Set(swatches) == Set(lines), "legend \(swatches)")
        #expect(svg.contains("offline-first ("), "the 12th variant is named in the legend")
    }
}
