import Foundation
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import RetryStormVocabulary
import TestSupport
import Testing

/// What report.html says and in which order, on the fixture directories: the verdict first
/// (question, findings quoting numbers and intervals, release gates, a tune's recommendation),
/// then the charts with captions, the tables (variants as rows, counts whole, intervals as ±,
/// rank order for a tune), and what reproduces the page. Numbers are the fixtures' own (their
/// summary.csv and tune.json), written by ColumnFormat's rule (three significant digits).
@Suite("Report page")
struct ReportPageTests {
    static func page(_ directory: String) throws -> String {
        try ReportGoldenTests.page(directory)
    }

    /// The texts of the `<li>` of the findings list.
    static func findings(_ html: String) throws -> [String] {
        let list = try #require(
            html.components(separatedBy: "<ul class=\"findings\">\n").dropFirst().first?
                .components(separatedBy: "</ul>").first)
        return list.split(separator: "\n").map { $0.replacingOccurrences(of: "<li>", with: "").replacingOccurrences(of: "</li>", with: "") }
    }

    /// The text between `start` and the next `end` after it.
    static func slice(_ html: String, from start: String, to end: String) throws -> String {
        let after = try #require(html.range(of: start)?.upperBound)
        let stop = try #require(html[after...].range(of: end)?.lowerBound)
        return String(html[after..<stop])
    }

    @Test(
        "the verdict first: question, findings, release gates; then charts, tables, and what reproduces the page",
        arguments: ChartsFixtures.directories)
    func order(directory: String) throws {
        let html = try Self.page(directory)
        let marks = [
            "<h1>", "<h2>Findings</h2>", "<h2>Release gates</h2>", "<h2>Charts</h2>", "<h2>Tables</h2>",
            "<h2>Reproduce</h2>", "<h3>Scenario</h3>"
        ]
        let positions = try marks.map { try #require(html.range(of: $0)?.lowerBound, "\($0)") }
        #expect(positions == positions.sorted())
        let findings = try Self.findings(html)
        #expect((2...5).contains(findings.count), "\(findings)")
    }

    /// compare/summary.csv, per replication: peak_load_ratio no-jitter 2.9, 2.475, 3.075 (mean
    /// 2.82), equal-jitter 3.025, 2.55, 3.075 (2.88) and full-jitter 3.375, 2.825, 3.225 (3.14):
    /// only equal-jitter − full-jitter is clear (-0.35, -0.275, -0.15: mean -0.258, 95% CI
    /// [-0.51, -0.008], 8.2% of 3.14), and equal-jitter loses clearly more, so no mark;
    /// gave_up_fraction no-jitter 0.045, 0, 0.0325 (2.58%), equal-jitter 0.2525, 0.215, 0.25
    /// (23.9%), full-jitter 0.3975, 0.3325, 0.385 (37.2%), so both jitters lose clearly more;
    /// tts_p99_s is inf (never) for every variant: each lost more than 1% of its operations in at
    /// least one replication; tts_success_p99_s runs from 13.9 s (full-jitter) to 18.5 s (no-jitter);
    /// tts_p50_s no-jitter 5.89 s, equal-jitter 7.48 s, none clear of another; stuck 0 in every
    /// replication, whose 95% Wilson interval over 3 is [0, z²/(3 + z²)] = [0, 56.1%].
    @Test("compare findings quote the fixture's numbers and intervals")
    func compareFindings() throws {
        #expect(
            try Self.findings(try Self.page("compare")) == [
                "No variant keeps the spike lowest without losing clearly more operations: equal-jitter (2.88×) is clearly lower than full-jitter, with nothing clearly lower than it, but it loses clearly more.",
                "No variant has a p99 time to success: each lost more than 1% of its operations, so its p99 over every operation is never; among successes alone it runs from 13.9 s to 18.5 s, which leaves out what each lost.",
                "equal-jitter and full-jitter lose clearly more operations: 23.9% (±5.2) and 37.2% (±8.6) of operations gave up, against 2.58% for no-jitter.",
                "The median time to success does not separate no-jitter, equal-jitter and full-jitter: from 5.89 s to 7.48 s, every difference within noise or too small to matter.",
                "No replication of any point was stuck at the horizon (P(stuck) at most 56.1%, 95% Wilson interval): in the run&#39;s last 20 s, after the trigger ended, users&#39; goodput was at least half of what they started."
            ])
    }

    /// The fixture's command: --expect 'peak_load_ratio.ci95_high<=4' (every variant; full-jitter's
    /// upper end is the highest, 3.14 + 4.303 · 0.284 / √3 = 3.85) and --expect
    /// 'full-jitter:gave_up_fraction<=20%' (37.2%).
    @Test("release gates: each with where it is judged, pass or FAIL, the deciding value and the bound")
    func gates() throws {
        let gates = try Self.slice(try Self.page("compare"), from: "<h2>Release gates</h2>", to: "</section>")
        #expect(
            gates.contains(
                "<tr><th scope=\"row\">peak_load_ratio.ci95_high&lt;=4</th><td>every variant</td><td><span class=\"pass\">pass</span></td><td>3.85× (full-jitter, closest to the bound)</td><td>upper end of the 95% interval at most 4×</td></tr>"
            ))
        #expect(
            gates.contains(
                "<tr><th scope=\"row\">full-jitter:gave_up_fraction&lt;=20%</th><td>full-jitter</td><td><span class=\"fail\">FAIL</span></td><td>37.2%</td><td>at most 20%</td></tr>"
            ))
        #expect(gates.contains("<p class=\"note verdict-fail\">1 of 2 gates fail.</p>"))
        let none = try Self.slice(try Self.page("run-2reps"), from: "<h2>Release gates</h2>", to: "</section>")
        #expect(none.contains("No release gates"))
    }

    @Test("every chart inline with a caption that says what to look at, not a file name")
    func captions() throws {
        let html = try Self.page("compare")
        let figures = html.components(separatedBy: "<figure>\n").dropFirst()
        #expect(figures.map { $0.hasPrefix("<svg ") } == Array(repeating: true, count: 8))
        for figure in figures {
            let caption = try Self.slice(figure, from: "<figcaption>", to: " <span class=\"file\">")
            #expect(caption.count > 60 && !caption.hasSuffix(".svg"), "\(caption)")
        }
    }

    @Test("tables: variants as rows in groups, counts whole, intervals as ±, no variant as a column")
    func tables() throws {
        let html = try Self.page("compare")
        let tables = try Self.slice(html, from: "<h2>Tables</h2>", to: "<h2>Reproduce</h2>")
        for group in ["<h3>Load</h3>", "<h3>Outcome</h3>", "<h3>Time</h3>"] { #expect(tables.contains(group)) }
        for variant in ["no-jitter", "equal-jitter", "full-jitter"] {
            #expect(!tables.contains("<th scope=\"col\">\(variant)"))
            #expect(tables.components(separatedBy: "<tr><th scope=\"row\">\(variant)</th>").count - 1 == 3)
        }
        // 400 operations in every replication; succeeded no-jitter 390 ±23 (whole, as the count it is).
        #expect(tables.contains("<td>400</td>"))
        #expect(tables.contains("390<span class=\"ci\">±23</span>"))
        #expect(tables.contains("<th scope=\"col\">peak load<span class=\"unit\">(× capacity)</span></th>"))
        #expect(tables.contains("2.82<span class=\"ci\">±0.77</span>"))
    }

    @Test("what reproduces the page: the exact command, seed, replications, version and the scenario verbatim")
    func reproduce() throws {
        let html = try Self.page("compare")
        let part = try Self.slice(html, from: "<h2>Reproduce</h2>", to: "</main>")
        let command = try String(contentsOfFile: ChartsFixtures.path("compare/command.txt"), encoding: .utf8)
        #expect(
            command
                == "retrystorm compare Tests/RetryStormReportTests/Fixtures/jitter.yaml --replications 3 --expect 'peak_load_ratio.ci95_high<=4' --expect 'full-jitter:gave_up_fraction<=20%'\n"
        )
        #expect(part.contains("<pre class=\"command\"><code>" + ReportPageTests.escaped(String(command.dropLast())) + "</code></pre>"))
        #expect(part.contains("<div><dt>seed</dt><dd>3</dd></div>"))
        #expect(part.contains("<div><dt>replications</dt><dd>3 replications each</dd></div>"))
        #expect(part.contains("<div><dt>RetryStorm</dt><dd>\(RetryStormVersion.current)</dd></div>"))
        let scenario = try String(contentsOfFile: ChartsFixtures.path("compare/scenario.yaml"), encoding: .utf8)
        #expect(part.contains("<pre class=\"scenario\">" + Self.escaped(scenario) + "</pre>"))
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// sweep/tune.json: the recommendation base=500ms+max=8s, objective 13.6 s on the selection
    /// replications and 13.9 s on 2 fresh ones; constraints peak_load_ratio<=3.3 (3.00× fresh) and
    /// gave_up<=160 (144 fresh); runners-up base=1s+max=8s (+5.70 s, interval holds 0),
    /// base=1s+max=30s (+12.0 s), base=1s+max=2s (−5.45 s, breaks the constraints); the gate
    /// tts_success_p99_s<=20 judged on the fresh replications (13.9 s); the objective tts_success_p99_s
    /// (make-fixtures.sh: every point loses more than 1%, so tts_p99_s is never everywhere). The
    /// constraints' fresh intervals over two replications (tune.json's `confirmed_interval`) both
    /// cross their bounds: [0.14, 5.86] and [17, 271], so each is within noise of it.
    @Test("tune: the recommendation, its confirmed value, the runners-up with paired differences, constraint and gate verdicts")
    func tune() throws {
        let html = try Self.page("sweep")
        let verdict = try Self.slice(html, from: "<section class=\"verdict\">", to: "</section>")
        #expect(
            try Self.findings(html).first
                == "Recommended: policy.backoff.base=500ms, policy.backoff.max=8s, with time to success p99 among successes 13.6 s (±0.5) on the 2 replications that chose it and 13.9 s (±6.1) on 2 fresh ones."
        )
        #expect(verdict.contains("<p class=\"recommendation\">policy.backoff.base=500ms, policy.backoff.max=8s</p>"))
        #expect(
            verdict.contains(
                "<tr><th scope=\"row\">peak load / capacity: at most 3.3×</th><td>3.10×</td><td>3.00×</td><td><span class=\"noise\">within noise of the bound</span> (95% CI [0.14, 5.86])</td></tr>"
            ))
        #expect(
            verdict.contains(
                "<tr><th scope=\"row\">gave up: at most 160</th><td>146</td><td>144</td><td><span class=\"noise\">within noise of the bound</span> (95% CI [17, 271])</td></tr>"
            ))
        let runners = try Self.slice(verdict, from: "<h3>Runners-up</h3>", to: "</table>")
        #expect(
            runners.contains(
                "<tr><th scope=\"row\">base=1s+<wbr>max=8s</th><td>19.3<span class=\"ci\">±7.5</span></td><td>+5.7 s [-1.4, 12.8]; on the fresh replications +5.1 s [-4.1, 14.3]</td><td>within noise</td></tr>"
            ))
        #expect(runners.contains("<td>+12.0 s [3.3, 20.8]</td><td>worse</td>"))
        #expect(runners.contains("<th scope=\"row\">base=1s+<wbr>max=2s (breaks a constraint)</th>"))
        #expect(
            verdict.contains(
                "<tr><th scope=\"row\">tts_success_p99_s&lt;=20</th><td>the recommendation, on 2 fresh replications</td><td><span class=\"pass\">pass</span></td><td>13.9 s</td><td>at most 20 s</td></tr>"
            ))
        #expect(verdict.contains("The gate passes."))
    }

    /// sweep/tune.csv ranks base=500ms+max=8s, base=1s+max=8s, base=1s+max=30s, base=1s+max=2s,
    /// base=500ms+max=2s, base=250ms+max=2s, base=250ms+max=8s.
    @Test("tune and sweep tables in rank order")
    func rankOrder() throws {
        let ranked = [
            "base=500ms+max=8s", "base=1s+max=8s", "base=1s+max=30s", "base=1s+max=2s", "base=500ms+max=2s",
            "base=250ms+max=2s", "base=250ms+max=8s"
        ]
        let load = try Self.slice(try Self.page("sweep"), from: "<h3>Load</h3>", to: "</table>")
        // Each row opens with its rank, then its point: "1</th><th scope="row">base=500ms+max=8s</th>".
        let rows = load.components(separatedBy: "<tr><th scope=\"row\">").dropFirst()
        #expect(rows.map { String($0.prefix(while: { $0 != "<" })) } == ranked.indices.map { String($0 + 1) })
        // A point's name may break after each "+" (<wbr>), so that an 800 px page holds the table.
        #expect(rows.map { try? Self.slice($0, from: "<th scope=\"row\">", to: "</th>") } == ranked.map { $0.replacing("+", with: "+<wbr>") })
        // A sweep without a tune: by the mean of its default objective, p99, lowest first
        // (sweep-invalid/sweep.csv: 1.18, 5.78, 6.88, 8.15, 19.3, 22.1 s).
        let time = try Self.slice(try Self.page("sweep-invalid"), from: "<h3>Time</h3>", to: "</table>")
        let names = time.components(separatedBy: "<tr><th scope=\"row\">").dropFirst().map {
            (try? Self.slice($0, from: "<th scope=\"row\">", to: "</th>"))?.replacing("+<wbr>", with: "+")
        }
        #expect(
            names == [
                "base=250ms+max=500ms", "base=250ms+max=2s", "base=250ms+max=8s", "base=1s+max=2s",
                "base=1s+max=8s", "base=4s+max=8s"
            ])
    }
}
