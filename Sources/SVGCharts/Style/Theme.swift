/// Sizes (px) and fonts shared by all charts, tuned for a 960×540 canvas
/// shown on a slide or rendered 1200 px wide.
package enum Theme {
    package static let fontFamily = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
    package static let padding = 16.0
    package static let titleSize = 18.0
    package static let subtitleSize = 13.0
    package static let axisLabelSize = 13.0
    package static let tickSize = 12.0
    package static let legendSize = 13.0
    package static let panelTitleSize = 13.0
    package static let lineWidth = 2.0
    /// Gap between the plot edge and tick labels.
    package static let tickGap = 8.0
}
