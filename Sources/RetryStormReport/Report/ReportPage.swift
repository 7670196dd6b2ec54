import Foundation
import RetryStormResults
import RetryStormVocabulary

/// report.html: a document for a design review, verdict first, in one self-contained page (no
/// external CSS, scripts, fonts or images: it opens offline and can be mailed as one file).
///
/// 1. The first screen: the question (the scenario's description), the findings (``Findings``),
///    for a tune its recommendation (``TuneSection``), and the release gates (``GateResults``).
/// 2. Every chart inline as SVG, each with its caption.
/// 3. The full tables (``ReportTables``): points as rows, metrics grouped by load, outcome and time.
/// 4. What reproduces the page: the command line, seed, replications, version and the scenario text.
///
/// Nothing on the page is wider than the page, at any width from 320 px and on A4 or Letter paper:
/// tables grow downward, long words wrap, charts scale (`make check-report` renders it in Chromium
/// to check). The page holds no date, path or wall-clock figure: the same results give the same
/// bytes, whether the command wrote it or `retrystorm report DIR` did.
public enum ReportPage {
    /// The page for `run`, with `charts` inline in their order.
    public static func html(_ run: RunDirectory, charts: [NamedChart]) -> String {
        let d = ReportData(run)
        let name = run.scenario.base.name
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="RetryStorm \(HTML.escape(RetryStormVersion.current))">
            <title>\(HTML.escape("\(name) — RetryStorm report"))</title>
            <style>
            \(ReportStyle.css)
            </style>
            </head>
            <body>
            <main>
            <header>

            """
        out += HTML.element("p", headline(d), class: "kind") + "\n"
        out += HTML.element("h1", name) + "\n"
        let question = run.scenario.description.trimmingWhitespace()
        if !question.isEmpty { out += HTML.element("p", question, class: "question") + "\n" }
        out += "</header>\n<section class=\"verdict\">\n"
        out += HTML.element("h2", "Findings") + "\n<ul class=\"findings\">\n"
        for sentence in Findings.sentences(d) { out += HTML.element("li", sentence) + "\n" }
        out += "</ul>\n"
        out += TuneSection.html(d)
        out += GateResults(d).html
        out += "</section>\n"
        out += LawsSection.html(d)

        if !charts.isEmpty {
            out += HTML.element("h2", "Charts") + "\n"
            for chart in charts {
                out += "<figure>\n" + chart.chart.svg()
                out +=
                    "<figcaption>" + HTML.escape(chart.caption) + " <span class=\"file\">" + HTML.escape(chart.fileName)
                    + "</span></figcaption>\n</figure>\n"
            }
        }
        out += ReportTables.html(d)
        out += reproduce(d)
        out +=
            HTML.element(
                "footer",
                "Made by RetryStorm \(RetryStormVersion.current) from this directory's results (`retrystorm report DIR` writes the same page again); the same results give the same page, byte for byte."
            ) + "\n"
        out += "</main>\n</body>\n</html>\n"
        return out
    }

    /// "compare · 5 variants · 10 replications each · seed 2015".
    static func headline(_ d: ReportData) -> String {
        let results = d.run.results
        var parts = ["RetryStorm \(results.isMap ? "map" : results.kind.rawValue)"]
        switch results.kind {
        case .run: break
        case .compare: parts.append("\(d.names.count) variants")
        case .sweep, .tune: parts.append("\(d.names.count) points over \(results.parameterPaths.joined(separator: " × "))")
        }
        parts.append(replicationsText(d))
        parts.append(seedsText(d))
        return parts.joined(separator: " · ")
    }

    static func replicationsText(_ d: ReportData) -> String {
        var counts: [String: Int] = [:]
        for s in d.run.results.summaries { counts[s.variant, default: 0] += 1 }
        let low = counts.values.min() ?? 0
        let high = counts.values.max() ?? 0
        let each = d.names.count > 1 ? " each" : ""
        return low == high ? "\(high) replication\(high == 1 ? "" : "s")\(each)" : "\(low)–\(high) replications\(each)"
    }

    /// The scenario seeds of the summaries (one, unless a variant sets its own), in order.
    static func seeds(_ d: ReportData) -> [UInt64] {
        var seeds: [UInt64] = []
        for s in d.run.results.summaries where !seeds.contains(s.seed) { seeds.append(s.seed) }
        return seeds
    }

    static func seedsText(_ d: ReportData) -> String {
        let seeds = seeds(d)
        return (seeds.count == 1 ? "seed " : "seeds ") + seeds.map(String.init).joined(separator: ", ")
    }

    /// The command line, seed, replications, version and the scenario text.
    static func reproduce(_ d: ReportData) -> String {
        var out = HTML.element("h2", "Reproduce") + "\n"
        if let command = d.run.results.command {
            out +=
                HTML.element(
                    "p",
                    "The command that made these results (run from the directory it was run in; --out, --jobs and other options that change no result are left out):",
                    class: "note") + "\n"
            out += "<pre class=\"command\"><code>" + HTML.escape(command.line) + "</code></pre>\n"
        } else {
            out +=
                HTML.element(
                    "p",
                    "The command was not recorded (results written before RetryStorm kept command.txt): the scenario below, its seed and replications reproduce them.",
                    class: "note") + "\n"
        }
        var items: [(String, String)] = [
            ("seed", seeds(d).map(String.init).joined(separator: ", ")),
            ("replications", replicationsText(d))
        ]
        if let clients = d.run.results.summaries.first?.clients { items.append(("clients", ColumnFormat.count(clients))) }
        items.append(("RetryStorm", RetryStormVersion.current))
        out += "<dl class=\"facts\">\n"
        for (term, value) in items {
            out += "<div><dt>\(HTML.escape(term))</dt><dd>\(HTML.escape(value))</dd></div>\n"
        }
        out += "</dl>\n"
        out += HTML.element("h3", "Scenario") + "\n"
        out += "<pre class=\"scenario\">" + HTML.escape(d.run.scenario.resultsText) + "</pre>\n"
        return out
    }
}
