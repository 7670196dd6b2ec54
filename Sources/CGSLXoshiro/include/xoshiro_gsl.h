#ifndef RETRYSTORM_XOSHIRO_GSL_H
#define RETRYSTORM_XOSHIRO_GSL_H

#include <gsl/gsl_rng.h>

/* xoshiro256** (Blackman & Vigna, 2018, https://prng.di.unimi.it/) as a gsl_rng_type.
   gsl_rng_set(r, seed) takes the full 64-bit seed (expanded by splitmix64), unlike
   GSL's mt19937/taus2 whose seeds are effectively 32-bit. get() returns 64 bits;
   get_double() returns the top 53 bits scaled to [0, 1). */
const gsl_rng_type *retrystorm_rng_xoshiro256ss(void);

#endif
