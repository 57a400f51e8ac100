/*
 * bootstrap.h - residual bootstrap intervals for the derived figures of a fit.
 *
 * B. Efron & R. Tibshirani, "An Introduction to the Bootstrap" (1993), §9.5 (bootstrapping
 * residuals) and §13 (percentile intervals); docs/reference/models.md §4.4. Each replicate refits
 * the same model to X*_i = Xhat(N_i) + r_j * sqrt(n/(n-p)), r_j drawn with replacement from the
 * fit's residuals by a gsl_rng (mt19937) with a fixed seed, so a run is reproducible (a resampled
 * throughput may be <= 0; the USL refit accepts it, usl_options.any_sign_x). The 95 %
 * interval of a figure is the 2.5 % and 97.5 % quantiles of its replicates (linear between
 * order statistics). A replicate without a peak (kappa at 0, sigma at 1) has N* = +infinity:
 * when more than 2.5 % of them have none, the upper bound is +INFINITY ("peak not identified"),
 * and its maximum throughput is the ceiling lambda/sigma. More honest than the delta method
 * for 5-10 points and skewed figures such as N* (docs/reference/models.md §4.4: vendor curve b has
 * N* in [139, unbounded)).
 *
 * Thread-safety: touches only its arguments (the workspace belongs to one thread).
 */
#ifndef SIZEUP_MODELS_BOOTSTRAP_H
#define SIZEUP_MODELS_BOOTSTRAP_H

#include "derived.h"
#include "model.h"
#include "usl.h"

#include <stddef.h>

struct bootstrap_options {
    size_t replicates;  /* B, >= 100 (default 2000) */
    unsigned long seed; /* gsl_rng seed (default 42) */
};

/** Defaults: 2000 replicates, seed 42. */
struct bootstrap_options bootstrap_options_default(void);

struct bootstrap_result {
    size_t replicates;            /* asked */
    size_t refitted;              /* replicates whose refit succeeded (quantiles use these) */
    size_t no_peak;               /* refitted replicates without a peak */
    struct derived_value n_peak;  /* value: the fit's N* (NAN without peak); lo/hi: quantiles */
    struct derived_value x_max;   /* maximum throughput: X(N*), or lambda/sigma without peak */
    struct derived_value ceiling; /* lambda/sigma (USL, Amdahl) or X_m (piecewise) */
};

/**
 * Bootstrap the derived figures of a fit made from the points n, x (the same points and the
 * same kind of model the fit used; Amdahl and USL refit with usl_fit, piecewise with
 * piecewise_fit).
 * @param opt  NULL for the defaults
 * @param ws   USL workspace to reuse, or NULL
 * @return MODEL_OK; MODEL_EINVAL (npts differs from the fit, fewer than 100 replicates, no
 *         degrees of freedom); MODEL_ENOCONV (fewer than 90 % of the refits succeeded);
 *         MODEL_ENOMEM.
 */
int bootstrap_derived(const double *n, const double *x, size_t npts, const struct model_fit *fit,
                      const struct bootstrap_options *opt, struct usl_workspace *ws,
                      struct bootstrap_result *out, char *errmsg, size_t errcap);

#endif
