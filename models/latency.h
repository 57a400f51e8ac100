/*
 * latency.h - latency from a fitted throughput curve.
 *
 * Mean response time of a closed loop (sysbench --threads=N without --rate) by Little's law:
 *   R(N) = N / X(N) - Z        (Z = think time; B. Schwartz, "Practical Scalability Analysis
 *                               with the USL", eq. r_n; docs/reference/models.md §1.3)
 * Units: R is in the reciprocal unit of X (seconds when X is per second); Z likewise.
 *
 * Concurrency at a target mean latency R_t for the USL: N/X = R_t + Z solves
 *   kappa N^2 + (sigma - kappa) N + (1 - sigma - lambda (R_t + Z)) = 0,
 * taken in the cancellation-free form (docs/reference/models.md §1.3)
 *   N_R = 2c / ((sigma - kappa) + sqrt((sigma - kappa)^2 + 4 kappa c)),  c = lambda (R_t+Z) - 1 +
 * sigma, which gives c/sigma when kappa = 0. Past the peak N* both latency and throughput get
 * worse, so the answer is capped at N* (never beyond) and the throughput is X(min(N_R, N*)). For
 * the piecewise model R = 1/lambda - Z up to the knee and N/X_m - Z beyond: N_R = (R_t + Z) X_m.
 *
 * Percentile latency as a function of N from measured percentiles (struct latency_pctl):
 * inside the measured range Steffen's monotone cubic interpolation (M. Steffen, Astron.
 * Astrophys. 239, 1990; gsl_interp_steffen) through the measured values (linear for 2 points);
 * outside it the mean extrapolated by the model times the percentile/mean ratio measured at
 * the nearest end e of the range: P(N) = (P_e / M_e) * M_e * R(N) / R(N_e) = P_e R(N) / R(N_e),
 * which is continuous at the end; flagged as extrapolated.
 *
 * Thread-safety: functions touch only their arguments; a latency_pctl may be read by several
 * threads at once.
 */
#ifndef SIZEUP_MODELS_LATENCY_H
#define SIZEUP_MODELS_LATENCY_H

#include "derived.h"
#include "model.h"

#include <stddef.h>

/* Outcome of latency_at_target. */
enum latency_target_status {
    LATENCY_OK = 0,          /* n and x hold the answer */
    LATENCY_UNREACHABLE = 1, /* the target is below the latency of the smallest concurrency */
    LATENCY_UNBOUNDED = 2    /* every concurrency meets the target (no saturation in model) */
};

struct latency_target {
    enum latency_target_status status;
    struct derived_value n; /* concurrency at the target (or at N* when capped) */
    struct derived_value x; /* throughput there */
    int capped;             /* 1: N_R lay beyond N*; n and x are those of the peak */
    int extrapolated;       /* 1: n lies outside the measured range */
};

/**
 * Mean response time at concurrency n: n / X(n) - think_s.
 * @return seconds (reciprocal unit of X), or NAN when n <= 0.
 */
double latency_mean(const struct model_fit *f, double n, double think_s);

/**
 * Concurrency and throughput at a target mean latency, with delta-method 95 % intervals.
 * @param target_s  target mean response time (> 0), reciprocal unit of X
 * @param think_s   think time Z (>= 0)
 * @return MODEL_OK (out->status says whether there is an answer), MODEL_EINVAL (target <= 0,
 *         think time < 0).
 */
int latency_at_target(const struct model_fit *f, double target_s, double think_s,
                      struct latency_target *out);

/* A percentile latency curve built from measured points. */
struct latency_pctl;

/**
 * Build a percentile curve from m measured points.
 * @param n       concurrency of each point (> 0, distinct)
 * @param pctl_s  the measured percentile at each point (> 0), seconds
 * @param m       points, >= 1 (any order)
 * @return a curve (free with latency_pctl_free), or NULL with errmsg set (bad or duplicate
 *         values, out of memory).
 */
struct latency_pctl *latency_pctl_new(const double *n, const double *pctl_s, size_t m, char *errmsg,
                                      size_t errcap);

/** Free a curve. NULL-safe. */
void latency_pctl_free(struct latency_pctl *c);

/**
 * The percentile latency at concurrency n.
 * @param f             the fitted throughput model (for the mean outside the measured range)
 * @param extrapolated  set to 1 when n lies outside the measured range, else 0
 * @return seconds, or NAN when n <= 0 or the model gives no finite mean there.
 */
double latency_pctl_eval(const struct latency_pctl *c, const struct model_fit *f, double n,
                         double think_s, int *extrapolated);

#endif
