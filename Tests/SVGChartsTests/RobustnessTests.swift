import Foundation
import SVGCharts
import Testing

/// Hostile inputs must still give a valid SVG with no "nan"/"inf" in it.
struct RobustnessTests {
    static let nasty: [Double] = [.nan, .infinity, -.infinity]

    static let lineCases: [(String, [Series])] = [
        ("no series", []),
        ("empty series", [Series(name: "a", points: [])]),
        ("single point", [Series(name: "a", points: [DataPoint(x: 1, y: 1)])]),
        ("all non-finite", [Series(name: "a", x: nasty, y: nasty)]),
        ("non-finite y", [Series(name: "a", x: [0, 1, 2], y: nasty, style: .area)]),
        ("all equal", [Series(name: "a", x: [1, 1, 1], y: [7, 7, 7], style: .step)]),
        ("huge", [Series(name: "a", x: [0, 1e300, 1.7e308], y: [-1.7e308, 0, 1.7e308])]),
        ("tiny", [Series(name: "a", x: [0, 1e-300, 2e-300], y: [Double.leastNonzeroMagnitude, 1e-300 / 1e10, 3e-300 / 1e10])]),
        ("mixed", [Series(name: "a", x: [0, 1, 2, 3], y: [1, .nan, 1e12, -1e-12], style: .step)])
    ]

    @Test(arguments: lineCases.map(\.0))
    func lineChart(caseName: String) throws {
        let series = try #require(Self.lineCases.first { $0.0 == caseName }?.1)
        for (xScale, yScale) in [(Axis.Scale.linear, Axis.Scale.linear), (.log, .log)] {
            let chart = LineChart(
                title: caseName, xAxis: Axis(label: "x", scale: xScale), yAxis: Axis(label: "y", scale: yScale),
                series: series
                    + series.map {
                        var s = $0
                        s.name += " 2"
                        return s
                    },
                annotations: [
                    .xInterval(from: .nan, to: 3, label: "band"), .xMarker(at: .infinity, label: "m"),
                    .yReference(at: 1, label: "ref")
                ])
            #expect(SVGCheck.problems(chart.svg()) == [], "\(caseName) \(xScale)")
            let stacked = StackedChart(
                title: caseName, xAxis: Axis(label: "x", scale: xScale),
                yAxis: Axis(label: "y"), series: series)
            #expect(SVGCheck.problems(stacked.svg()) == [], "stacked \(caseName)")
            let cdf = CDFChart(
                title: caseName, xAxis: Axis(label: "x", scale: xScale, format: .duration),
                series: series)
            #expect(SVGCheck.problems(cdf.svg()) == [], "cdf \(caseName)")
            let multiples = SmallMultiples(
                title: caseName, xAxis: Axis(label: "x", scale: xScale), yAxis: Axis(label: "y", scale: yScale),
                panels: [.init(title: "p", series: series), .init(title: "q", series: [])])
            #expect(SVGCheck.problems(multiples.svg()) == [], "multiples \(caseName)")
        }
    }

    @Test func fixedAxisRangesClipData() {
        let chart = LineChart(
            title: "clipped", xAxis: Axis(label: "x", min: 2, max: 4), yAxis: Axis(label: "y", min: 0, max: 1),
            series: [Series(name: "a", x: [0, 1, 3, 5, 9], y: [-5, 0.5, 9, 0.5, 1e200], style: .area)])
        #expect(SVGCheck.problems(chart.svg()) == [])
    }

    @Test func cdfWithOnlyZerosAndNegatives() {
        let chart = CDFChart(
            title: "zeros", xAxis: Axis(label: "t", scale: .log, format: .duration),
            series: [.empiricalCDF(name: "z", samples: [0, 0, -1, .nan])])
        let svg = chart.svg()
        #expect(SVGCheck.problems(svg) == [])
        #expect(svg.contains("<path"))
    }

    @Test func empiricalCDFThinsAndEndsAtOne() {
        let samples = (0..<100_000).map { Double($0 % 977) }
        let series = Series.empiricalCDF(name: "s", samples: samples, maxPoints: 200)
        #expect(series.points.count <= 200)
        #expect(series.points.last == DataPoint(x: 976, y: 1))
        let small = Series.empiricalCDF(name: "s", samples: [3, 1, 2, 2])
        #expect(small.points == [DataPoint(x: 1, y: 0.25), DataPoint(x: 2, y: 0.75), DataPoint(x: 3, y: 1)])
    }

    @Test func barChartEdgeCases() {
        let charts = [
            BarChart(title: "empty", categoryLabel: "c", yAxis: Axis(label: "y"), groups: [], categories: []),
            BarChart(
                title: "non-finite", categoryLabel: "c", yAxis: Axis(label: "y", scale: .log), groups: ["a", "b"],
                categories: [
                    .init(name: "x", bars: [.init(value: .nan, low: .nan, high: 3), .init(value: 0)]),
                    .init(name: "y", bars: [.init(value: -4, low: -5, high: .infinity)])
                ], best: "y"),
            BarChart(
                title: "many", categoryLabel: "c", yAxis: Axis(label: "y"), groups: ["g"],
                categories: (0..<60).map { .init(name: "category number \($0)", bars: [.init(value: Double($0))]) },
                best: "missing")
        ]
        for chart in charts { #expect(SVGCheck.problems(chart.svg()) == [], "\(chart.title)") }
    }

    @Test func heatmapEdgeCases() {
        let charts = [
            Heatmap(
                title: "empty", xLabel: "x", yLabel: "y", columns: [], rows: [], values: [],
                colorAxis: Axis(label: "v")),
            Heatmap(
                title: "all missing", xLabel: "x", yLabel: "y", columns: ["a", "b"], rows: ["c"],
                values: [[.nan, .infinity]], colorAxis: Axis(label: "v", scale: .log),
                meetsConstraints: [.init(column: 5, row: 5)], chosen: .init(column: -1, row: 0)),
            Heatmap(
                title: "ragged, constant", xLabel: "x", yLabel: "y", columns: ["a", "b", "c"], rows: ["r", "s"],
                values: [[1, 1], [1]], colorAxis: Axis(label: "v"),
                meetsConstraints: [.init(column: 0, row: 0), .init(column: 1, row: 0)],
                chosen: .init(column: 0, row: 1)),
            Heatmap(
                title: "hostile placement", xLabel: "x", yLabel: "y", columns: ["a", "b", "c"], rows: ["r", "s"],
                values: [[0, -1, 1e300], [5e-324, .nan, 1]], colorAxis: Axis(label: "v", scale: .log, format: .duration),
                columnPlacement: .log([1, 1e300, 1.7e308]), rowPlacement: .linear([.infinity, 1]),
                chosen: .init(column: 2, row: 1), invalid: [.init(column: 0, row: 0), .init(column: 9, row: 9)]),
            Heatmap(
                title: "all invalid", xLabel: "x", yLabel: "y", columns: ["a"], rows: ["r"], values: [[1]],
                colorAxis: Axis(label: "v", format: .percent), columnPlacement: .linear([3]),
                invalid: [.init(column: 0, row: 0)], size: ChartSize(width: 1, height: 1))
        ]
        for chart in charts { #expect(SVGCheck.problems(chart.svg()) == [], "\(chart.title)") }
    }

    @Test func dotPlotEdgeCases() {
        let hostile: [DotPlot.Category] = [
            .init(name: "not a number", estimates: [Estimate(.nan, low: 1, high: 2), nil]),
            .init(name: "reversed", estimates: [Estimate(5, low: 7, high: 3), Estimate(-1, low: -2, high: 0)]),
            .init(name: "infinite", estimates: [Estimate(3, low: -.infinity, high: .infinity), Estimate(.infinity)]),
            .init(name: "huge", estimates: [Estimate(1.7e308, low: 1e300, high: 1.7e308), Estimate(5e-324)]),
            .init(name: "more estimates than series", estimates: [Estimate(1), Estimate(2), Estimate(3), Estimate(4)])
        ]
        for scale in [Axis.Scale.linear, .log] {
            let charts = [
                DotPlot(
                    title: "hostile", categoryLabel: "c", valueAxis: Axis(label: "v", scale: scale), series: ["a"],
                    categories: hostile, references: [.init(value: .nan, label: "undefined"), .init(value: 1, label: "one")],
                    highlight: "missing"),
                DotPlot(
                    title: "clipped", categoryLabel: "c",
                    valueAxis: Axis(label: "v", scale: scale, format: .duration, min: 1, max: 2), series: ["a", "b"],
                    categories: [.init(name: "x", estimates: [Estimate(1.5, low: 0.5, high: 9), Estimate(10)])]),
                DotPlot(
                    title: "tiny", categoryLabel: "c", valueAxis: Axis(label: "v", scale: scale), series: ["a"],
                    categories: hostile, size: ChartSize(width: 0, height: .nan))
            ]
            for chart in charts { #expect(SVGCheck.problems(chart.svg()) == [], "\(chart.title) \(scale)") }
        }
    }

    /// An interval cut by a fixed axis range has no cap at the cut end, so
    /// it does not read as a short interval.
    @Test func clippedWhiskerLosesItsCap() throws {
        let chart = DotPlot(
            title: "clipped", categoryLabel: "c", valueAxis: Axis(label: "v", min: 0, max: 2),
            series: ["a"], categories: [.init(name: "x", estimates: [Estimate(1.5, low: 1, high: 9)])])
        let whiskers = SVGElements.parse(chart.svg()).filter { $0.name == "path" && $0.attributes["stroke-linecap"] == "butt" }
        let d = try #require(whiskers.first?.attributes["d"])
        // One vertical stroke and one cap (at the low end), not two.
        #expect(d.filter { $0 == "H" }.count == 1)
    }

    @Test func intervalLineEdgeCases() {
        let points: [IntervalLineChart.Point] = [
            .init(x: .nan, value: 1), .init(x: 0, value: 2, low: 3, high: 1), .init(x: 1, value: .infinity),
            .init(x: 2, value: 1e300, low: -1e300, high: .infinity), .init(x: -5, value: -5, low: -6, high: -4),
            .init(x: 1e-300, value: 5e-324)
        ]
        for scale in [Axis.Scale.linear, .log] {
            let charts = [
                IntervalLineChart(
                    title: "hostile", xAxis: Axis(label: "x", scale: scale), yAxis: Axis(label: "y", scale: scale),
                    lines: [.init(name: "a", points: points), .init(name: "b", points: [])],
                    highlight: .init(line: 5, x: 0, label: "no such line")),
                IntervalLineChart(
                    title: "highlight missing x", xAxis: Axis(label: "x", scale: scale),
                    yAxis: Axis(label: "y"), lines: [.init(name: "a", points: points)],
                    highlight: .init(x: 123, label: "not a point")),
                IntervalLineChart(
                    title: "tiny", xAxis: Axis(label: "x", scale: scale), yAxis: Axis(label: "y"),
                    lines: [.init(name: "a", points: points)], highlight: .init(x: 0, label: "zero"),
                    size: ChartSize(width: 10, height: 10))
            ]
            for chart in charts { #expect(SVGCheck.problems(chart.svg()) == [], "\(chart.title) \(scale)") }
        }
        // A highlight names an exact point; nothing else gets the ring.
        let chart = IntervalLineChart(
            title: "t", xAxis: Axis(label: "x"), yAxis: Axis(label: "y"),
            lines: [.init(name: "a", points: [.init(x: 1, value: 1), .init(x: 2, value: 2)])],
            highlight: .init(x: 2, label: "two"))
        #expect(chart.highlightedPoint(chart.highlight!)?.estimate.value == 2)
        #expect(chart.svg().components(separatedBy: "r=\"9\"").count - 1 == 2)
        var missing = chart
        missing.highlight = .init(x: 1.5, label: "between")
        #expect(!missing.svg().contains("r=\"9\""))
    }

    @Test func tailAxisEdgeCases() {
        let series = [Series(name: "a", x: [-10, 0, 50, 100, 150, .nan], y: [1, 2, 3, 4, 5, 6], marksPoints: true)]
        for y in [Axis(label: "t", format: .duration), Axis(label: "t", scale: .log, format: .duration)] {
            let chart = LineChart(
                title: "tail", xAxis: Axis(label: "p", scale: .tailPercentile, min: 99.99, max: 90),
                yAxis: y, series: series)
            #expect(SVGCheck.problems(chart.svg()) == [])
        }
    }

    @Test func tinyCanvasAndHostileText() {
        let chart = LineChart(
            title: String(repeating: "Ω<&>", count: 100), subtitle: "\u{0}\u{1}control",
            xAxis: Axis(label: String(repeating: "x", count: 500)), yAxis: Axis(label: "y"),
            series: (0..<40).map {
                Series(
                    name: "series \($0) " + String(repeating: "n", count: $0 * 5),
                    x: [0, 1], y: [Double($0), 1])
            },
            size: ChartSize(width: 0, height: .nan))
        let svg = chart.svg()
        #expect(SVGCheck.problems(svg) == [])
        #expect(!svg.contains("\u{0}"))
    }

    /// The same chart drawn in another process gives the same bytes. Drawing it twice in this
    /// process could not fail: whatever depends on the process — the seed of `Set` and
    /// `Dictionary` hashing (a different order of iteration in every process), addresses — is the
    /// same both times. The exit test draws it in a child process of the test runner and prints
    /// it; the goldens (GoldenTests) say the bytes did not change since they were recorded.
    @Test(arguments: GoldenTests.cases.map(\.0))
    func renderingIsDeterministic(name: String) async throws {
        let here = try #require(GoldenTests.cases.first { $0.0 == name }?.1).svg()
        let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) { [name] in
            guard let chart = GoldenTests.cases.first(where: { $0.0 == name })?.1 else { exit(1) }
            FileHandle.standardOutput.write(Data(chart.svg().utf8))
        }
        #expect(String(decoding: child.standardOutputContent, as: UTF8.self) == here)
    }

    @Test func standaloneDocument() {
        let svg = Fixtures.lineBasic.svg()
        #expect(
            svg.hasPrefix(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"960\" height=\"540\" viewBox=\"0 0 960 540\""))
        #expect(svg.contains("font-family=\"system-ui, -apple-system, &apos;Segoe UI&apos;, Roboto, Helvetica, Arial, sans-serif\""))
        #expect(!svg.contains("<style"))
        #expect(!svg.contains(" id=\""))
    }
}
