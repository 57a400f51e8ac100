/*
 * lm.h - a small Levenberg-Marquardt least-squares solver for the USL and Amdahl fits: at most
 * LM_MAX_PAR unknowns and LM_MAX_PTS residuals, analytic Jacobian, no allocation.
 *
 * It minimises 0.5 ||f(theta)||^2 by the iteration that gsl_multifit_nlinear runs with the
 * trust-region driver, the plain Levenberg-Marquardt subproblem, the modified Cholesky solver
 * and More scaling (GSL manual, "Nonlinear Least-Squares Fitting"), step for step and with
 * the same floating-point operations in the same order, so that a run gives the bits GSL's
 * would:
 *   - the step v solves (J'J + mu D'D) v = -J'f (J. J. More, "The Levenberg-Marquardt
 *     algorithm: implementation and theory", Numerical Analysis, LNM 630, Springer 1978,
 *     eq. 3.1), by the pivoted modified Cholesky factorisation P (A + E) P' = L D L' (Golub
 *     and Van Loan, "Matrix Computations", 4th ed., algorithm 4.2.2, with the Gill-Murray-
 *     Wright bound on E);
 *   - D = diag(max over the iterations of the column norms of J) (More 1978, eq. 6.3);
 *   - gain ratio rho = (1 - ||f(x+v)||^2/||f||^2) / ((||Jv||^2 + 2 mu ||Dv||^2)/||f||^2)
 *     (More 1978, eq. 4.4), the step kept when rho > 0;
 *   - mu starts at 1e-3 max_j ||J_j||^2/D_j^2 and is updated by Nielsen's rule: kept step
 *     mu *= max(1/3, 1 - (2 rho - 1)^3), nu = 2; rejected step mu *= nu, nu *= 2 (K. Madsen,
 *     H. B. Nielsen, O. Tingleff, "Methods for non-linear least squares problems", 2nd ed.,
 *     DTU 2004, §3.2, eq. 3.16);
 *   - after each kept step the convergence test of gsl_multifit_nlinear_test: every
 *     |v_i| < xtol^2 + xtol |x_i| (info 1), or max_i |max(x_i, 1) g_i| <= gtol max(||f||^2/2, 1)
 *     with g = J'f (info 2).
 * Norms of residual and Jacobian columns use the scaled sum of squares of the reference BLAS
 * dnrm2 (as GSL's CBLAS does).
 *
 * More than 15 rejected steps in a row end an iteration without a step; the iteration still
 * counts and the convergence test sees the last step tried (GSL's driver does the same), except
 * on the first iteration. The solver only reports a run that converged cleanly. Everything
 * else (no step on the first iteration, the iteration limit, a non-finite value, more than
 * LM_MAX_PTS residuals) is returned as an error without a result, and the caller runs GSL's
 * solver, which handles those cases as it always has (models/usl.c).
 *
 * Thread-safety: every function touches only its arguments.
 */
#ifndef SIZEUP_MODELS_LM_H
#define SIZEUP_MODELS_LM_H

#include <gsl/gsl_matrix.h>
#include <stddef.h>

/* Most unknowns and most residuals of a problem. */
#define LM_MAX_PAR 3
#define LM_MAX_PTS 64

/* Return codes of lm_solve. */
enum {
    LM_OK = 0,         /* converged (lm_result.info says by which test) */
    LM_ESIZE = -1,     /* n or p out of range, or n < p */
    LM_ENOPROG = -2,   /* more than 15 rejected steps in a row on the first iteration, or
                          the damping factor nu past 2^52 */
    LM_EMAXITER = -3,  /* the iteration limit was reached */
    LM_ENONFINITE = -4 /* a residual, Jacobian entry or step was not finite, or the factor
                          failed */
};

/* Residuals f[0..n-1] at theta[0..p-1]; data is the caller's. */
typedef void (*lm_f_fn)(const double *theta, void *data, double *f);
/* Jacobian df_i/dtheta_j at theta into J[i*p + j] (row-major, n x p). */
typedef void (*lm_df_fn)(const double *theta, void *data, double *J);

/* A converged run. */
struct lm_result {
    double theta[LM_MAX_PAR];            /* the solution */
    double J[LM_MAX_PTS * LM_MAX_PAR];   /* Jacobian at theta, row-major n x p */
    double jtj[LM_MAX_PAR * LM_MAX_PAR]; /* J'J (lower triangle, row-major p x p) at the point
                                            where the last iteration started: what GSL's
                                            mcholesky solver holds for its rcond */
    size_t n, p;
    size_t iterations; /* iterations, as gsl_multifit_nlinear_niter counts them */
    int info;          /* 1: small step, 2: small gradient (gsl_multifit_nlinear_driver) */
};

/**
 * Minimise 0.5 ||f(theta)||^2 from theta0 as described at the top of this file.
 *
 * @param n, p      residuals (p <= n <= LM_MAX_PTS) and unknowns (1 <= p <= LM_MAX_PAR)
 * @param f, df     residuals and Jacobian; they must write every entry
 * @param data      passed to f and df
 * @param theta0    start, p values
 * @param max_iter  iteration limit (> 0)
 * @param xtol      step tolerance, gtol gradient tolerance (as gsl_multifit_nlinear_driver)
 * @param out       filled when LM_OK is returned; scratch otherwise
 * @return LM_OK, LM_ESIZE, LM_ENOPROG, LM_EMAXITER or LM_ENONFINITE.
 */
int lm_solve(size_t n, size_t p, lm_f_fn f, lm_df_fn df, void *data, const double *theta0,
             size_t max_iter, double xtol, double gtol, struct lm_result *out);

/**
 * Unscaled covariance (J'J)^-1 of a converged run, by gsl_multifit_nlinear_covar on its
 * Jacobian (QR with column pivoting; columns whose R_kk is <= epsrel |R_11| get zero rows
 * and columns).
 * @param covar  p x p, owned by the caller
 * @return the GSL status (GSL_SUCCESS).
 */
int lm_covar(const struct lm_result *r, double epsrel, gsl_matrix *covar);

/**
 * Reciprocal condition number of J as gsl_multifit_nlinear_rcond reports it for the
 * mcholesky solver: sqrt of the 1-norm reciprocal condition estimate of lm_result.jtj.
 * @return the GSL status; *rcond is set on GSL_SUCCESS.
 */
int lm_rcond(const struct lm_result *r, double *rcond);

#endif
