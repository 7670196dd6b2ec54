import RetryStormResults
import RetryStormScenario
/// report.html: one self-contained page to hand round at a design review — the question, the
/// numbers with their confidence intervals, every chart inline as SVG, and the scenario text —
/// with no external CSS, scripts, fonts or images, so it opens offline in any browser.
///
/// The page holds no date, path or wall-clock figure: the same CSVs give the same bytes.
public enum ReportPage {
    /// The page for `run`, with `charts` inline in their order.
    public static func html(_ run: RunDirectory, charts: [NamedChart]) -> String {
        let name = run.scenario.base.name
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="RetryStorm \(HTML.escape(RetryStormVersion.current))">
            <title>\(HTML.escape("RetryStorm report — \(name)"))</title>
            <style>
            \(ReportStyle.css)
            </style>
            </head>
            <body>
            <main>

            """
        out += HTML.element("h1", "Retry storm report — \(name)") + "\n"
        let question = run.scenario.description.trimmingWhitespace()
        if !question.isEmpty { out += HTML.element("p", question, class: "question") + "\n" }
        out += facts(run)

        out += HTML.element("h2", "Summary") + "\n"
        out += ReportTables.summary(run).html
        out += HTML.element("p", summaryNote(run), class: "note") + "\n"
        if run.results.kind == .compare {
            out += HTML.element("h2", "Compare") + "\n"
            out += ReportTables.compare(run.metrics).html
            out += HTML.element("p", "From compare.csv: mean and [95% confidence interval] over replications; ★ best mean where lower or higher is better.", class: "note") + "\n"
        }
        if run.isSweep, !run.metrics.parameterPaths.isEmpty {
            let plan = SweepPlan(run.tuning)
            out += HTML.element("h2", "Sweep") + "\n"
            out += ReportTables.sweep(run, plan: plan).html
            var note = "From sweep.csv: mean and [95% confidence interval] over replications."
            if !plan.constraints.isEmpty { note += " Constraints: \(SweepPlan.text(plan.constraints))." }
            if run.tuning?.chosenPoint.isEmpty == false { note += " ★ tuned: the choice in tune.json." }
            out += HTML.element("p", note, class: "note") + "\n"
        }

        out += HTML.element("h2", "Charts") + "\n"
        for chart in charts {
            out += "<figure>\n" + chart.chart.svg() + HTML.element("figcaption", chart.fileName) + "\n</figure>\n"
        }
        out += HTML.element("h2", "Scenario") + "\n"
        out += "<pre>" + HTML.escape(run.scenario.text) + "</pre>\n"
        out += HTML.element("footer", "Made by RetryStorm \(RetryStormVersion.current) from this run's CSV files (`retrystorm report DIR`); the same files give the same page.") + "\n"
        out += "</main>\n</body>\n</html>\n"
        return out
    }

    /// Seed, replications, variants, clients and version, as a definition list.
    static func facts(_ run: RunDirectory) -> String {
        let names = run.metrics.names
        var seeds: [String] = []
        for seed in run.results.summaries.map({ String($0.seed) }) where !seeds.contains(seed) { seeds.append(seed) }
        let counts = names.map { run.metrics.interval($0, "operations")?.count ?? 0 }
        let low = counts.min() ?? 0, high = counts.max() ?? 0
        var items: [(String, String)] = [
            ("seed", seeds.joined(separator: ", ")),
            ("replications", low == high ? "\(high)" : "\(low)–\(high)"),
            ("variants", names.count <= ReportTables.maxColumns ? names.joined(separator: ", ") : "\(names.count)"),
        ]
        if let clients = ChartContext(run: run).clientsText { items.append(("clients", String(clients.dropLast(" clients".count)))) }
        items.append(("RetryStorm", RetryStormVersion.current))
        var out = "<dl class=\"facts\">\n"
        for (term, value) in items {
            out += "<div><dt>\(HTML.escape(term))</dt><dd>\(HTML.escape(value))</dd></div>\n"
        }
        return out + "</dl>\n"
    }

    static func summaryNote(_ run: RunDirectory) -> String {
        var note = "From summary.csv: mean and [95% confidence interval, Student t] over replications."
        if run.metrics.names.count > 1 {
            note += " ★ best mean where lower or higher is better; overlapping intervals mean the difference may be noise."
        }
        if run.metrics.names.count > ReportTables.maxColumns {
            note += " First \(ReportTables.maxColumns) of \(run.metrics.names.count) variants shown."
        }
        return note
    }

    /// Builds the charts and writes `report.html` into the run directory at `path`.
    /// - Returns: the path written.
    /// - Throws: ``ResultsError`` for bad input or when the file cannot be written.
    @discardableResult
    public static func write(directory path: String) throws(ResultsError) -> String {
        let run = try RunDirectory.load(path: path)
        let page = html(run, charts: ChartSet.charts(for: run))
        let file = RunDirectory.file(path, "report.html")
        try ChartSet.writeAtomically(page, to: file)
        return file
    }
}
