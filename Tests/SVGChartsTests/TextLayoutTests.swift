import SVGCharts
import Testing

/// No label may overlap another label or leave the canvas, in any chart
/// kind: with 1, 5, 12 and 20 series or categories, long names, extreme and
/// non-finite values, no data, and on a small canvas.
struct TextLayoutTests {
    static let counts = [1, 5, 12, 20]
    static let sizes = [ChartSize.standard, ChartSize(width: 480, height: 320)]

    static func name(_ i: Int) -> String {
        [
            "no jitter", "exponential + full jitter (base 10 ms, cap 30 s)", "token bucket retry budget 10%",
            "breaker", "adaptive throttling k = 2", "Retry-After honoured, capped at 5 s"
        ][i % 6] + " \(i)"
    }

    static func check(_ chart: any Chart, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let svg = chart.svg()
        #expect(SVGCheck.problems(svg) == [], "\(what)", sourceLocation: sourceLocation)
        #expect(TextLayoutCheck.problems(svg) == [], "\(what)", sourceLocation: sourceLocation)
    }

    @Test(arguments: GoldenTests.cases.map(\.0))
    func goldens(name: String) throws {
        let chart = try #require(GoldenTests.cases.first { $0.0 == name }?.1)
        Self.check(chart, name)
    }

    /// Values that stress the axes: ordinary, spanning 600 decades, equal,
    /// and with NaN and infinities mixed in.
    static let valueSets: [(String, [Double])] = [
        ("ordinary", [0.012, 0.3, 1.9, 45, 0.8]),
        ("extreme", [1e-300, 1e300, 5e-324, 1.7e308, 3]),
        ("equal", [2, 2, 2, 2, 2]),
        ("non-finite", [.nan, .infinity, 0.5, -.infinity, 1])
    ]

    @Test(arguments: counts)
    func dotPlots(count: Int) {
        for (label, values) in Self.valueSets {
            for scale in [Axis.Scale.linear, .log] {
                for size in Self.sizes {
                    for seriesCount in 1...3 {
                        let chart = DotPlot(
                            title: "Peak load by retry policy, \(label)", subtitle: "whiskers: 95% CI",
                            categoryLabel: "retry policy",
                            valueAxis: Axis(label: "peak load", scale: scale, format: .duration),
                            series: ["p50", "p99", "p99.9"].prefix(seriesCount).map { $0 },
                            categories: (0..<count).map { i in
                                DotPlot.Category(
                                    name: Self.name(i),
                                    estimates: (0..<seriesCount).map { s in
                                        let v = values[(i + s) % values.count]
                                        return Estimate(v, low: v * 0.9, high: v * 1.1)
                                    })
                            },
                            references: [.init(value: 1, label: "capacity 1×"), .init(value: 0.5, label: "half")],
                            highlight: Self.name(count / 2), size: size)
                        Self.check(chart, "dots \(count) \(label) \(scale) \(seriesCount) \(size.width)")
                    }
                }
            }
        }
    }

    @Test(arguments: counts)
    func lineCharts(count: Int) {
        for (label, values) in Self.valueSets {
            for size in Self.sizes {
                let tail = LineChart(
                    title: "Time to success in the tail, \(label)",
                    xAxis: Axis(label: "percentile", scale: .tailPercentile),
                    yAxis: Axis(label: "time to success", scale: .log, format: .duration),
                    series: (0..<count).map { i in
                        Series(
                            name: Self.name(i), x: [50, 90, 99, 99.9, 99.99],
                            y: (0..<5).map { values[($0 + i) % values.count] }, marksPoints: true)
                    },
                    annotations: [.yReference(at: 10, label: "SLO 10 s")], size: size)
                Self.check(tail, "tail \(count) \(label) \(size.width)")
                let time = LineChart(
                    title: "Load, \(label)", xAxis: Axis(label: "time", format: .duration),
                    yAxis: Axis(label: "requests per second"),
                    series: (0..<count).map { i in
                        Series(
                            name: Self.name(i), x: [0, 60, 3600, 7200],
                            y: (0..<4).map { values[($0 + i) % values.count] })
                    },
                    annotations: [.xInterval(from: 60, to: 90, label: "outage"), .xMarker(at: 600, label: "recovered")],
                    size: size)
                Self.check(time, "time \(count) \(label) \(size.width)")
            }
        }
    }

    @Test(arguments: counts)
    func intervalLines(count: Int) {
        for (label, values) in Self.valueSets {
            for scale in [Axis.Scale.linear, .log] {
                for size in Self.sizes {
                    let xs: [Double] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1]
                    let chart = IntervalLineChart(
                        title: "Sweep, \(label)", subtitle: "means and 95% CI",
                        xAxis: Axis(label: "base delay", scale: scale, format: .duration),
                        yAxis: Axis(label: "p99", scale: scale, format: .duration),
                        lines: (0..<count).map { i in
                            IntervalLineChart.Line(
                                name: Self.name(i),
                                points: xs.enumerated().map { k, x in
                                    let v = values[(k + i) % values.count]
                                    return IntervalLineChart.Point(x: x, value: v, low: v * 0.8, high: v * 1.2)
                                })
                        },
                        highlight: .init(line: 0, x: 0.1, label: "recommended: base 100 ms, the best p99 seen"),
                        annotations: [.yReference(at: 1, label: "SLO 1 s")], size: size)
                    Self.check(chart, "sweep \(count) \(label) \(scale) \(size.width)")
                }
            }
        }
    }

    @Test(arguments: counts)
    func heatmaps(count: Int) {
        for (label, values) in Self.valueSets {
            for size in Self.sizes {
                let xs = (0..<count).map { 0.001 * Double($0 + 1) * Double($0 + 1) }
                let chart = Heatmap(
                    title: "Grid, \(label)", subtitle: "p99 by base and max delay",
                    xLabel: "base delay", yLabel: "max delay",
                    columns: xs.map(NumberFormat.duration), rows: (0..<count).map { Self.name($0) },
                    values: (0..<count).map { r in (0..<count).map { c in values[(r + c) % values.count] } },
                    colorAxis: Axis(label: "p99", scale: label == "extreme" ? .log : .linear, format: .duration),
                    columnPlacement: .log(xs),
                    meetsConstraints: [.init(column: 0, row: 0)], chosen: .init(column: count - 1, row: 0),
                    chosenLabel: "tuned choice", invalid: [.init(column: 0, row: count - 1)], size: size)
                Self.check(chart, "heatmap \(count) \(label) \(size.width)")
            }
        }
    }

    @Test(arguments: counts)
    func barsAndMultiples(count: Int) {
        for (label, values) in Self.valueSets {
            for size in Self.sizes {
                let bars = BarChart(
                    title: "Attempts, \(label)", categoryLabel: "policy", yAxis: Axis(label: "attempts", scale: .log),
                    groups: ["a", "b"],
                    categories: (0..<count).map { i in
                        BarChart.Category(
                            name: Self.name(i),
                            bars: [
                                .init(value: values[i % values.count]), .init(value: values[(i + 1) % values.count])
                            ])
                    },
                    best: Self.name(0), size: size)
                Self.check(bars, "bars \(count) \(label) \(size.width)")
                let multiples = SmallMultiples(
                    title: "Panels, \(label)", xAxis: Axis(label: "time", format: .duration),
                    yAxis: Axis(label: "rps"),
                    panels: (0..<count).map { i in
                        .init(
                            title: Self.name(i),
                            series: [
                                Series(name: "attempts", x: [0, 10, 20], y: (0..<3).map { values[($0 + i) % values.count] })
                            ])
                    }, size: size)
                Self.check(multiples, "multiples \(count) \(label) \(size.width)")
            }
        }
    }

    @Test func emptyCharts() {
        Self.check(
            DotPlot(
                title: "empty", categoryLabel: "c", valueAxis: Axis(label: "v", scale: .log),
                series: [], categories: []), "empty dots")
        Self.check(
            IntervalLineChart(
                title: "empty", xAxis: Axis(label: "x", scale: .log),
                yAxis: Axis(label: "y"), lines: [], highlight: .init(x: 1, label: "nothing")),
            "empty sweep")
        Self.check(
            LineChart(
                title: "empty", xAxis: Axis(label: "p", scale: .tailPercentile),
                yAxis: Axis(label: "t", format: .duration), series: []), "empty tail")
        Self.check(
            Heatmap(
                title: "empty", xLabel: "x", yLabel: "y", columns: [], rows: [], values: [],
                colorAxis: Axis(label: "v", format: .duration)), "empty heatmap")
    }
}
