/// Canvas size in px (SVG user units).
public struct ChartSize: Sendable, Equatable {
    public var width: Double
    public var height: Double

    /// Non-finite or tiny sizes are raised to 200×150 so layout stays sane.
    public init(width: Double, height: Double) {
        self.width = width.isFinite ? max(200, width) : 960
        self.height = height.isFinite ? max(150, height) : 540
    }

    /// 960×540 (16:9), legible on a slide and at 1200 px wide in a PNG.
    public static let standard = ChartSize(width: 960, height: 540)
}
