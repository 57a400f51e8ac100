/*
 * piecewise.h - the piecewise linear-then-flat model X(N) = min(lambda*N, X_m).
 *
 * For a closed system of c identical servers with zero think time the exact throughput is
 * min(N, c)/S (the asymptotic bounds of operational analysis: Lazowska et al., "Quantitative
 * System Performance", 1984, ch. 5), so this is the zero-think-time M/M/c curve and a baseline
 * for model selection (docs/reference/models.md §1.4). The SSE is not smooth in (lambda, X_m), so
 * the fit enumerates the splits of the points sorted by N: the k smallest N on the linear branch
 * (lambda = sum X_i N_i / sum N_i^2), the rest on the flat branch (X_m = their mean); a split is
 * admissible when lambda*N_k <= X_m <= lambda*N_{k+1} (consistent with the min) and the flat
 * branch holds at least 2 distinct N (one point cannot tell a ceiling from a rise). All points on
 * the linear branch (no knee inside the data, X_m unknown, 1 parameter) is one more candidate.
 * The smallest SSE wins. Given the split the model is linear, so standard errors are exact
 * for that split: var(lambda) = s^2 / sum N_i^2, var(X_m) = s^2 / n_flat, covariance 0.
 *
 * Thread-safety: touches only its arguments.
 */
#ifndef SIZEUP_MODELS_PIECEWISE_H
#define SIZEUP_MODELS_PIECEWISE_H

#include "model.h"

#include <stddef.h>

/**
 * Fit X = min(lambda*N, X_m).
 * @param n, x   points (N > 0, X > 0, finite); at least 2 points and 2 distinct N for a knee
 *               (with one distinct N only the linear branch X = lambda*N is fitted)
 * @param out    filled on success: kind MODEL_PIECEWISE, par[MODEL_LAMBDA], par[MODEL_XM]
 *               (value NAN and fixed = 1 with MODEL_WARN_KNEE_BEYOND when no knee lies inside
 *               the data), k = 2 (1 without knee), statistics
 * @return MODEL_OK, MODEL_EINVAL (no points, bad point), MODEL_ENOMEM.
 */
int piecewise_fit(const double *n, const double *x, size_t npts, struct model_fit *out,
                  char *errmsg, size_t errcap);

/**
 * The knee N = X_m / lambda where the linear branch meets the ceiling; NAN without a knee.
 */
double piecewise_knee(const struct model_fit *f);

#endif
