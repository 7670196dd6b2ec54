import RetryStormEngine
import RetryStormResults

/// The laws beside the runs: `retrystorm explain`'s verdict on each point of a run or a compare
/// whose scenario has a trigger, next to the share of its replications stuck at the horizon. The
/// laws come from each point's scenario as it ran (scenario.yaml with the command's `--set`, a
/// declared variant's keys or a `--vary` value: ``RunDirectory/scenario(for:)``), so
/// `retrystorm report DIR` draws the same section. Nothing for sweeps, tunes and maps, without
/// a trigger, or when the laws give no point a verdict (they hold nowhere).
enum LawsSection {
    static func html(_ d: ReportData) -> String {
        let results = d.run.results
        guard results.kind == .run || results.kind == .compare, !results.isMap else { return "" }
        var table = ReportTable(
            header: [.init("variant"), .init("the laws (retrystorm explain)"), .init("the runs: stuck at the horizon", unit: "%")],
            labelColumns: 1, className: "laws")
        var judged = false
        for p in d.order {
            let name = d.names[p]
            let scenario = d.run.scenario(for: name)
            guard scenario.trigger != nil else { continue }
            let explanation = Explainer.explain(scenario)
            judged = judged || explanation.decided
            var verdict = explanation.verdict
            if verdict.hasPrefix("explain: ") { verdict.removeFirst("explain: ".count) }
            table.rows.append([.text(name), .text(verdict), .value(d.interval(p, .stuck), d.format(.stuck))])
        }
        guard judged else { return "" }
        return HTML.element("h2", "The laws beside the runs") + "\n"
            + HTML.element(
                "p",
                "What the laws of a retrying FIFO server that serves abandoned work say, without simulating (docs/models.md, \"Explain: the laws\"), beside what the replications measured. A law that does not hold for a point says why.",
                class: "note") + "\n" + table.html
    }
}
