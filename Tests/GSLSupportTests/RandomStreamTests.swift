import GSLSupport
import Testing

struct RandomStreamTests {
    @Test("the same seed gives the same stream; different seeds differ")
    func determinism() {
        let a = RandomStream(seed: 42)
        let b = RandomStream(seed: 42)
        let c = RandomStream(seed: 43)
        let xa = (0..<100).map { _ in a.uniform() }
        let xb = (0..<100).map { _ in b.uniform() }
        let xc = (0..<100).map { _ in c.uniform() }
        #expect(xa == xb)
        #expect(xa != xc)
        #expect(xa.allSatisfy { $0 >= 0 && $0 < 1 })
    }

    @Test("seeds use all 64 bits: s and s + 2^32 give different streams (unlike GSL's mt19937)")
    func sixtyFourBitSeeds() {
        let a = RandomStream(seed: 5)
        let b = RandomStream(seed: 5 + (1 << 32))
        #expect(a.uniform() != b.uniform())
    }

    @Test("exponential(mean 2): sample mean within 1% of 2 over 10^6 draws (sd of the mean is 0.1%)")
    func exponentialMean() {
        let r = RandomStream(seed: 7)
        var sum = 0.0
        for _ in 0..<1_000_000 { sum += r.exponential(mean: 2) }
        #expect(abs(sum / 1e6 - 2) < 0.02)
    }

    @Test("uniformInt(below: 10) hits every value about equally: each within 2% of 100,000 over 10^6")
    func uniformInt() {
        let r = RandomStream(seed: 11)
        var counts = [Int](repeating: 0, count: 10)
        for _ in 0..<1_000_000 { counts[r.uniformInt(below: 10)] += 1 }
        // Binomial sd = √(10^6·0.1·0.9) = 300, so 2% (2000) is about 6.7 sd.
        #expect(counts.allSatisfy { abs($0 - 100_000) < 2_000 })
    }

    @Test("derived seeds depend on (seed, replication, stream) only, and all differ")
    func seedDerivation() {
        var seen = Set<UInt64>()
        for rep in 0..<100 { for stream in 1...3 { seen.insert(SeedDerivation.seed(scenario: 7, replication: rep, stream: UInt64(stream))) } }
        #expect(seen.count == 300)
        // Depending on nothing else: the known answer of scripts/xoshiro_reference.py, computed
        // without the product (XoshiroKnownAnswerTests.derivedStream), not this process's value again.
        #expect(SeedDerivation.seed(scenario: 7, replication: 3, stream: 2) == 0xF6B8_AEA2_8D10_F4DD)
        #expect(SeedDerivation.seed(scenario: 7, replication: 3, stream: 2) != SeedDerivation.seed(scenario: 8, replication: 3, stream: 2))
    }
}
