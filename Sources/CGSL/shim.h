#ifndef RETRYSTORM_CGSL_SHIM_H
#define RETRYSTORM_CGSL_SHIM_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_histogram.h>

/* Swift 6 rejects reads of GSL's generator-type globals (shared mutable state);
   these accessors return them without exposing the globals themselves. */
static inline const gsl_rng_type *cgsl_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_rng_type *cgsl_rng_taus2(void) { return gsl_rng_taus2; }

#endif
