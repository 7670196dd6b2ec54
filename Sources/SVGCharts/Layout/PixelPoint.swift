/// A point in SVG user units.
struct PixelPoint: Equatable {
    var x: Double
    var y: Double
}
