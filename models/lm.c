/* lm.c - Levenberg-Marquardt for at most 3 unknowns, the iteration of GSL's trust/lm/mcholesky. */
#include "lm.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <string.h>

#define LM_ONE_THIRD (0.333333333333333)

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

/* ||x[0], x[s], ..., x[(k-1)s]||_2 by the scaled sum of squares of the reference BLAS dnrm2 */
static double nrm2(const double *x, size_t k, size_t s)
{
    double scale = 0.0, ssq = 1.0;
    if (k == 0)
        return 0.0;
    if (k == 1)
        return fabs(x[0]);
    for (size_t i = 0; i < k; i++) {
        double v = x[i * s];
        if (v != 0.0) {
            double a = fabs(v);
            if (scale < a) {
                ssq = 1.0 + ssq * (scale / a) * (scale / a);
                scale = a;
            } else {
                ssq += (a / scale) * (a / scale);
            }
        }
    }
    return scale * sqrt(ssq);
}

/* g = J'f, summed over the residuals in order */
static void jt_f(const double *J, const double *f, size_t n, size_t p, double *g)
{
    for (size_t j = 0; j < p; j++)
        g[j] = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < p; j++)
            g[j] += f[i] * J[i * p + j];
}

/* D_j = max(D_j, ||J_j||) with a zero column counted as 1 (More scaling) */
static void update_diag(const double *J, size_t n, size_t p, double *diag)
{
    for (size_t j = 0; j < p; j++) {
        double c = nrm2(J + j, n, p);
        if (c == 0.0)
            c = 1.0;
        diag[j] = dmax(diag[j], c);
    }
}

/* Pivoted modified Cholesky P (A + E) P' = L D L' of the symmetric k x k A (lower triangle
 * read), Golub and Van Loan algorithm 4.2.2 with the Gill-Murray-Wright bound, in place: on
 * return A's strict lower triangle holds L, its diagonal D, perm the pivots. */
static void mchol(double A[LM_MAX_PAR][LM_MAX_PAR], size_t k, size_t *perm)
{
    double gamma = 0.0, xi = 0.0, beta;
    for (size_t i = 0; i < k; i++) {
        perm[i] = i;
        gamma = dmax(gamma, fabs(A[i][i]));
        for (size_t j = 0; j < i; j++)
            xi = dmax(xi, fabs(A[i][j]));
    }
    if (k == 1)
        beta = dmax(dmax(gamma, xi), DBL_EPSILON);
    else
        beta = dmax(dmax(gamma, xi / sqrt((double)(k * k) - 1.0)), DBL_EPSILON);
    beta = sqrt(beta);
    for (size_t j = 0; j < k; j++) {
        size_t q = j;
        double mx = A[j][j], theta = 0.0, u, ajj, alpha, ainv;
        for (size_t i = j + 1; i < k; i++)
            if (fabs(A[i][i]) > mx) {
                mx = fabs(A[i][i]);
                q = i;
            }
        if (q != j) {
            /* symmetric swap of rows and columns q and j, on the full matrix */
            size_t t = perm[q];
            perm[q] = perm[j];
            perm[j] = t;
            for (size_t r = 0; r < k; r++)
                for (size_t c = r + 1; c < k; c++)
                    A[r][c] = A[c][r];
            for (size_t c = 0; c < k; c++) {
                double v = A[q][c];
                A[q][c] = A[j][c];
                A[j][c] = v;
            }
            for (size_t r = 0; r < k; r++) {
                double v = A[r][q];
                A[r][q] = A[r][j];
                A[r][j] = v;
            }
        }
        if (j + 1 < k) {
            /* the largest below-diagonal entry, starting from the first as it stands */
            theta = A[j + 1][j];
            for (size_t i = j + 2; i < k; i++)
                if (fabs(A[i][j]) > theta)
                    theta = fabs(A[i][j]);
        }
        u = theta / beta;
        ajj = A[j][j];
        alpha = dmax(dmax(DBL_EPSILON, fabs(ajj)), u * u);
        ainv = 1.0 / alpha;
        if (j + 1 < k) {
            /* trailing A -= v v' / alpha (lower triangle), then v /= alpha */
            for (size_t r = j + 1; r < k; r++) {
                double t = -ainv * A[r][j];
                for (size_t c = j + 1; c <= r; c++)
                    A[r][c] += A[c][j] * t;
            }
            for (size_t r = j + 1; r < k; r++)
                A[r][j] *= ainv;
        }
        A[j][j] = alpha;
    }
}

/* Solve L D L' P x = P b with the factor of mchol. */
static void mchol_solve(double A[LM_MAX_PAR][LM_MAX_PAR], size_t k, const size_t *perm,
                        const double *b, double *x)
{
    double y[LM_MAX_PAR];
    for (size_t i = 0; i < k; i++)
        y[i] = b[perm[i]];
    for (size_t i = 1; i < k; i++) {
        double t = y[i];
        for (size_t j = 0; j < i; j++)
            t -= A[i][j] * y[j];
        y[i] = t;
    }
    for (size_t i = 0; i < k; i++)
        y[i] = y[i] / A[i][i];
    for (size_t i = k - 1; i-- > 0;) {
        double t = y[i];
        for (size_t j = i + 1; j < k; j++)
            t -= A[j][i] * y[j];
        y[i] = t;
    }
    for (size_t i = 0; i < k; i++)
        x[perm[i]] = y[i];
}

static int all_finite(const double *v, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* The first damping: 1e-3 times the square of the largest scaled column norm ||J_j|| / D_j. */
static double initial_mu(const double *J, size_t n, size_t p, const double *diag)
{
    double mx = -1.0;
    for (size_t j = 0; j < p; j++)
        mx = dmax(mx, nrm2(J + j, n, p) / diag[j]);
    return 1.0e-3 * mx * mx;
}

/* jtj = J'J, the lower triangle (row-major p x p), summed over the residuals in order. */
static void form_jtj(const double *J, size_t n, size_t p, double *jtj)
{
    for (size_t a = 0; a < p; a++)
        for (size_t b = 0; b <= a; b++) {
            double t = 0.0;
            for (size_t i = 0; i < n; i++)
                t += J[i * p + a] * J[i * p + b];
            jtj[a * p + b] = t;
        }
}

/* The step v solving (J'J + mu D'D) v = -g by the modified Cholesky factor. */
static void damped_step(const double *jtj, const double *diag, const double *g, double mu, size_t p,
                        double *v)
{
    double A[LM_MAX_PAR][LM_MAX_PAR], rhs[LM_MAX_PAR];
    size_t perm[LM_MAX_PAR];
    for (size_t a = 0; a < p; a++) {
        for (size_t b = 0; b <= a; b++)
            A[a][b] = jtj[a * p + b];
        A[a][a] += mu * diag[a] * diag[a];
        rhs[a] = -g[a];
    }
    mchol(A, p, perm);
    mchol_solve(A, p, perm, rhs, v);
}

/* rho, the actual over the predicted reduction of step v (normf and normft the residual norms
 * before and after it); -1 when the step did not reduce the norm or nothing was predicted. */
static double gain_ratio(const double *J, const double *v, const double *diag, size_t n, size_t p,
                         double mu, double normf, double normft)
{
    double rho = -1.0;
    if (normft < normf) {
        double u = normft / normf, actual = 1.0 - u * u, e2 = 0.0, jp[LM_MAX_PTS];
        double ndp, njp, w, pred;
        for (size_t j = 0; j < p; j++) {
            double s = diag[j] * v[j];
            e2 += s * s;
        }
        ndp = sqrt(e2);
        for (size_t i = 0; i < n; i++) {
            double t = 0.0;
            for (size_t j = 0; j < p; j++)
                t += J[i * p + j] * v[j];
            jp[i] = t;
        }
        njp = nrm2(jp, n, 1);
        u = njp / normf;
        w = ndp / normf;
        pred = u * u + 2.0 * mu * w * w;
        if (pred > 0.0)
            rho = actual / pred;
    }
    return rho;
}

/* gsl_multifit_nlinear_test(xtol, gtol, 0) after step v to x with gradient g: 1 small step,
 * 2 small gradient, 0 not converged. */
static int converged(const double *v, const double *x, const double *g, size_t p, double normf,
                     double xtol, double gtol)
{
    int small = 1;
    double gnorm = 0.0;
    for (size_t j = 0; j < p; j++)
        if (!(fabs(v[j]) < xtol * xtol + xtol * fabs(x[j]))) {
            small = 0;
            break;
        }
    if (small)
        return 1;
    for (size_t j = 0; j < p; j++) {
        double t = fabs(dmax(x[j], 1.0) * g[j]);
        if (t > gnorm)
            gnorm = t;
    }
    if (gnorm <= gtol * dmax(0.5 * normf * normf, 1.0))
        return 2;
    return 0;
}

int lm_solve(size_t n, size_t p, lm_f_fn f, lm_df_fn df, void *data, const double *theta0,
             size_t max_iter, double xtol, double gtol, struct lm_result *out)
{
    double x[LM_MAX_PAR], xt[LM_MAX_PAR], v[LM_MAX_PAR], g[LM_MAX_PAR], diag[LM_MAX_PAR];
    double fv[LM_MAX_PTS], ft[LM_MAX_PTS];
    double *J = out->J, *jtj = out->jtj;
    double mu, normf;
    long nu = 2;
    size_t iter = 0;

    if (p < 1 || p > LM_MAX_PAR || n < p || n > LM_MAX_PTS || max_iter == 0)
        return LM_ESIZE;
    out->n = n;
    out->p = p;
    memset(jtj, 0, sizeof out->jtj);
    memcpy(x, theta0, p * sizeof *x);
    f(x, data, fv);
    df(x, data, J);
    if (!all_finite(fv, n) || !all_finite(J, n * p))
        return LM_ENONFINITE;
    jt_f(J, fv, n, p, g);
    for (size_t j = 0; j < p; j++)
        diag[j] = 0.0;
    update_diag(J, n, p, diag);
    mu = initial_mu(J, n, p, diag);
    normf = nrm2(fv, n, 1);

    for (;;) {
        int bad = 0, info;
        double rho;
        /* J'J at the start of this iteration (lower triangle) */
        form_jtj(J, n, p, jtj);
        for (;;) {
            double normft;
            damped_step(jtj, diag, g, mu, p, v);
            if (!all_finite(v, p))
                return LM_ENONFINITE;
            for (size_t j = 0; j < p; j++)
                xt[j] = x[j] + v[j];
            f(xt, data, ft);
            if (!all_finite(ft, n))
                return LM_ENONFINITE;
            normft = nrm2(ft, n, 1);
            rho = gain_ratio(J, v, diag, n, p, mu, normf, normft);
            if (!isfinite(rho))
                return LM_ENONFINITE;
            if (rho > 0.0) {
                double b;
                df(xt, data, J);
                if (!all_finite(J, n * p))
                    return LM_ENONFINITE;
                memcpy(x, xt, p * sizeof *x);
                memcpy(fv, ft, n * sizeof *fv);
                normf = normft;
                jt_f(J, fv, n, p, g);
                update_diag(J, n, p, diag);
                b = 2.0 * rho - 1.0;
                b = 1.0 - b * b * b;
                mu *= dmax(LM_ONE_THIRD, b);
                nu = 2;
                break;
            }
            if (nu > (1L << 52))
                return LM_ENOPROG; /* before the doubling could overflow */
            mu *= (double)nu;
            nu <<= 1;
            if (++bad > 15) {
                /* no progress: on the first iteration the end (GSL_EMAXITER from GSL's
                 * driver); later the iteration counts, x stays and the test sees the last
                 * step tried, as GSL's driver does */
                if (iter == 0)
                    return LM_ENOPROG;
                break;
            }
        }
        iter++;
        /* gsl_multifit_nlinear_test(xtol, gtol, 0): the step, then the gradient */
        if ((info = converged(v, x, g, p, normf, xtol, gtol)) != 0) {
            out->info = info;
            break;
        }
        if (iter >= max_iter)
            return LM_EMAXITER;
    }
    memcpy(out->theta, x, p * sizeof *x);
    out->iterations = iter;
    return LM_OK;
}

int lm_covar(const struct lm_result *r, double epsrel, gsl_matrix *covar)
{
    gsl_matrix_const_view J = gsl_matrix_const_view_array(r->J, r->n, r->p);
    return gsl_multifit_nlinear_covar(&J.matrix, epsrel, covar);
}

int lm_rcond(const struct lm_result *r, double *rcond)
{
    double a[LM_MAX_PAR * LM_MAX_PAR], work[3 * LM_MAX_PAR], rc;
    size_t pd[LM_MAX_PAR];
    gsl_permutation perm = {r->p, pd};
    gsl_matrix_view A = gsl_matrix_view_array(a, r->p, r->p);
    gsl_vector_view w = gsl_vector_view_array(work, 3 * r->p);
    int status;
    memcpy(a, r->jtj, r->p * r->p * sizeof *a);
    status = gsl_linalg_mcholesky_decomp(&A.matrix, &perm, NULL);
    if (status == GSL_SUCCESS)
        status = gsl_linalg_mcholesky_rcond(&A.matrix, &perm, &rc, &w.vector);
    if (status == GSL_SUCCESS)
        *rcond = sqrt(rc);
    return status;
}
