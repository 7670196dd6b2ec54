/// Point marks: the shape repeats what the colour says, so series stay
/// apart in greyscale and for colour-blind readers.
enum MarkerShape: Equatable, CaseIterable {
    case circle, square, diamond, triangle

    /// The shape for the series at `index` (cycles after four).
    static func at(_ index: Int) -> MarkerShape {
        allCases[((index % allCases.count) + allCases.count) % allCases.count]
    }
}
