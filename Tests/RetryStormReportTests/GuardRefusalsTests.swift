import GSLSupport
import RetryStormReport
import RetryStormResults
import Testing

/// The guard findings say one thing once: the same guard, population and cause at several points
/// make one sentence listing the points (staged-rollout's v2 budget at seven shares).
struct GuardRefusalsTests {
    static func refusal(_ point: String, share: Double, cause: String? = "at 0.01 req/s per client a 10% budget never fills") -> GuardRefusal {
        let ci = ConfidenceInterval(mean: share, low: share, high: share, count: 3)
        return GuardRefusal(
            point: point, population: "v2", share: ci, guardName: "the retry budget", cause: cause,
            sentence: "the retry budget refused \(share) of the retries of population v2 (\(point))")
    }

    @Test("refusals that differ only in their point are one sentence; another cause stays apart")
    func grouped() {
        let same = ["share=10%", "share=25%", "share=50%"].map { Self.refusal($0, share: 1) }
        let other = Self.refusal("share=90%", share: 0.6, cause: nil)
        let lines = GuardRefusals.lines(same + [other])
        #expect(
            lines == [
                "the retry budget refused 100% of the retries of population v2 at share=10%, share=25% and share=50%: at 0.01 req/s per client a 10% budget never fills",
                other.sentence
            ])
        // Seven points: the first four, then how many more; shares that differ as a range.
        let seven = (1...7).map { Self.refusal("p\($0)", share: 0.9 + Double($0) / 100) }
        #expect(
            GuardRefusals.lines(seven) == [
                "the retry budget refused from 91.0% to 97.0% of the retries of population v2 at p1, p2, p3, p4 and 3 more: at 0.01 req/s per client a 10% budget never fills"
            ])
    }
}
