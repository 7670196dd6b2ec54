import CGSL
import CGSLXoshiro
import GSLSupport
import Testing

/// Known answers for the generator every random draw comes from: the C xoshiro256** behind
/// `RandomStream`, its splitmix64 seeding and the derivation of stream seeds.
///
/// Where the numbers come from: `scripts/xoshiro_reference.py`, a transcription of the published
/// algorithms written without the product, which first checks itself against the published
/// outputs quoted here. A mistake in the C code (a wrong rotation or shift constant, a swapped
/// xor) changes every output, so these tests fail on it; the statistical tests elsewhere would not.
struct XoshiroKnownAnswerTests {
    /// A bare GSL generator of the xoshiro256** type, for stepping and seeding it directly.
    final class Generator {
        let rng: UnsafeMutablePointer<gsl_rng>

        init() { rng = gsl_rng_alloc(retrystorm_rng_xoshiro256ss())! }
        deinit { gsl_rng_free(rng) }

        /// The state as xoshiro_gsl.c lays it out: four 64-bit words s[0…3].
        var state: [UInt64] {
            get { Array(UnsafeBufferPointer(start: gsl_rng_state(rng).assumingMemoryBound(to: UInt64.self), count: 4)) }
            set {
                let s = gsl_rng_state(rng).assumingMemoryBound(to: UInt64.self)
                for i in 0..<4 { s[i] = newValue[i] }
            }
        }

        func next() -> UInt64 { UInt64(gsl_rng_get(rng)) }
    }

    @Test("the GSL type is xoshiro256** with a 32-byte state and 64-bit outputs")
    func type() {
        let g = Generator()
        #expect(String(cString: gsl_rng_name(g.rng)) == "xoshiro256**")
        #expect(gsl_rng_size(g.rng) == 32)
        #expect(gsl_rng_min(g.rng) == 0 && UInt64(gsl_rng_max(g.rng)) == UInt64.max)
    }

    /// The ten outputs from the state {1, 2, 3, 4} that the rand_xoshiro crate's test took from
    /// the reference code (rust-random/rngs, rand_xoshiro/src/xoshiro256starstar.rs), and the
    /// state after them from scripts/xoshiro_reference.py.
    @Test("from the state {1, 2, 3, 4}: the reference implementation's published outputs")
    func publishedOutputs() {
        let g = Generator()
        g.state = [1, 2, 3, 4]
        let outputs = (0..<10).map { _ in g.next() }
        #expect(
            outputs == [
                11520, 0, 1_509_978_240, 1_215_971_899_390_074_240, 1_216_172_134_540_287_360,
                607_988_272_756_665_600, 16_172_922_978_634_559_625, 8_476_171_486_693_032_832,
                10_595_114_339_597_558_777, 2_904_607_092_377_533_576
            ])
        #expect(g.state == [0x6004_6C12_1143_62D3, 0x4058_921A_0004_02E6, 0x085C_3600_1186_0022, 0x3C2E_BC00_94C0_A2F9])
    }

    /// gsl_rng_set expands the seed with splitmix64: the state words are its first four outputs,
    /// published for seed 0 (splitmix64.c), from scripts/xoshiro_reference.py for the others.
    static let statesBySeed: [(UInt64, [UInt64])] = [
        (0, [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F, 0xF88B_B8A8_724C_81EC]),
        (42, [0xBDD7_3226_2FEB_6E95, 0x28EF_E333_B266_F103, 0x4752_6757_130F_9F52, 0x581C_E1FF_0E4A_E394]),
        (.max, [0xE4D9_7177_1B65_2C20, 0xE99F_F867_DBF6_82C9, 0x382F_F84C_B272_81E9, 0x6D1D_B36C_CBA9_82D2])
    ]

    @Test("seeding: the state is splitmix64's first four outputs from the seed, all 64 bits of it", arguments: statesBySeed)
    func seeding(seed: UInt64, state: [UInt64]) {
        let g = Generator()
        gsl_rng_set(g.rng, UInt(seed))
        #expect(g.state == state)
    }

    static let outputsBySeed: [(UInt64, [UInt64])] = [
        (0, [0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0, 0x6AA5_94F1_262D_2D2C]),
        (42, [0x1578_0B2E_0C2E_C716, 0x6104_D986_6D11_3A7E, 0xAE17_5332_39E4_99A1, 0xECB8_AD47_03B3_60A1])
    ]

    @Test("seeded streams: the first outputs of seeds 0 and 42 (scripts/xoshiro_reference.py)", arguments: outputsBySeed)
    func seededOutputs(seed: UInt64, outputs: [UInt64]) {
        let g = Generator()
        gsl_rng_set(g.rng, UInt(seed))
        #expect((0..<4).map { _ in g.next() } == outputs)
    }

    /// RandomStream's uniform is the top 53 bits of the first output, scaled by 2^-53:
    /// 0x99EC5F36CB75F2B4 >> 11 for seed 0, 0x15780B2E0C2EC716 >> 11 for seed 42.
    @Test("RandomStream(seed:).uniform() is the first output's top 53 bits over 2^53")
    func uniformDoubles() {
        #expect(RandomStream(seed: 0).uniform() == 0.6012629994179048)
        #expect(RandomStream(seed: 42).uniform() == 0.08386297105988216)
        #expect(RandomStream(seed: 0).uniform() == Double(UInt64(0x99EC_5F36_CB75_F2B4) >> 11) * 0x1p-53)
    }

    /// SeedDerivation.mix is splitmix64's output function: applied to k times the golden gamma it
    /// gives splitmix64's k-th output from seed 0, which is published (splitmix64.c).
    @Test("SeedDerivation.mix gives splitmix64's published outputs from seed 0")
    func mixIsSplitmix() {
        let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15
        #expect(
            (1...4).map { SeedDerivation.mix(gamma &* UInt64($0)) }
                == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F, 0xF88B_B8A8_724C_81EC])
    }

    /// The whole path from a scenario's seed to a draw: a change here changes every result.
    @Test("a derived stream: SeedDerivation.seed(7, replication 3, stream 2) and its first draw")
    func derivedStream() {
        let seed = SeedDerivation.seed(scenario: 7, replication: 3, stream: 2)
        #expect(seed == 0xF6B8_AEA2_8D10_F4DD)
        #expect(RandomStream(seed: seed).uniform() == 0.323835610061301)
    }
}
