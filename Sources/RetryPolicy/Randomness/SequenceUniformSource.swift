/// Replays a list of values in order, then repeats the last one. For tests of multi-draw sequences.
public struct SequenceUniformSource: UniformSource, Sendable {
    private let values: [Double]
    private var index = 0
    /// - Parameter values: the draws in order; at least one (a precondition). Each is clamped to
    ///   [0, 1), values ≥ 1 to just below 1.
    public init(_ values: [Double]) {
        precondition(!values.isEmpty, "SequenceUniformSource needs at least one value")
        self.values = values.map { min(max($0, 0), 1.0.nextDown) }
    }
    /// The next value of the list, or its last value once the list is used up.
    public mutating func nextUniform() -> Double {
        let v = values[min(index, values.count - 1)]
        index += 1
        return v
    }
}
