import RetryStormKit
import RetryStormResults
import Testing

/// `map`'s allocation of replications (``MapStudy/more(values:count:maximum:)``) and map.csv's
/// median (``MapRecord/median(_:)``), from Wilson's interval (z = 1.96: k of n holds 50% unless
/// the n replications agree and n ≥ 4).
@Suite("Map")
struct MapStudyTests {
    @Test("a point doubles while its Wilson interval holds 50%, up to the maximum; agreement from 4 replications on stops it")
    func allocation() {
        // 0 of 1 ([0, 79%]) and 0 of 2 ([0, 66%]) hold 50%; 0 of 4 ([0, 49%]) does not.
        #expect(MapStudy.more(values: [0], count: 1, maximum: 32) == 1)
        #expect(MapStudy.more(values: [0, 0], count: 2, maximum: 32) == 2)
        #expect(MapStudy.more(values: [0, 0, 0, 0], count: 4, maximum: 32) == 0)
        #expect(MapStudy.more(values: [1, 1, 1, 1], count: 4, maximum: 32) == 0)
        // 3 of 8 is [14%, 69%]: undecided, 8 more; at 28 of 32 only 4 more fit; at the maximum none.
        #expect(MapStudy.more(values: [1, 1, 1, 0, 0, 0, 0, 0], count: 8, maximum: 32) == 8)
        #expect(MapStudy.more(values: Array(repeating: 0.0, count: 14) + Array(repeating: 1.0, count: 14), count: 28, maximum: 32) == 4)
        #expect(MapStudy.more(values: Array(repeating: 0.0, count: 16) + Array(repeating: 1.0, count: 16), count: 32, maximum: 32) == 0)
        // Nothing judged (the run ends too soon after its trigger): more replications cannot help.
        #expect(MapStudy.more(values: [.nan, .nan], count: 2, maximum: 32) == 0)
    }

    @Test("the median recovery leaves out nan, and a middle pair with inf in it is inf")
    func median() {
        #expect(MapRecord.median([3, 1, 2]) == 2)
        #expect(MapRecord.median([4, 1, 2, 3]) == 2.5)
        #expect(MapRecord.median([1, .infinity, .infinity]) == .infinity)
        #expect(MapRecord.median([1, 2, .infinity, .infinity]) == .infinity)
        #expect(MapRecord.median([1, 2, 3, .infinity]) == 2.5)
        #expect(MapRecord.median([.nan, 5]) == 5)
        #expect(MapRecord.median([.nan]).isNaN)
    }
}
