#!/usr/bin/env python3
"""Expected values for Tests/GSLSupportTests/XoshiroKnownAnswerTests.swift, computed without the product.

An independent transcription, from the published descriptions, of
  - xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number generators", 2018;
    reference code https://prng.di.unimi.it/xoshiro256starstar.c):
        result = rotl(s[1] * 5, 7) * 9;  t = s[1] << 17;
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45)
  - splitmix64 (Steele, Lea & Flood, OOPSLA 2014; https://prng.di.unimi.it/splitmix64.c), which
    expands one 64-bit seed into the 256-bit state, as Vigna recommends and as
    Sources/CGSLXoshiro/xoshiro_gsl.c does (state words are its first four outputs);
  - GSL's double from a 64-bit output: the top 53 bits times 2^-53 (xoshiro_gsl.c, get_double);
  - SeedDerivation.seed (Sources/GSLSupport/SeedDerivation.swift): splitmix64's output function
    applied to (seed + golden gamma), then xor replication, then xor stream, with its constants.

The script checks itself against published outputs before printing anything:
  - xoshiro256** from the state {1, 2, 3, 4}: the ten values the rand_xoshiro crate's test
    (rust-random/rngs, rand_xoshiro/src/xoshiro256starstar.rs) took from the reference code;
  - splitmix64 from the seed 0: 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
    0xF88BB8A8724C81EC (the first outputs of splitmix64.c, quoted widely).
Usage: python3 scripts/xoshiro_reference.py
"""

M = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M


def xoshiro256ss(s):
    """One step of xoshiro256** on the list s (four 64-bit words, updated in place)."""
    result = (rotl((s[1] * 5) & M, 7) * 9) & M
    t = (s[1] << 17) & M
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result


def mix(z):
    """splitmix64's output function (SeedDerivation.mix)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def splitmix64(seed, n):
    x, out = seed, []
    for _ in range(n):
        x = (x + GOLDEN_GAMMA) & M
        out.append(mix(x))
    return out


def seeded_state(seed):
    return splitmix64(seed, 4)


def derived_seed(seed, replication, stream):
    h = mix((seed + GOLDEN_GAMMA) & M)
    h = mix(((h ^ replication) + 0xD1B54A32D192ED03) & M)
    h = mix(((h ^ stream) + 0x8CB92BA72F3D8DD7) & M)
    return h


PUBLISHED_XOSHIRO_1234 = [11520, 0, 1509978240, 1215971899390074240, 1216172134540287360,
                          607988272756665600, 16172922978634559625, 8476171486693032832,
                          10595114339597558777, 2904607092377533576]
PUBLISHED_SPLITMIX_0 = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC]


def main():
    s = [1, 2, 3, 4]
    assert [xoshiro256ss(s) for _ in range(10)] == PUBLISHED_XOSHIRO_1234
    assert splitmix64(0, 4) == PUBLISHED_SPLITMIX_0
    h = lambda xs: "[" + ", ".join("0x%016X" % x for x in xs) + "]"
    print("xoshiro256** from {1, 2, 3, 4}, outputs 1-10:", PUBLISHED_XOSHIRO_1234)
    s = [1, 2, 3, 4]
    for _ in range(10):
        xoshiro256ss(s)
    print("state after those ten steps:", h(s))
    for seed in [0, 42, 0xFFFFFFFFFFFFFFFF]:
        st = seeded_state(seed)
        print("seed 0x%X: state %s" % (seed, h(st)))
        outs = [xoshiro256ss(st) for _ in range(4)]
        print("  outputs 1-4:", h(outs))
        print("  first as a double (top 53 bits / 2^53): %r" % ((outs[0] >> 11) * 2.0 ** -53))
    d = derived_seed(7, 3, 2)
    print("SeedDerivation.seed(scenario: 7, replication: 3, stream: 2) = 0x%016X" % d)
    st = seeded_state(d)
    print("  its stream's first double: %r" % ((xoshiro256ss(st) >> 11) * 2.0 ** -53))


if __name__ == "__main__":
    main()
