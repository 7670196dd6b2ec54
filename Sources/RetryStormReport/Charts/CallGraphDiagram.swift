import GSLSupport
import RetryStormEngine
import RetryStormResults
import SVGCharts

/// `graph.svg`: the call graph as boxes and arrows (``GraphDiagram``), for the point the report
/// leads with (the first in its order: the base or first variant, a tune's recommendation, a
/// sweep's first by its objective), so a reader sees who calls whom before the charts per service.
///
/// Each box: the service, its requests per user operation and its peak load over its own
/// capacity (services.csv's `requests_per_operation` and `peak_load_ratio`, means over
/// replications). Each arrow: its stage where its caller's calls run in several, the calls per
/// request when more than one ("×3 at once" for a parallel fan-out), the attempts per call on
/// that edge and the requests per user operation it carries. The focus (``FocusService``) has a vermillion border and a "focus" tag. Only for call
/// graphs.
enum CallGraphDiagram {
    static let fileName = "graph.svg"

    static func build(_ context: ChartContext) -> NamedChart? {
        let run = context.run
        guard !run.results.services.isEmpty else { return nil }
        let names = run.metrics.names
        guard let first = ReportData.order(run).order.first, names.indices.contains(first) else { return nil }
        let point = names[first]
        let services = context.scenario(for: point).services
        guard !services.isEmpty else { return nil }
        let focus = run.metrics.focus?.name
        let tables = run.metrics.services
        func mean(_ service: String, _ metric: Metric) -> Double { tables[service]?.interval(point, metric)?.mean ?? .nan }
        // The same digits as the call-graph section's table, which formats over every point.
        let perOperation = ColumnFormat(
            metric: .requestsPerOperation, values: services.flatMap { s in names.compactMap { tables[s.name]?.interval($0, .requestsPerOperation) } })
        let peak = ColumnFormat(metric: .peakLoadRatio, values: services.compactMap { tables[$0.name]?.interval(point, .peakLoadRatio) })
        let nodes = services.map { s in
            GraphDiagram.Node(
                name: s.name,
                lines: ["\(perOperation.number(mean(s.name, .requestsPerOperation))) req/op", "peak \(peak.number(mean(s.name, .peakLoadRatio)))×"],
                isFocus: s.name == focus)
        }
        let edges = edgeValues(run, point: point, services: services)
        let perCall = ColumnFormat(metric: .attemptsPerCall, values: edges.compactMap { $0.values?.perCall })
        let onEdge = ColumnFormat(metric: .requestsPerOperation, values: edges.compactMap { $0.values?.perOperation })
        let arrows = edges.map { e in
            let call = services[e.from].calls[e.call]
            var label: [String] = []
            if let stage = call.stage, staged(services[e.from]) { label.append("stage \(stage)") }
            if call.count > 1 { label.append("×\(call.count) \(call.parallel ? "at once" : "in turn")") }
            if let v = e.values {
                label += ["\(perCall.number(v.perCall.mean)) att/call", "\(onEdge.number(v.perOperation.mean)) req/op"]
            } else {
                label.append("—")
            }
            return GraphDiagram.Edge(from: e.from, to: call.to, label: label)
        }
        let counts = services.compactMap { tables[$0.name]?.interval(point, .requestsPerOperation)?.count }
        var parts = [names.count > 1 ? point : "", context.replicationsText(counts)]
        parts.append("boxes: requests per user operation, peak load ÷ capacity")
        parts.append("arrows: attempts per call, requests per user operation on the edge")
        let diagram = GraphDiagram(
            title: context.title("Call graph"), subtitle: parts.filter { !$0.isEmpty }.joined(separator: " · "), nodes: nodes, edges: arrows,
            focusLegend: focus.map { f in "focus: \(f), \(run.metrics.focus?.why ?? "")" } ?? "focus")
        var caption =
            "Who calls whom, callers on the left: each service with the requests one user operation puts on it and its peak load over its own capacity; each arrow with its attempts per call (its retries and hedged copies) and the requests per user operation it carries."
        if services.contains(where: { $0.calls.contains { $0.count > 1 } }) {
            caption += " \"×N at once\": each request makes N calls in parallel (\"×N in turn\": one after another)."
        }
        if services.contains(where: staged) {
            caption += " \"stage N\": the calls of one stage go out together, stages in order."
        }
        if focus != nil { caption += " The red border and tag mark the focus, the service the report's verdicts look at." }
        if edges.contains(where: { $0.values == nil }) {
            caption += " \"—\": not measured per edge (a result directory without edges.csv, for a service with several callers)."
        }
        if names.count > 1 { caption += " Values of \(point), the first point of the tables." }
        return NamedChart(fileName: fileName, chart: diagram, caption: caption)
    }

    /// Whether `service`'s calls run in more than one stage (a single stage says nothing).
    static func staged(_ service: Scenario.Service) -> Bool {
        Set(service.calls.map(\.stage)).count > 1
    }

    /// One edge of the graph: the `call`-th call of service `from`, and what it carried (nil: unknown).
    struct EdgeValues {
        var from: Int
        var call: Int
        var values: (perCall: ConfidenceInterval, perOperation: ConfidenceInterval)?
    }

    /// Every edge's attempts per call and requests per user operation, means over replications:
    /// from edges.csv, replication by replication, its `attempts` over its `calls` and over the
    /// user operations (the first service's `calls` in services.csv). A result directory written
    /// before edges.csv falls back on services.csv, exact for a callee with one caller (its
    /// `attempts_per_call` and `requests_per_operation` are that edge's), unknown for one with several.
    static func edgeValues(_ run: RunDirectory, point: String, services: [Scenario.Service]) -> [EdgeValues] {
        let records = run.results.edges.filter { $0.variant == point }
        let first = services.first?.name
        var operations: [Int: Double] = [:]
        for r in run.results.services where r.variant == point && r.service == first { operations[r.replication] = r.value(.calls) }
        var callers = [Int](repeating: 0, count: services.count)
        for s in services { for call in s.calls where callers.indices.contains(call.to) { callers[call.to] += 1 } }
        var out: [EdgeValues] = []
        for (i, s) in services.enumerated() {
            for (k, call) in s.calls.enumerated() where services.indices.contains(call.to) {
                let callee = services[call.to].name
                var values: (ConfidenceInterval, ConfidenceInterval)?
                let own = records.filter { $0.caller == s.name && $0.callee == callee }
                if !own.isEmpty {
                    var perCall: [Double] = []
                    var perOperation: [Double] = []
                    for r in own {
                        guard let attempts = r.value(.attempts), let calls = r.value(.calls) else { continue }
                        if calls > 0 { perCall.append(attempts / calls) }
                        if let ops = operations[r.replication], ops > 0 { perOperation.append(attempts / ops) }
                    }
                    if !perCall.isEmpty && !perOperation.isEmpty {
                        values = (Statistics.confidenceInterval95(perCall), Statistics.confidenceInterval95(perOperation))
                    }
                } else if callers[call.to] == 1, let table = run.metrics.services[callee],
                    let a = table.interval(point, .attemptsPerCall), let r = table.interval(point, .requestsPerOperation)
                {
                    values = (a, r)
                }
                out.append(EdgeValues(from: i, call: k, values: values))
            }
        }
        return out
    }
}
