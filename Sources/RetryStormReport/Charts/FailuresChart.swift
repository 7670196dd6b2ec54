import RetryStormResults
import RetryStormScenario
import SVGCharts

/// "Timed out and gave up": attempts abandoned at the timeout and operations whose policy ran
/// out of attempts, per second; blocked operations, expired requests, retries the budget denied
/// and attempts the policy held back (breaker open, slots full) too when any occur.
/// One chart for a single variant; one panel per variant otherwise.
enum FailuresChart {
    static let fileName = "failures.svg"

    static func build(_ context: ChartContext) -> any Chart {
        let title = context.title("Timed-out attempts and operations given up")
        let subtitle = context.timeSubtitle(context.isComparison ? context.panelLegend : "what clients lose")
        let showBlocked = context.series.contains { $0.mean(.blocked).contains { $0 > 0 } }
        let showExpired = context.series.contains { $0.mean(.expired).contains { $0 > 0 } }
        let showDenied = context.series.contains { $0.mean(.budgetDenied).contains { $0 > 0 } }
        let showHeld = context.series.contains { $0.mean(.heldBack).contains { $0 > 0 } }
        let yAxis = ChartContext.headroomAxis("per second", values: context.series.flatMap {
            [$0.perSecond(.timedOut), $0.perSecond(.gaveUp), $0.perSecond(.blocked), $0.perSecond(.expired),
             showDenied ? $0.perSecond(.budgetDenied) : [], showHeld ? $0.perSecond(.heldBack) : []]
        })
        func series(_ s: VariantTimeSeries) -> [Series] {
            var list = [
                Series(name: "attempts timed out", x: s.times, y: s.perSecond(.timedOut), style: .step,
                       color: ChartContext.Colors.timedOut),
                Series(name: "operations given up", x: s.times, y: s.perSecond(.gaveUp), style: .step,
                       color: ChartContext.Colors.gaveUp),
            ]
            if showBlocked {
                list.append(Series(name: "operations blocked", x: s.times, y: s.perSecond(.blocked), style: .step, color: ChartContext.Colors.blocked))
            }
            if showExpired {
                list.append(Series(name: "requests expired in queue", x: s.times, y: s.perSecond(.expired), style: .step, color: ChartContext.Colors.expired))
            }
            if showDenied {
                list.append(Series(name: "retries the budget denied", x: s.times, y: s.perSecond(.budgetDenied), style: .step,
                                   color: ChartContext.Colors.budgetDenied))
            }
            if showHeld {
                list.append(Series(name: "attempts held back (breaker, slots)", x: s.times, y: s.perSecond(.heldBack), style: .dashed,
                                   color: ChartContext.Colors.heldBack))
            }
            return list
        }
        return context.overTime(title: title, subtitle: subtitle, yAxis: yAxis, series: series)
    }
}
