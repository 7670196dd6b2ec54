/// Replays a list of values in order, then repeats the last one. For tests of multi-draw sequences.
public struct SequenceUniformSource: UniformSource, Sendable {
    private let values: [Double]
    private var index = 0
    public init(_ values: [Double]) {
        precondition(!values.isEmpty, "SequenceUniformSource needs at least one value")
        self.values = values.map { min(max($0, 0), 1.0.nextDown) }
    }
    public mutating func nextUniform() -> Double {
        let v = values[min(index, values.count - 1)]
        index += 1
        return v
    }
}
