#include "xoshiro_gsl.h"
#include <stdint.h>
#include <limits.h>

typedef struct { uint64_t s[4]; } xoshiro_state;

static inline uint64_t rotl(const uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next(xoshiro_state *st) {
    uint64_t *s = st->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* splitmix64 expands one 64-bit seed into a non-zero 256-bit state (Vigna's recommendation). */
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void xoshiro_set(void *vstate, unsigned long int seed) {
    xoshiro_state *st = (xoshiro_state *)vstate;
    uint64_t x = (uint64_t)seed;
    for (int i = 0; i < 4; i++) st->s[i] = splitmix64(&x);
}

static unsigned long int xoshiro_get(void *vstate) {
    return (unsigned long int)next((xoshiro_state *)vstate);
}

static double xoshiro_get_double(void *vstate) {
    return (double)(next((xoshiro_state *)vstate) >> 11) * 0x1.0p-53;
}

static const gsl_rng_type xoshiro_type = {
    "xoshiro256**",
    ULONG_MAX,
    0,
    sizeof(xoshiro_state),
    &xoshiro_set,
    &xoshiro_get,
    &xoshiro_get_double
};

const gsl_rng_type *retrystorm_rng_xoshiro256ss(void) { return &xoshiro_type; }
