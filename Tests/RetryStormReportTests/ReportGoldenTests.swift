import Foundation
import RetryStormKit
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import TestSupport
import Testing

/// report.html equals its golden file and is self-contained (what it says: ReportPageTests).
@Suite("Report")
struct ReportGoldenTests {
    static func page(_ directory: String) throws -> String {
        let run = try RunDirectory.load(path: ChartsFixtures.path(directory))
        return ReportPage.html(run, charts: ChartSet.charts(for: run))
    }

    @Test("Golden: report.html for each fixture directory", arguments: ChartsFixtures.directories)
    func golden(directory: String) throws {
        try ChartsFixtures.golden(directory).check("report.html", try Self.page(directory))
    }

    @Test(
        "self-contained: no scripts, stylesheets, images, fonts or URLs other than the SVG namespace",
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
}
