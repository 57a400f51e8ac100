/*
 * derived.h - figures derived from a fitted model, each with a 95 % interval.
 *
 *   peak concurrency  N* = sqrt((1 - sigma) / kappa)              (Gunther, GCaP 2007, eq. 4.33)
 *   peak throughput   X(N*) = lambda N* / (2(1 - sigma) + (sigma - kappa) N*)
 * (docs/reference/models.md §1.1) ceiling           lambda / sigma, the Amdahl asymptote (R usl
 * limit.scalability); X_m for the piecewise model knee              X_m / lambda (piecewise);
 * 1/sigma for the USL and Amdahl (R usl optimal.scalability: where the linear bound meets the
 * ceiling)
 *
 * Intervals: delta method (model_delta_se) with the t quantile of the fit's degrees of freedom,
 * value -/+ t * SE, clipped at 0 for quantities that cannot be negative. A peak is reported
 * only for a USL whose kappa is significant (fit_kappa_significant), or whose points fall beyond
 * their noise after the best level (model_fit.peak_in_data: the data show the peak); otherwise
 * the model has no peak (docs/reference/models.md §0 item 3).
 *
 * Regime at the largest x measured, from the terms of D(N) = 1 + sigma (N-1) + kappa N (N-1)
 * (Gunther, arXiv:0808.1431, eq. 26): contention-bound when sigma (N-1) >= kappa N (N-1),
 * i.e. N_max <= sigma/kappa, coherency-bound beyond; "linear" when sigma = kappa = 0.
 *
 * Thread-safety: touches only its arguments.
 */
#ifndef SIZEUP_MODELS_DERIVED_H
#define SIZEUP_MODELS_DERIVED_H

#include "model.h"

/* A derived figure: value and 95 % interval; NAN when undefined or without an interval. */
struct derived_value {
    double value, lo, hi;
};

enum derived_regime {
    DERIVED_LINEAR = 0,     /* no contention, no coherency over the measured range */
    DERIVED_CONTENTION = 1, /* contention (sigma) term dominates at the largest x */
    DERIVED_COHERENCY = 2,  /* coherency (kappa) term dominates at the largest x */
    DERIVED_CEILING = 3     /* piecewise: flat beyond the knee */
};

struct model_derived {
    int has_peak;    /* 1: n_peak and x_peak hold a peak (USL, kappa significant, sigma < 1) */
    int plateau;     /* 1: no peak in range: kappa is 0, not significant, or not modelled */
    int falling;     /* 1: sigma at its bound 1: throughput falls from the first point */
    int peak_beyond; /* 1: N* lies beyond the largest x measured (extrapolated) */
    struct derived_value n_peak;  /* N*, same unit as x */
    struct derived_value x_peak;  /* X(N*) */
    struct derived_value ceiling; /* lambda/sigma, or X_m; NAN when sigma = 0 */
    struct derived_value knee;    /* X_m/lambda, or 1/sigma; NAN when undefined */
    enum derived_regime regime;
    double crossover_n; /* sigma/kappa: where coherency overtakes contention */
};

/* A prediction at one x. */
struct derived_prediction {
    double n;
    struct derived_value x;   /* throughput X(N) (interval for the mean curve) */
    struct derived_value r_s; /* mean response time N/X(N) - Z, in 1/(unit of X): seconds
                                 when X is per second; NAN when x is a node count */
    int extrapolated;         /* 1: N outside the measured range */
};

/** Name of a regime: "linear", "contention", "coherency", "ceiling". */
const char *derived_regime_name(enum derived_regime r);

/**
 * Compute the derived figures of a fit.
 * @return MODEL_OK, or MODEL_EINVAL when f is NULL or has non-finite parameters.
 */
int derived_compute(const struct model_fit *f, struct model_derived *out);

/**
 * Predict throughput and mean latency at n.
 * @param n        x at which to predict, > 0
 * @param think_s  think time Z in seconds (>= 0), subtracted from N/X (closed loop, Little's
 *                 law R = N/X - Z; Schwartz eq. r_n)
 * @param latency  1 to compute r_s (x is concurrency), 0 to leave it NAN (x is a node count)
 * @return MODEL_OK or MODEL_EINVAL (n <= 0, think_s < 0).
 */
int derived_predict(const struct model_fit *f, double n, double think_s, int latency,
                    struct derived_prediction *out);

#endif
