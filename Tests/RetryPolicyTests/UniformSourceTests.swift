import RetryPolicy
import Testing

/// `FixedUniformSource` stands in for a uniform draw in [0, 1), so whatever it is given, by its
/// initialiser or by assignment, it returns a value there: a draw of 1 would let full jitter reach
/// its cap (U[0, cap) never does) and NaN would make every delay NaN.
struct UniformSourceTests {
    static let cases: [(Double, Double)] = [
        (0.25, 0.25), (0, 0), (1, 1.0.nextDown), (1.5, 1.0.nextDown), (-0.5, 0), (.nan, 0), (.infinity, 1.0.nextDown)
    ]

    @Test("a fixed source holds its value in [0, 1), from the initialiser and from assignment alike", arguments: cases)
    func clamped(given: Double, held: Double) {
        var made = FixedUniformSource(given)
        #expect(made.value == held && made.nextUniform() == held)
        var assigned = FixedUniformSource(0.5)
        assigned.value = given
        #expect(assigned.value == held && assigned.nextUniform() == held)
    }
}
