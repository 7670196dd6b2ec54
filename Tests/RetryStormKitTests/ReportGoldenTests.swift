import Foundation
import RetryStormKit
import Testing

/// report.html equals its golden file, is self-contained and holds what a reviewer needs.
@Suite("Report")
struct ReportGoldenTests {
    static func page(_ directory: String) throws -> String {
        let run = try RunDirectory.load(path: ChartsFixtures.path(directory))
        return ReportPage.html(run, charts: ChartSet.charts(for: run))
    }

    @Test("Golden: report.html for each fixture directory", arguments: ChartsFixtures.directories)
    func golden(directory: String) throws {
        try ChartsFixtures.checkGolden(directory, "report.html", try Self.page(directory))
    }

    @Test("self-contained: no scripts, stylesheets, images, fonts or URLs other than the SVG namespace",
          arguments: ChartsFixtures.directories)
    func selfContained(directory: String) throws {
        let html = try Self.page(directory)
        for banned in ["<script", "<link", "<img", "<iframe", "src=", "href=", "@import", "url(", "@font-face"] {
            #expect(!html.contains(banned), "report contains \(banned)")
        }
        let urls = html.components(separatedBy: "http").count - 1
        let namespaces = html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1
        #expect(urls == namespaces)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"))
        #expect(html.hasSuffix("</html>\n"))
    }

    @Test("holds the question, seed, replications, version, tables, charts and the scenario verbatim (escaped)")
    func contents() throws {
        let html = try Self.page("compare")
        #expect(html.contains("<h1>Retry storm report — jitter</h1>"))
        #expect(html.contains("<p class=\"question\">Which jitter keeps the retry spike lowest after a 10 s brownout, and what does it cost in time to success?</p>"))
        #expect(html.contains("<dt>seed</dt><dd>3</dd>"))
        #expect(html.contains("<dt>replications</dt><dd>3</dd>"))
        #expect(html.contains("<dt>RetryStorm</dt><dd>\(RetryStormVersion.current)</dd>"))
        #expect(html.contains("<h2>Summary</h2>") && html.contains("<h2>Compare</h2>"))
        #expect(html.components(separatedBy: "<svg ").count - 1 == 8)
        #expect(html.contains("<td class=\"best\">"))
        let scenario = try String(contentsOfFile: ChartsFixtures.path("compare/scenario.yaml"), encoding: .utf8)
        let escaped = scenario.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
        #expect(html.contains("<pre>" + escaped + "</pre>"))
    }

    @Test("the sweep table marks the tuned choice and which points meet the constraints")
    func sweepTable() throws {
        let html = try Self.page("sweep")
        #expect(html.contains("<h2>Sweep</h2>"))
        #expect(html.contains("<th scope=\"row\">8s <span class=\"star\" title=\"tuned choice\">★ tuned</span></th>"))
        // The fixture's 3 × 3 grid runs 7 points (max 30 s never binds with base 250 ms or 500 ms: two
        // aliases); 3 of them meet tune.json's bounds (peak_load_ratio ≤ 3.3, gave_up ≤ 160) in sweep.csv.
        #expect(html.components(separatedBy: "<td>yes</td>").count - 1 == 3)
        #expect(html.components(separatedBy: "<td>no</td>").count - 1 == 4)
    }
}
