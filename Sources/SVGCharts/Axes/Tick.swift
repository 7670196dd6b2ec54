/// A labelled tick; an empty label draws the gridline only.
struct Tick: Equatable {
    var value: Double
    var label: String
}
