import RetryStormReport
import Testing

/// tune.json's constraints as the sweep charts and tables read them (`TuningChoice.Constraint`):
/// `min ≤ value ≤ max`, both ends inclusive (tune writes `<=` and `<` as a max, `>=` and `>` as a
/// min). A value on a bound is admitted; a hair past it is not.
struct ConstraintBoundsTests {
    @Test("a bound admits the value on it: below, at and above min 2 and max 2")
    func bounds() {
        let atMost = TuningChoice.Constraint(metric: .peakLoadRatio, max: 2)
        let atLeast = TuningChoice.Constraint(metric: .peakLoadRatio, min: 2)
        let both = TuningChoice.Constraint(metric: .peakLoadRatio, min: 2, max: 2)
        #expect([1.0, 2, 3].map(atMost.admits) == [true, true, false])
        #expect([1.0, 2, 3].map(atLeast.admits) == [false, true, true])
        #expect([1.0, 2, 3].map(both.admits) == [false, true, false])
        #expect(!atMost.admits(.nan) && !atLeast.admits(.nan))
    }
}
