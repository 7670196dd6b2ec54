import SVGCharts

/// Deterministic chart inputs shaped like RetryStorm output (formulas, no
/// randomness), shared by the golden and robustness tests.
enum Fixtures {
    /// Time buckets of 2 s over 0…180 s.
    static let times: [Double] = stride(from: 0.0, to: 180, by: 2).map { $0 }

    /// Retries pile up during the 60–90 s outage and drain until 132 s.
    static func retries(at t: Double) -> Double {
        if t < 60 { return 20 }
        if t < 90 { return min(2400, 80 * (t - 60)) }
        if t < 132 { return max(40, 2400 - (t - 90) * 56) }
        return 20
    }

    static func successes(at t: Double) -> Double {
        if t >= 60 && t < 90 { return 0 }
        return min(1000, 800 + retries(at: t))
    }

    static var lineBasic: LineChart {
        LineChart(
            title: "Retry storm after a 30 s outage",
            subtitle: "exponential backoff, no jitter; 800 req/s offered; 2 s buckets",
            xAxis: Axis(label: "time (s)"),
            yAxis: Axis(label: "requests per second", includesZero: true),
            series: [
                Series(name: "attempts", x: times, y: times.map { 800 + retries(at: $0) }, style: .step),
                Series(name: "first attempts", x: times, y: times.map { _ in 800 }, style: .dashed),
                Series(name: "successes", x: times, y: times.map(successes), style: .area)
            ],
            annotations: [
                .xInterval(from: 60, to: 90, label: "outage 60–90 s"),
                .xMarker(at: 132, label: "recovered +42 s"),
                .yReference(at: 1000, label: "capacity 1k/s")
            ])
    }

    /// Nine series: dash patterns, a wrapping legend, long labels.
    static var lineManySeries: LineChart {
        let policies = [
            "none", "constant 100 ms", "exponential", "exponential + full jitter", "exponential + equal jitter",
            "decorrelated jitter", "token bucket retry budget (10% of first attempts, burst 100)",
            "circuit breaker", "adaptive (gRPC A6 throttling)"
        ]
        let series = policies.enumerated().map { i, name in
            Series(
                name: name, x: times,
                y: times.map { t in
                    let k = Double(i + 1)
                    return 900 + retries(at: t) * k / 9 - k * 30
                })
        }
        return LineChart(
            title: "Attempt rate by retry policy — a deliberately long title that must be cut before it runs off the canvas edge",
            subtitle: "nine policies; lines differ by dash as well as colour",
            xAxis: Axis(label: "time since start of run (s)"),
            yAxis: Axis(label: "attempts per second (all clients, all servers, both regions)"),
            series: series,
            annotations: [.xInterval(from: 60, to: 90, label: "outage")])
    }

    static var stacked: StackedChart {
        StackedChart(
            title: "Where the load comes from",
            subtitle: "first attempts vs retries; the top edge is total attempts",
            xAxis: Axis(label: "time (s)"),
            yAxis: Axis(label: "attempts per second"),
            series: [
                Series(name: "first attempts", x: times, y: times.map { _ in 800 }),
                Series(name: "retries", x: times, y: times.map(retries))
            ],
            annotations: [
                .xInterval(from: 60, to: 90, label: "outage 60–90 s"),
                .yReference(at: 1000, label: "capacity 1k/s")
            ])
    }

    static var smallMultiples: SmallMultiples {
        let variants: [(String, Double)] = [
            ("no jitter", 1), ("full jitter", 0.45), ("equal jitter", 0.7), ("retry budget 10%", 0.1)
        ]
        let panels = variants.map { name, factor in
            SmallMultiples.Panel(
                title: name,
                series: [
                    Series(name: "attempts", x: times, y: times.map { 800 + retries(at: $0) * factor }),
                    Series(
                        name: "capacity", x: times, y: times.map { $0 >= 60 && $0 < 90 ? 0 : 1000 },
                        style: .area)
                ])
        }
        return SmallMultiples(
            title: "Attempt rate under four retry policies",
            subtitle: "same outage, same offered load; shared axes",
            xAxis: Axis(label: "time (s)"),
            yAxis: Axis(label: "requests per second", includesZero: true),
            panels: panels,
            annotations: [.xInterval(from: 60, to: 90, label: "outage")])
    }

    /// Log-logistic-like samples from a closed form, so no RNG is needed;
    /// capped at the 10 min client deadline.
    static func latencySamples(scale: Double, count: Int = 2000, zeros: Int = 0) -> [Double] {
        var samples = [Double](repeating: 0, count: zeros)
        for i in 0..<count {
            let u = (Double(i) + 0.5) / Double(count)
            let odds = u / (1 - u)
            samples.append(min(600, scale * odds * odds))
        }
        return samples
    }

    static var cdfDuration: CDFChart {
        CDFChart(
            title: "Time to success",
            subtitle: "per request, including retries; zeros (cache hits) drawn at the axis minimum",
            xAxis: Axis(label: "time to success", scale: .log, format: .duration, min: 0.001),
            yAxis: Axis(label: "requests", format: .percent),
            series: [
                .empiricalCDF(name: "no retries", samples: latencySamples(scale: 0.004, zeros: 50)),
                .empiricalCDF(name: "full jitter", samples: latencySamples(scale: 0.02)),
                .empiricalCDF(name: "no jitter", samples: latencySamples(scale: 0.3) + [-1, .nan, .infinity])
            ],
            annotations: [.yReference(at: 0.99, label: "p99"), .xMarker(at: 1, label: "SLO 1 s")])
    }

    static var cdfNumber: CDFChart {
        CDFChart(
            title: "Attempts per request",
            xAxis: Axis(label: "attempts per request", scale: .log),
            series: [
                Series(
                    name: "policy A",
                    points: [
                        DataPoint(x: 1, y: 0.6), DataPoint(x: 2, y: 0.8), DataPoint(x: 5, y: 0.95),
                        DataPoint(x: 20, y: 0.999), DataPoint(x: 300, y: 1)
                    ])
            ])
    }

    static var barCI: BarChart {
        let data: [(String, Double, Double)] = [
            ("no retries", 0.012, 0.21), ("constant", 0.015, 1.9), ("exponential", 0.014, 0.85),
            ("full jitter", 0.013, 0.31), ("decorrelated", 0.013, 0.36)
        ]
        return BarChart(
            title: "Latency by retry policy",
            subtitle: "median and p99 over 20 seeds; whiskers are 95% bootstrap intervals",
            categoryLabel: "retry policy",
            yAxis: Axis(label: "latency", format: .duration),
            groups: ["p50", "p99"],
            categories: data.map { name, p50, p99 in
                BarChart.Category(
                    name: name,
                    bars: [
                        BarChart.Bar(value: p50, low: p50 * 0.9, high: p50 * 1.1),
                        BarChart.Bar(value: p99, low: p99 * 0.8, high: p99 * 1.25)
                    ])
            },
            best: "full jitter")
    }

    static var barLogLongNames: BarChart {
        let names = [
            "exponential backoff (base 10 ms, cap 10 s)", "exponential + full jitter (base 10 ms, cap 10 s)",
            "token-bucket retry budget", "circuit breaker (50% over 10 s)", "adaptive throttling (k = 2)",
            "hedged requests at p95"
        ]
        return BarChart(
            title: "Total attempts to drain the backlog",
            categoryLabel: "policy",
            yAxis: Axis(label: "attempts", scale: .log),
            groups: ["attempts"],
            categories: names.enumerated().map { i, name in
                let v = DecimalPowers.of(Double(i % 4 + 3)) * Double(i + 1)
                return BarChart.Category(name: name, bars: [BarChart.Bar(value: v, low: v * 0.7, high: v * 1.4)])
            },
            best: "token-bucket retry budget")
    }

    /// The tuning grid: cells placed by value on log axes (the base delays
    /// are refined unevenly), invalid combinations crossed out, one point
    /// not evaluated, the feasible region outlined and the choice starred.
    static var heatmap: Heatmap {
        let base: [Double] = [0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5]
        let cap: [Double] = [0.1, 0.5, 1, 5, 10, 60]
        var invalid: [Heatmap.Cell] = []
        let values = cap.enumerated().map { r, c in
            base.enumerated().map { col, b -> Double in
                if b * 10 > c {
                    // Cap below ten base delays: not a valid configuration.
                    invalid.append(Heatmap.Cell(column: col, row: r))
                    return .nan
                }
                if r == 2 && col == 1 { return .nan }  // a point the sweep skipped
                return 0.04 + b * 3 + 1.2 / (1 + c) + c * 0.02
            }
        }
        // Axis labels in one unit per axis, named in the titles.
        let baseFormat = UniformFormat.fitting(base, format: .duration, scale: .log)
        let capFormat = UniformFormat.fitting(cap, format: .duration, scale: .log)
        var feasible: [Heatmap.Cell] = []
        for (r, row) in values.enumerated() {
            for (c, v) in row.enumerated() where v.isFinite && v < 0.45 {
                feasible.append(Heatmap.Cell(column: c, row: r))
            }
        }
        return Heatmap(
            title: "p99 latency over the backoff grid",
            subtitle: "full jitter; outlined cells meet p99 < 450 ms and load ≤ 1.2× capacity",
            xLabel: baseFormat.title("base delay"), yLabel: capFormat.title("max delay"),
            columns: base.map(baseFormat.string), rows: cap.map(capFormat.string),
            values: values,
            colorAxis: Axis(label: "p99 latency", format: .duration),
            columnPlacement: .log(base), rowPlacement: .log(cap),
            meetsConstraints: feasible,
            chosen: Heatmap.Cell(column: 2, row: 3), chosenLabel: "tuned choice",
            invalid: invalid)
    }

    /// Neighbouring values a few hundred ms apart around 100 s: one unit
    /// (s) for cells and colour bar, decimals enough to tell them apart;
    /// categorical axes say so.
    static var heatmapUnits: Heatmap {
        let policies = ["no jitter", "full jitter", "equal jitter", "decorrelated"]
        let budgets = ["none", "10%", "20%"]
        let values = budgets.indices.map { r in
            policies.indices.map { c in 101.2 + Double(c) * 0.5 + Double(r) * 0.7 - (c == 3 ? 1.9 : 0) }
        }
        return Heatmap(
            title: "Recovery time by jitter and retry budget",
            subtitle: "values 99.3 … 103.6 s: in seconds, with the decimal that separates them",
            xLabel: "jitter", yLabel: "retry budget",
            columns: policies, rows: budgets, values: values,
            colorAxis: Axis(label: "recovery after outage", format: .duration))
    }

    /// Counts from 1 to 10^5 on a log colour scale; columns placed by value
    /// on a linear axis with uneven spacing, rows categorical.
    static var heatmapLogCounts: Heatmap {
        let clients: [Double] = [1000, 2000, 3000, 5000, 10000, 20000]
        let policies = ["none", "budget 10%", "breaker", "adaptive"]
        let values = policies.indices.map { r in
            clients.map { n -> Double in
                let base = n / 1000
                return DecimalPowers.of(Double(r % 3)) * base * base * Double(4 - r)
            }
        }
        return Heatmap(
            title: "Retries that were wasted",
            subtitle: "clients placed by count (uneven steps); colour on a log scale",
            xLabel: "clients", yLabel: "policy",
            columns: clients.map(NumberFormat.compact), rows: policies, values: values,
            colorAxis: Axis(label: "wasted retries", scale: .log),
            columnPlacement: .linear(clients))
    }

    /// 28 × 18 cells: labels shrink or are left out, x labels turn, rows thin.
    static var heatmapDense: Heatmap {
        let columns = (0..<28).map { "base \($0 * 5 + 5) ms" }
        let rows = (0..<18).map { "cap \($0 + 1) s" }
        let values = rows.indices.map { r in columns.indices.map { c in Double((c * 37 + r * 11) % 97) / 97 } }
        return Heatmap(
            title: "A dense grid",
            xLabel: "base delay", yLabel: "max delay", columns: columns, rows: rows, values: values,
            colorAxis: Axis(label: "wasted share", format: .percent),
            chosen: Heatmap.Cell(column: 27, row: 17), chosenLabel: "tuned choice")
    }

    /// Time-to-success percentiles per variant on the tail scale (the
    /// renderer's side of tts_tail.svg): one unit on the log y axis.
    static var ttsTail: LineChart {
        let variants: [(String, [Double])] = [
            ("no retries", [0.012, 0.031, 0.21, 0.9]),
            ("no jitter", [0.35, 4.2, 61, 240]),
            ("full jitter", [0.018, 0.42, 3.1, 18.5]),
            ("decorrelated jitter", [0.02, 0.55, 4.8, 31])
        ]
        return LineChart(
            title: "Time to success in the tail",
            subtitle: "p50 to p99.9 per variant; each further nine takes the same width",
            xAxis: Axis(label: "percentile of successful operations", scale: .tailPercentile),
            yAxis: Axis(label: "time to success", scale: .log, format: .duration),
            series: variants.map { Series(name: $0.0, x: [50, 90, 99, 99.9], y: $0.1, marksPoints: true) },
            annotations: [.yReference(at: 10, label: "SLO 10 s")])
    }

    /// p50 and p99 per variant as points with whiskers on a log axis (where
    /// a bar's length would mean nothing).
    static var dotsTimeToSuccess: DotPlot {
        let data: [(String, Double, Double)] = [
            ("no retries", 0.012, 0.21), ("constant", 0.015, 1.9), ("exponential", 0.014, 0.85),
            ("full jitter", 0.013, 0.31), ("decorrelated", 0.013, 0.36)
        ]
        return DotPlot(
            title: "Time to success p50 and p99 by retry policy",
            subtitle: "means over 20 seeds; whiskers are 95% confidence intervals",
            categoryLabel: "retry policy",
            valueAxis: Axis(label: "time to success", scale: .log, format: .duration),
            series: ["p50", "p99"],
            categories: data.map { name, p50, p99 in
                DotPlot.Category(
                    name: name,
                    estimates: [
                        Estimate(p50, low: p50 * 0.9, high: p50 * 1.1), Estimate(p99, low: p99 * 0.8, high: p99 * 1.25)
                    ])
            },
            highlight: "full jitter")
    }

    /// Fourteen variants, peak load and (where present) peak overload, a
    /// reference at 1× capacity: turned category labels.
    static var dotsPeakLoad: DotPlot {
        let names = [
            "no jitter", "full jitter", "equal jitter", "decorrelated jitter", "token bucket 10%",
            "token bucket 20%", "breaker 50% over 10 s", "breaker 20% over 30 s", "adaptive k = 2",
            "adaptive k = 1.5", "Retry-After honoured", "AWS SDK standard mode", "gRPC default policy",
            "three attempts, capped at 5 s"
        ]
        return DotPlot(
            title: "Peak load by retry policy",
            subtitle: "largest one-second offered load over nominal capacity; overload where it went above",
            categoryLabel: "retry policy",
            valueAxis: Axis(label: "peak load (× capacity)", includesZero: true),
            series: ["peak load ratio", "peak overload"],
            categories: names.enumerated().map { i, name in
                let ratio = 0.7 + Double((i * 7) % 11) * 0.19
                let overload: Estimate? = ratio > 1 ? Estimate(ratio - 1, low: (ratio - 1) * 0.8, high: (ratio - 1) * 1.2) : nil
                return DotPlot.Category(
                    name: name,
                    estimates: [
                        Estimate(ratio, low: ratio - 0.08, high: ratio + 0.08), overload
                    ])
            },
            references: [DotPlot.Reference(value: 1, label: "capacity 1×")],
            highlight: "token bucket 10%")
    }

    /// A 1-D sweep over the base delay, refined unevenly around the
    /// optimum, on a log x axis at the actual values, with the
    /// recommendation marked.
    static var sweepLine: IntervalLineChart {
        let base: [Double] = [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.5, 1, 2]
        let points = base.map { b -> IntervalLineChart.Point in
            let mean = 1.2 / (1 + 40 * b) + b * 1.6 + 0.25
            let half = 0.04 + mean * 0.06
            return IntervalLineChart.Point(x: b, value: mean, low: mean - half, high: mean + half)
        }
        return IntervalLineChart(
            title: "p99 time to success over the base delay",
            subtitle: "full jitter, cap 30 s; means over 10 seeds, whiskers 95% confidence intervals",
            xAxis: Axis(label: "base delay", scale: .log, format: .duration),
            yAxis: Axis(label: "p99 time to success", format: .duration, includesZero: true),
            lines: [IntervalLineChart.Line(name: "full jitter", points: points)],
            highlight: IntervalLineChart.Highlight(x: 0.2, label: "recommended: base 200 ms"),
            annotations: [.yReference(at: 1, label: "SLO 1 s")])
    }

    /// Two variants over a linear x (max attempts), one with a missing
    /// point and a missing interval.
    static var sweepLinear: IntervalLineChart {
        func line(_ name: String, _ scale: Double) -> IntervalLineChart.Line {
            IntervalLineChart.Line(
                name: name,
                points: (1...8).map { k in
                    let x = Double(k)
                    let mean = scale * (1 - 1 / (1 + x * 0.6))
                    if k == 5 && scale < 0.9 { return IntervalLineChart.Point(x: x, value: .nan) }
                    if k == 2 { return IntervalLineChart.Point(x: x, value: mean) }
                    return IntervalLineChart.Point(x: x, value: mean, low: mean - 0.03, high: mean + 0.03)
                })
        }
        return IntervalLineChart(
            title: "Operations that succeed, by max attempts",
            xAxis: Axis(label: "max attempts (first included)"),
            yAxis: Axis(label: "succeeded", format: .percent, min: 0, max: 1),
            lines: [line("exponential + full jitter", 0.97), line("no jitter", 0.8)],
            highlight: IntervalLineChart.Highlight(line: 0, x: 4, label: "recommended: 4 attempts"))
    }

    /// Empty, single-point, NaN-gapped and constant series in one chart.
    static var lineEdgeCases: LineChart {
        LineChart(
            title: "Edge cases <&> \"quoted\"",
            xAxis: Axis(label: "x"),
            yAxis: Axis(label: "y"),
            series: [
                Series(name: "empty", points: []),
                Series(name: "single", points: [DataPoint(x: 5, y: 3)]),
                Series(name: "gap", x: [0, 1, 2, 3, 4, 5, 6], y: [1, 2, .nan, 4, .infinity, 3, 2]),
                Series(name: "constant", x: [0, 10], y: [3, 3], style: .step)
            ])
    }
}

/// 10^k for small integer k without Foundation.
enum DecimalPowers {
    static func of(_ k: Double) -> Double {
        var v = 1.0
        var i = 0.0
        while i < k {
            v *= 10
            i += 1
        }
        return v
    }
}
