/*
 * usl.h - fit the Universal Scalability Law and Amdahl's law to a throughput curve.
 *
 *   X(N) = lambda*N / (1 + sigma*(N-1) + kappa*N*(N-1))
 *   (N. Gunther, "Guerrilla Capacity Planning", Springer 2007, eq. 4.31; B. Schwartz,
 *   "Practical Scalability Analysis with the Universal Scalability Law", eq. usl)
 *
 * Least squares by the iteration of gsl_multifit_nlinear (trust region, Levenberg-Marquardt
 * steps, modified Cholesky solver, More scaling, analytic Jacobian; GSL manual "Nonlinear
 * Least-Squares Fitting"), run by models/lm.h with the same bits, GSL's own solver rerunning
 * any face that lm.h does not bring to a clean convergence; unknowns scaled to (lambda/lambda0,
 * sigma*N_max, kappa*N_max^2) with lambda0 = max X/N. Each face runs to xtol = gtol = 1e-12 or
 * max_iter; a run that stops with GSL_ENOPROG or GSL_EMAXITER is kept only if it passes the looser
 * stationarity test gsl_multifit_nlinear_test(1e-9, 1e-7). Bounds sigma >= 0, kappa >= 0, sigma < 1
 * by active-set face enumeration (docs/reference/models.md §4.2): the free fit and every face
 * {sigma = 0}, {kappa = 0}, {sigma = kappa = 0}, and {sigma = 1}, {sigma = 1, kappa = 0} (the
 * closure of sigma < 1, where a curve that falls from its first point ends up) are fitted and the
 * admissible run with the smallest SSE is kept (a pinned face must beat a freer one by more than
 * 1e-9 relative). With two simple bounds this is the Karush-Kuhn-Tucker solution; a parameter on
 * its bound is reported fixed (value 0, no standard error) and the standard errors of the others
 * come from the face's own Jacobian: SE = sqrt(diag((J'J)^-1) * SSE/(n-p)) (GSL manual, "Covariance
 * matrix of best fit parameters").
 *
 * Starting values come from the linearised form N/X = ((1-sigma) + (sigma-kappa)N + kappa N^2)
 * / lambda, a linear least-squares fit of N/X on (1, N, N^2) (the "solve a linearized
 * approximation" advice of the GSL manual's Troubleshooting section; pt-usl does the same). The
 * free face is also started from the data when the linearised start gave no admissible fit, or
 * when the highest throughput lies below the largest x and the linearised start's fit is not
 * strictly inside the bounds or its solver stopped short of GSL_SUCCESS: the peak N* put at the
 * level with the most throughput (sigma 0.1), and at half the smallest x (sigma 0.1 and 0.6) for
 * a curve that is past its peak over the whole range, lambda each time so that the curve passes
 * through that level. (On such a curve the linearised start can land where the solver stalls.)
 *
 * Thread-safety: a workspace belongs to one thread at a time; functions touch only their
 * arguments.
 */
#ifndef SIZEUP_MODELS_USL_H
#define SIZEUP_MODELS_USL_H

#include "model.h"

#include <stddef.h>

/* Reusable solver state (GSL workspaces cached by problem size). */
struct usl_workspace;

/** New workspace, or NULL when out of memory. Free with usl_workspace_free(). */
struct usl_workspace *usl_workspace_new(void);

/** Free a workspace. NULL-safe. */
void usl_workspace_free(struct usl_workspace *ws);

/* What to fit. usl_options_default() gives the 3-parameter USL with lambda fitted (M3). */
struct usl_options {
    int amdahl;          /* 1: kappa held at 0 (Amdahl's law, 2 parameters) */
    double lambda_fixed; /* NAN: lambda fitted; > 0: lambda held at this value (Gunther's
                            normalised fit with lambda = X(1), "M2" of EXPECTED.md) */
    size_t max_iter;     /* solver iteration limit per face (default 500) */
    int any_sign_x;      /* 1: accept throughputs <= 0 (finite), as resampled data can have
                            (bootstrap.h); default 0: every throughput must be > 0 */
    int all_faces;       /* 1: fit every bound face whatever the free fit gave, and the data
                            starts for every curve past its best level (the reference the fast
                            path is tested against, tests/models/test_fit_faces.c); default 0:
                            the pinned faces only when the free fit is not strictly inside the
                            bounds, the data starts only as above */
};

/** The 3-parameter USL, lambda fitted, 500 iterations. */
struct usl_options usl_options_default(void);

/**
 * Fit the USL (or Amdahl's law) with the bounds above.
 *
 * @param n      x of each point: concurrency or node count, finite and > 0
 * @param x      throughput of each point, finite and > 0 (any finite value with any_sign_x)
 * @param npts   points; at least 3 with at least 3 distinct n (fewer distinct n cannot
 *               determine sigma and kappa: use piecewise_fit)
 * @param opt    NULL for usl_options_default()
 * @param ws     workspace reused across calls, or NULL (one is made and freed per call)
 * @param out    filled on success (kind MODEL_USL or MODEL_AMDAHL, parameters, SE, 95 %
 *               intervals, statistics, status, iterations, faces tried)
 * @param errmsg receives the reason on error (may be NULL)
 * @return MODEL_OK, MODEL_EINVAL (bad point, fewer than 3 distinct n, lambda_fixed <= 0),
 *         MODEL_ENOCONV (no face converged), MODEL_ENOMEM.
 */
int usl_fit(const double *n, const double *x, size_t npts, const struct usl_options *opt,
            struct usl_workspace *ws, struct model_fit *out, char *errmsg, size_t errcap);

/**
 * Gunther's linearised "deviation from linearity" regression (GCaP §5.5; R usl 1.x default,
 * EXPECTED.md mode MQ): with x1 = X(1), u = N-1 and y = N*x1/X - 1, least squares through
 * the origin y = a*u^2 + b*u gives kappa = a, sigma = b - a, lambda = x1. No bounds.
 * Standard errors as R usl 1.x reports them: s^2 (J'J)^-1 with J the Jacobian of X(N) in
 * (sigma, kappa) at the estimate; statistics (SSE, RSE, R^2) are in throughput units with
 * dof = n - 2.
 *
 * @param x1   throughput at N = 1 (> 0), e.g. the measured X(1)
 * @return MODEL_OK, MODEL_EINVAL (bad point, fewer than 3 distinct n, x1 <= 0, singular
 *         regression).
 */
int usl_fit_linearized(const double *n, const double *x, size_t npts, double x1,
                       struct model_fit *out, char *errmsg, size_t errcap);

#endif
