/* usl.c - USL / Amdahl least squares (models/lm.h, gsl_multifit_nlinear) on active-set faces. */
#include "usl.h"

#include "lm.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One cached GSL workspace per number of free parameters (1..3), and the last run of the
 * hand-written solver per number of free parameters; lm_ran[p] says which of the two made the
 * last run for p unknowns. */
struct usl_workspace {
    gsl_multifit_nlinear_workspace *w[MODEL_MAX_PAR + 1];
    size_t n[MODEL_MAX_PAR + 1];
    struct lm_result lm[MODEL_MAX_PAR + 1];
    int lm_ran[MODEL_MAX_PAR + 1];
};

/* A face: which parameters are free, the values of the others, and the unknowns' scales. */
struct face {
    const double *n, *x;
    size_t npts;
    double fixed[MODEL_MAX_PAR]; /* value of each parameter when not free */
    int free_idx[MODEL_MAX_PAR]; /* par index of unknown j */
    size_t p;                    /* free parameters */
    double scale[MODEL_MAX_PAR]; /* par = theta * scale */
};

struct usl_workspace *usl_workspace_new(void)
{
    return calloc(1, sizeof(struct usl_workspace));
}

void usl_workspace_free(struct usl_workspace *ws)
{
    if (!ws)
        return;
    for (int p = MODEL_MAX_PAR; p >= 0; p--) {
        if (ws->w[p])
            gsl_multifit_nlinear_free(ws->w[p]);
    }
    free(ws);
}

struct usl_options usl_options_default(void)
{
    struct usl_options o;
    o.amdahl = 0;
    o.lambda_fixed = NAN;
    o.max_iter = 500;
    o.any_sign_x = 0;
    o.all_faces = 0;
    return o;
}

static gsl_multifit_nlinear_workspace *get_ws(struct usl_workspace *ws, size_t npts, size_t p)
{
    if (ws->w[p] && ws->n[p] == npts)
        return ws->w[p];
    if (ws->w[p])
        gsl_multifit_nlinear_free(ws->w[p]);
    ws->w[p] = NULL;
    {
        gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
        /* plain Levenberg-Marquardt and the modified Cholesky solver: on 8-point curves
         * they need the same iterations as lmaccel + QR at 2.2x the speed (bench_fit), and
         * mcholesky stays usable when J'J is nearly singular (GSL manual, "Solving the
         * Trust Region Subproblem"); models/lm.c makes the same iteration */
        fp.trs = gsl_multifit_nlinear_trs_lm;
        fp.solver = gsl_multifit_nlinear_solver_mcholesky;
        ws->w[p] = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, npts, p);
    }
    ws->n[p] = npts;
    return ws->w[p];
}

/* The residuals and the Jacobian, shared by the callbacks of both solvers (models/lm.h and
 * GSL's, which get the same bits from them): they run several times per solver iteration, so
 * the GSL callbacks read and write the vectors and matrix through their data pointers (the
 * sizes are the face's, set by run_face) instead of gsl_vector_get/set and gsl_matrix_set. */
static inline void unpack(const struct face *fc, const double *th, size_t stride, double *par)
{
    for (int i = 0; i < MODEL_MAX_PAR; i++)
        par[i] = fc->fixed[i];
    for (size_t j = 0; j < fc->p; j++)
        par[fc->free_idx[j]] = th[j * stride] * fc->scale[fc->free_idx[j]];
}

/* f_i = X(N_i) - X_i into fd[i * fs] */
static inline void eval_f(const struct face *fc, const double *th, size_t ts, double *fd, size_t fs)
{
    double par[MODEL_MAX_PAR];
    unpack(fc, th, ts, par);
    for (size_t i = 0; i < fc->npts; i++) {
        double N = fc->n[i];
        double d = 1.0 + par[MODEL_SIGMA] * (N - 1) + par[MODEL_KAPPA] * N * (N - 1);
        fd[i * fs] = par[MODEL_LAMBDA] * N / d - fc->x[i];
    }
}

/* dX/dlambda = N/D, dX/dsigma = -X (N-1)/D, dX/dkappa = -X N(N-1)/D (docs/reference/models.md
 * §4.1), row i at Jd + i * tda */
static inline void eval_df(const struct face *fc, const double *th, size_t ts, double *Jd,
                           size_t tda)
{
    double par[MODEL_MAX_PAR];
    unpack(fc, th, ts, par);
    for (size_t i = 0; i < fc->npts; i++) {
        double N = fc->n[i];
        double d = 1.0 + par[MODEL_SIGMA] * (N - 1) + par[MODEL_KAPPA] * N * (N - 1);
        double X = par[MODEL_LAMBDA] * N / d;
        double g[MODEL_MAX_PAR];
        double *row = Jd + i * tda;
        g[MODEL_LAMBDA] = N / d;
        g[MODEL_SIGMA] = -X * (N - 1) / d;
        g[MODEL_KAPPA] = -X * N * (N - 1) / d;
        for (size_t j = 0; j < fc->p; j++)
            row[j] = g[fc->free_idx[j]] * fc->scale[fc->free_idx[j]];
    }
}

static int usl_f(const gsl_vector *th, void *data, gsl_vector *f)
{
    eval_f(data, th->data, th->stride, f->data, f->stride);
    return GSL_SUCCESS;
}

static int usl_df(const gsl_vector *th, void *data, gsl_matrix *J)
{
    eval_df(data, th->data, th->stride, J->data, J->tda);
    return GSL_SUCCESS;
}

static void usl_lm_f(const double *th, void *data, double *f)
{
    eval_f(data, th, 1, f, 1);
}

static void usl_lm_df(const double *th, void *data, double *J)
{
    const struct face *fc = data;
    eval_df(fc, th, 1, J, fc->p);
}

/* Solve the k x k system A c = b (k <= 3) by Gaussian elimination with partial pivoting.
 * Returns 0, or -1 when singular. A and b are overwritten. */
static int solve_small(double A[3][3], double *b, int k, double *c)
{
    for (int col = 0; col < k; col++) {
        int piv = col;
        for (int r = col + 1; r < k; r++)
            if (fabs(A[r][col]) > fabs(A[piv][col]))
                piv = r;
        if (!(fabs(A[piv][col]) > 0))
            return -1;
        if (piv != col) {
            for (int j = 0; j < k; j++) {
                double t = A[col][j];
                A[col][j] = A[piv][j];
                A[piv][j] = t;
            }
            {
                double t = b[col];
                b[col] = b[piv];
                b[piv] = t;
            }
        }
        for (int r = col + 1; r < k; r++) {
            double m = A[r][col] / A[col][col];
            for (int j = col; j < k; j++)
                A[r][j] -= m * A[col][j];
            b[r] -= m * b[col];
        }
    }
    for (int r = k - 1; r >= 0; r--) {
        double s = b[r];
        for (int j = r + 1; j < k; j++)
            s -= A[r][j] * c[j];
        c[r] = s / A[r][r];
        if (!isfinite(c[r]))
            return -1;
    }
    return 0;
}

/* Starting values for a face from the linearised form
 *   N/X = (1 + sigma (N-1) + kappa N (N-1)) / lambda,
 * a linear least-squares fit through the origin: with lambda free the unknowns are
 * (1/lambda, sigma/lambda, kappa/lambda) on the columns (1 + fixed terms, N-1, N(N-1));
 * with lambda fixed, N lambda/X - 1 - fixed terms = sigma (N-1) + kappa N (N-1). */
static void start_values(const struct face *fc, int sigma_free, int kappa_free, int lambda_free,
                         double *par)
{
    double A[3][3] = {{0}}, b[3] = {0}, c[3] = {0, 0, 0}, lam0 = 0;
    int k = 0, ci_s = -1, ci_k = -1;
    for (size_t i = 0; i < fc->npts; i++)
        if (fc->x[i] / fc->n[i] > lam0)
            lam0 = fc->x[i] / fc->n[i];
    par[MODEL_LAMBDA] = lambda_free ? lam0 : fc->fixed[MODEL_LAMBDA];
    par[MODEL_SIGMA] = sigma_free ? 0.01 : fc->fixed[MODEL_SIGMA];
    par[MODEL_KAPPA] = kappa_free ? 1e-4 : fc->fixed[MODEL_KAPPA];
    if (lambda_free)
        k++;
    if (sigma_free)
        ci_s = k++;
    if (kappa_free)
        ci_k = k++;
    if (k == 0)
        return;
    for (size_t i = 0; i < fc->npts; i++) {
        double N = fc->n[i], col[3], y;
        double fixed_terms = (sigma_free ? 0 : fc->fixed[MODEL_SIGMA] * (N - 1)) +
                             (kappa_free ? 0 : fc->fixed[MODEL_KAPPA] * N * (N - 1));
        int j = 0;
        if (lambda_free) {
            col[j++] = 1 + fixed_terms;
            y = N / fc->x[i];
        } else {
            y = N * fc->fixed[MODEL_LAMBDA] / fc->x[i] - 1 - fixed_terms;
        }
        if (sigma_free)
            col[j++] = N - 1;
        if (kappa_free)
            col[j++] = N * (N - 1);
        for (int r = 0; r < k; r++) {
            b[r] += col[r] * y;
            for (int q = 0; q < k; q++)
                A[r][q] += col[r] * col[q];
        }
    }
    if (solve_small(A, b, k, c) != 0)
        return;
    if (lambda_free) {
        if (!(c[0] > 0))
            return;
        par[MODEL_LAMBDA] = 1.0 / c[0];
        if (ci_s >= 0)
            par[MODEL_SIGMA] = c[ci_s] / c[0];
        if (ci_k >= 0)
            par[MODEL_KAPPA] = c[ci_k] / c[0];
    } else {
        if (ci_s >= 0)
            par[MODEL_SIGMA] = c[ci_s];
        if (ci_k >= 0)
            par[MODEL_KAPPA] = c[ci_k];
    }
    if (!(par[MODEL_LAMBDA] > 0) || !isfinite(par[MODEL_LAMBDA]))
        par[MODEL_LAMBDA] = lam0;
    if (sigma_free && !(par[MODEL_SIGMA] >= 0 && par[MODEL_SIGMA] < 0.95))
        par[MODEL_SIGMA] = par[MODEL_SIGMA] >= 0.95 ? 0.95 : 0.0;
    if (kappa_free && !(par[MODEL_KAPPA] >= 0 && isfinite(par[MODEL_KAPPA])))
        par[MODEL_KAPPA] = 0.0;
}

/* Fit one face starting from par0; on success fill out's par, p, status, info, iterations
 * and, for the closed forms (no free parameter, or lambda alone), cov and rcond. The solver is
 * models/lm.h's, which makes the iterations of GSL's with the same bits but only reports a
 * clean convergence; when it does not converge, GSL's solver runs the face from the same start
 * and decides as before. A run of a solver leaves cov and rcond to face_covar, called while the
 * workspace still holds the run.
 * *solved is set to 1 when the solver ran. Returns 0, -1 when the solver failed, -2 when out of
 * memory. */
static int run_face(struct face *fc, const double *par0, size_t max_iter, struct usl_workspace *ws,
                    struct model_fit *out, int *solved)
{
    gsl_multifit_nlinear_fdf fdf;
    gsl_multifit_nlinear_workspace *w;
    double thbuf[MODEL_MAX_PAR], par[MODEL_MAX_PAR];
    gsl_vector_view th0;
    int status, info = 0;
    size_t p = fc->p;

    *solved = 0;
    memset(out->cov, 0, sizeof out->cov);
    for (int i = 0; i < MODEL_MAX_PAR; i++) {
        out->par[i].value = fc->fixed[i];
        out->par[i].fixed = 1;
    }
    for (size_t j = 0; j < p; j++)
        out->par[fc->free_idx[j]].fixed = 0;
    out->p = p;
    if (p == 0) {
        out->status = GSL_SUCCESS;
        out->iterations = 0;
        out->rcond = NAN;
        return 0;
    }
    if (p == 1 && fc->free_idx[0] == MODEL_LAMBDA) {
        /* X = lambda * g(N) with g fixed: linear least squares in closed form */
        double sgy = 0, sgg = 0;
        for (size_t i = 0; i < fc->npts; i++) {
            double N = fc->n[i];
            double g =
                N / (1.0 + fc->fixed[MODEL_SIGMA] * (N - 1) + fc->fixed[MODEL_KAPPA] * N * (N - 1));
            sgy += g * fc->x[i];
            sgg += g * g;
        }
        if (!(sgg > 0))
            return -1;
        out->par[MODEL_LAMBDA].value = sgy / sgg;
        out->cov[MODEL_LAMBDA][MODEL_LAMBDA] = 1.0 / sgg;
        out->status = GSL_SUCCESS;
        out->info = 0;
        out->iterations = 0;
        out->rcond = 1.0;
        return 0;
    }
    for (size_t j = 0; j < p; j++)
        thbuf[j] = par0[fc->free_idx[j]] / fc->scale[fc->free_idx[j]];
    ws->lm_ran[p] = 0;
    if (lm_solve(fc->npts, p, usl_lm_f, usl_lm_df, fc, thbuf, max_iter, 1e-12, 1e-12, &ws->lm[p]) ==
        LM_OK) {
        unpack(fc, ws->lm[p].theta, 1, par);
        for (int i = 0; i < MODEL_MAX_PAR; i++)
            if (!isfinite(par[i]))
                return -1;
        for (size_t j = 0; j < p; j++)
            out->par[fc->free_idx[j]].value = par[fc->free_idx[j]];
        out->status = GSL_SUCCESS;
        out->info = ws->lm[p].info;
        out->iterations = ws->lm[p].iterations;
        ws->lm_ran[p] = 1;
        *solved = 1;
        return 0;
    }
    w = get_ws(ws, fc->npts, p);
    if (!w)
        return -2;
    th0 = gsl_vector_view_array(thbuf, p);
    fdf.f = usl_f;
    fdf.df = usl_df;
    fdf.fvv = NULL;
    fdf.n = fc->npts;
    fdf.p = p;
    fdf.params = fc;
    if (gsl_multifit_nlinear_init(&th0.vector, &fdf, w) != GSL_SUCCESS)
        return -1;
    status = gsl_multifit_nlinear_driver(max_iter, 1e-12, 1e-12, 0.0, NULL, NULL, &info, w);
    if (status == GSL_ENOPROG || status == GSL_EMAXITER) {
        /* no acceptable step: accept only when already at a stationary point */
        int info2 = 0;
        if (gsl_multifit_nlinear_test(1e-9, 1e-7, 0.0, &info2, w) != GSL_SUCCESS || info2 == 0)
            return -1;
    } else if (status != GSL_SUCCESS) {
        return -1;
    }
    {
        const gsl_vector *pos = gsl_multifit_nlinear_position(w);
        unpack(fc, pos->data, pos->stride, par);
    }
    for (int i = 0; i < MODEL_MAX_PAR; i++)
        if (!isfinite(par[i]))
            return -1;
    for (size_t j = 0; j < p; j++)
        out->par[fc->free_idx[j]].value = par[fc->free_idx[j]];
    out->status = status;
    out->info = info;
    out->iterations = gsl_multifit_nlinear_niter(w);
    *solved = 1;
    return 0;
}

/* cov (unscaled (J'J)^-1) and rcond of the solver run run_face just made on fc (its workspace
 * for fc->p unknowns must not have run since). Only a run that is kept needs them. Returns 0,
 * or -1 when the covariance could not be computed (the run is then not used). */
static int face_covar(const struct face *fc, struct usl_workspace *ws, struct model_fit *out)
{
    size_t p = fc->p;
    gsl_multifit_nlinear_workspace *w = ws->w[p];
    double cbuf[MODEL_MAX_PAR * MODEL_MAX_PAR];
    gsl_matrix_view cv = gsl_matrix_view_array(cbuf, p, p);
    int rc;
    /* (J'J)^-1 by gsl_multifit_nlinear_covar on the run's final Jacobian, whichever solver
     * made it (rank tolerance 1e-10) */
    if (ws->lm_ran[p])
        rc = lm_covar(&ws->lm[p], 1e-10, &cv.matrix);
    else
        rc = gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 1e-10, &cv.matrix);
    if (rc != GSL_SUCCESS)
        return -1;
    for (size_t a = 0; a < p; a++)
        for (size_t b = 0; b < p; b++) {
            int ia = fc->free_idx[a], ib = fc->free_idx[b];
            out->cov[ia][ib] = cbuf[a * p + b] * fc->scale[ia] * fc->scale[ib];
        }
    if (ws->lm_ran[p])
        rc = lm_rcond(&ws->lm[p], &out->rcond);
    else
        rc = gsl_multifit_nlinear_rcond(&out->rcond, w);
    if (rc != GSL_SUCCESS)
        out->rcond = NAN;
    return 0;
}

static int admissible(const struct model_fit *f)
{
    double s = f->par[MODEL_SIGMA].value, k = f->par[MODEL_KAPPA].value;
    int s_ok = f->par[MODEL_SIGMA].fixed ? (s >= 0 && s <= 1) : (s >= 0 && s < 1);
    return s_ok && k >= 0 && f->par[MODEL_LAMBDA].value > 0;
}

/* Strictly inside the bounds: no parameter held, sigma in (0, 1), kappa > 0 (USL). */
static int interior(const struct model_fit *f, int amdahl)
{
    double s = f->par[MODEL_SIGMA].value, k = f->par[MODEL_KAPPA].value;
    if (f->par[MODEL_SIGMA].fixed || !(s > 0 && s < 1))
        return 0;
    return amdahl || (!f->par[MODEL_KAPPA].fixed && k > 0);
}

/* How a bounded parameter is held on a face. sigma = 1 is the closure of sigma < 1: a curve
 * that falls from its first point is fitted there (X = lambda / (1 + kappa (N-1))). */
enum { PIN_FREE, PIN_ZERO, PIN_ONE };

static const struct {
    int sigma, kappa;
} face_tbl[] = {{PIN_FREE, PIN_FREE}, {PIN_ZERO, PIN_FREE}, {PIN_FREE, PIN_ZERO},
                {PIN_ONE, PIN_FREE},  {PIN_ZERO, PIN_ZERO}, {PIN_ONE, PIN_ZERO}};

/* Most starting points of the free face. */
#define USL_STARTS 4

/* Extra starts for the free face, from the data: the peak N* put at the level with the most
 * throughput, and below the smallest x (a curve past its peak over the whole range), each with
 * sigma 0.1 and 0.6; lambda so that the model passes through that level (or the first one).
 * Returns how many were written to st (at most USL_STARTS - 1). */
static size_t peak_starts(const struct face *fc, int lambda_free, double (*st)[MODEL_MAX_PAR])
{
    size_t best = 0, k = 0;
    double nmin = fc->n[0];
    static const double sig[2] = {0.1, 0.6};
    for (size_t i = 0; i < fc->npts; i++) {
        if (fc->x[i] > fc->x[best])
            best = i;
        if (fc->n[i] < nmin)
            nmin = fc->n[i];
    }
    for (int w = 0; w < 2 && k < USL_STARTS - 1; w++) {
        double nstar = w == 0 ? fc->n[best] : nmin / 2;
        for (int j = 0; j < 2 && k < USL_STARTS - 1; j++) {
            double s = sig[j], kap, N = w == 0 ? fc->n[best] : nmin, X = fc->x[w == 0 ? best : 0];
            if (w == 1)
                for (size_t i = 0; i < fc->npts; i++)
                    if (fc->n[i] == nmin)
                        X = fc->x[i];
            if (!(nstar >= 1) || (w == 0 && j == 1))
                continue;
            kap = (1 - s) / (nstar * nstar);
            st[k][MODEL_SIGMA] = s;
            st[k][MODEL_KAPPA] = kap;
            st[k][MODEL_LAMBDA] = lambda_free ? X * (1 + s * (N - 1) + kap * N * (N - 1)) / N
                                              : fc->fixed[MODEL_LAMBDA];
            if (isfinite(st[k][MODEL_LAMBDA]) && st[k][MODEL_LAMBDA] > 0)
                k++;
        }
    }
    return k;
}

/* The points a fit takes (each n > 0 and finite, x finite, or > 0 unless any_sign_x), a fixed
 * lambda > 0, at least 3 distinct n: MODEL_OK, else MODEL_EINVAL with the reason in errmsg. */
static int check_input(const double *n, const double *x, size_t npts, const struct usl_options *o,
                       int lambda_free, char *errmsg, size_t errcap)
{
    if (o->any_sign_x) {
        for (size_t i = 0; i < npts; i++)
            if (!(n[i] > 0) || !isfinite(n[i]) || !isfinite(x[i])) {
                if (errmsg)
                    snprintf(errmsg, errcap, "point %zu: x must be > 0, throughput finite", i + 1);
                return MODEL_EINVAL;
            }
    } else if (model_check_points(n, x, npts, errmsg, errcap) != MODEL_OK) {
        return MODEL_EINVAL;
    }
    if (!lambda_free && !(o->lambda_fixed > 0 && isfinite(o->lambda_fixed))) {
        if (errmsg)
            snprintf(errmsg, errcap, "fixed lambda %g is not > 0", o->lambda_fixed);
        return MODEL_EINVAL;
    }
    if (model_count_distinct(n, npts) < 3) {
        if (errmsg)
            snprintf(errmsg, errcap,
                     "%zu distinct x values: the %s needs at least 3 (use the piecewise model)",
                     model_count_distinct(n, npts), o->amdahl ? "Amdahl model" : "USL");
        return MODEL_EINVAL;
    }
    return MODEL_OK;
}

/* The search over faces and starts of one usl_fit: its data, and the best run so far. */
struct search {
    const double *n, *x;
    size_t npts;
    const struct usl_options *o;
    struct usl_workspace *ws;
    int lambda_free;
    double nmax;           /* the largest n */
    double lam0;           /* the largest x / n: lambda's scale and its start when fixed is unset */
    int past_best;         /* the highest throughput lies below the largest n (a peak region) */
    struct model_fit best; /* the run kept, when have */
    int have;
    size_t faces; /* runs tried */
};

/* The scales of the data: s->nmax, s->lam0 and s->past_best. */
static void data_scales(struct search *s)
{
    const double *n = s->n, *x = s->x;
    size_t ib = 0;
    s->nmax = 0;
    s->lam0 = 0;
    for (size_t i = 0; i < s->npts; i++) {
        if (n[i] > s->nmax)
            s->nmax = n[i];
        if (x[i] / n[i] > s->lam0)
            s->lam0 = x[i] / n[i];
    }
    /* the highest throughput lies below the largest x: the curve has a peak region */
    for (size_t i = 0; i < s->npts; i++)
        if (x[i] > x[ib])
            ib = i;
    s->past_best = n[ib] < s->nmax;
}

/* The problem of the face that holds sigma as smode and kappa as kmode (enum PIN_...). */
static void face_init(const struct search *s, int smode, int kmode, struct face *fc)
{
    memset(fc, 0, sizeof *fc);
    fc->n = s->n;
    fc->x = s->x;
    fc->npts = s->npts;
    fc->fixed[MODEL_LAMBDA] = s->lambda_free ? s->lam0 : s->o->lambda_fixed;
    fc->fixed[MODEL_SIGMA] = smode == PIN_ONE ? 1.0 : 0.0;
    fc->fixed[MODEL_KAPPA] = 0;
    fc->scale[MODEL_LAMBDA] = s->lam0;
    fc->scale[MODEL_SIGMA] = 1.0 / s->nmax;
    fc->scale[MODEL_KAPPA] = 1.0 / (s->nmax * s->nmax);
    if (s->lambda_free)
        fc->free_idx[fc->p++] = MODEL_LAMBDA;
    if (smode == PIN_FREE)
        fc->free_idx[fc->p++] = MODEL_SIGMA;
    if (kmode == PIN_FREE)
        fc->free_idx[fc->p++] = MODEL_KAPPA;
}

/* One run of face fc from start par0 (pinned: the bounds the face pins), kept as s->best when it
 * is admissible and better: a pinned face must be clearly better to replace a freer fit; the
 * covariance only of a run that is kept (a run whose covariance fails is not). 0, or -2 when out
 * of memory. */
static int try_start(struct search *s, struct face *fc, const double *par0, int pinned)
{
    struct model_fit cur;
    int r, solved;
    memset(&cur, 0, sizeof cur);
    cur.kind = s->o->amdahl ? MODEL_AMDAHL : MODEL_USL;
    r = run_face(fc, par0, s->o->max_iter, s->ws, &cur, &solved);
    s->faces++;
    if (r == -2)
        return -2;
    if (r != 0 || !admissible(&cur))
        return 0;
    {
        double sse = 0;
        for (size_t i = 0; i < s->npts; i++) {
            double d = s->x[i] - model_eval(&cur, s->n[i]);
            sse += d * d;
        }
        cur.sse = sse;
    }
    if ((!s->have || cur.sse < s->best.sse * (1 - 1e-9) ||
         (pinned == 0 && cur.sse < s->best.sse)) &&
        (!solved || face_covar(fc, s->ws, &cur) == 0)) {
        s->best = cur;
        s->have = 1;
    }
    return 0;
}

/* Fit face fi of face_tbl when it pins that many bounds (else nothing): from the linearised
 * start, and on the free face the data starts (peak_starts) when they may help. 0, or -2 when
 * out of memory. */
static int fit_face(struct search *s, size_t fi, int pinned)
{
    const struct usl_options *o = s->o;
    struct face fc;
    double starts[USL_STARTS][MODEL_MAX_PAR];
    size_t n_starts;
    int smode = face_tbl[fi].sigma, kmode = o->amdahl ? PIN_ZERO : face_tbl[fi].kappa;
    int sfree = smode == PIN_FREE, kfree = kmode == PIN_FREE;
    if (o->amdahl && face_tbl[fi].kappa != PIN_FREE)
        return 0; /* Amdahl: kappa is not a bound but fixed; skip duplicates */
    if ((smode != PIN_FREE) + (o->amdahl ? 0 : kmode != PIN_FREE) != pinned)
        return 0;
    face_init(s, smode, kmode, &fc);
    if (fc.p > s->npts)
        return 0;
    start_values(&fc, sfree, kfree, s->lambda_free, starts[0]);
    n_starts = 1;
    if (pinned == 0 && sfree && kfree)
        n_starts += peak_starts(&fc, s->lambda_free, starts + 1);
    for (size_t st = 0; st < n_starts; st++) {
        /* the data starts only when the curve has passed its best level, or the
         * linearised start gave no admissible fit; and (the fast path, unless
         * all_faces) only when the linearised start's fit is not strictly inside the
         * bounds or its solver stopped short of GSL_SUCCESS: a data start then never
         * found a lower SSE by more than 1e-9 relative (tests/models/test_fit_faces.c) */
        if (st == 1 && s->have &&
            (!s->past_best ||
             (!o->all_faces && interior(&s->best, o->amdahl) && s->best.status == GSL_SUCCESS)))
            break;
        if (try_start(s, &fc, starts[st], pinned) == -2)
            return -2;
    }
    return 0;
}

int usl_fit(const double *n, const double *x, size_t npts, const struct usl_options *opt,
            struct usl_workspace *ws, struct model_fit *out, char *errmsg, size_t errcap)
{
    struct usl_options o = opt ? *opt : usl_options_default();
    struct usl_workspace *own = NULL;
    int lambda_free = isnan(o.lambda_fixed);
    struct search s;
    int rc = MODEL_OK;

    if (check_input(n, x, npts, &o, lambda_free, errmsg, errcap) != MODEL_OK)
        return MODEL_EINVAL;
    if (o.max_iter == 0)
        o.max_iter = 500;
    if (!ws) {
        own = ws = usl_workspace_new();
        if (!ws)
            return MODEL_ENOMEM;
    }
    s.n = n;
    s.x = x;
    s.npts = npts;
    s.o = &o;
    s.ws = ws;
    s.lambda_free = lambda_free;
    s.have = 0;
    s.faces = 0;
    data_scales(&s);

    /* faces in order of how many bounds they pin: the free fit first. The free face is run
     * from several starts (the linearised fit, and starts that put the peak N* at the best
     * level and below the smallest x, for curves past their peak whose linearised fit is
     * missing, on a bound or stopped short); the fit is the admissible run with the smallest
     * SSE over every start and face tried. When the free fit is admissible the
     * pinned faces cannot do better (they lie in its closure), but they are still fitted from
     * the linearised start: a free run can stop at a local minimum. */
    for (int pinned = 0; pinned <= 2; pinned++) {
        /* the fast path: a free fit strictly inside the bounds (sigma in (0, 1), kappa > 0,
         * Amdahl: sigma in (0, 1)) is what the pinned faces, which lie on the bounds, are
         * fitted to catch; tests/models/test_fit_faces.c checks over real and synthetic
         * curves that it gives the fit of all faces */
        if (pinned == 1 && s.have && !o.all_faces && interior(&s.best, o.amdahl))
            break;
        for (size_t fi = 0; fi < sizeof face_tbl / sizeof face_tbl[0]; fi++)
            if (fit_face(&s, fi, pinned) == -2) {
                rc = MODEL_ENOMEM;
                goto done;
            }
    }
    if (!s.have) {
        if (errmsg)
            snprintf(errmsg, errcap, "the solver did not converge on any face (%zu tried)",
                     s.faces);
        rc = MODEL_ENOCONV;
        goto done;
    }
    *out = s.best;
    out->k = (o.amdahl ? 2 : 3) - (lambda_free ? 0 : 1);
    out->faces_tried = s.faces;
    out->warnings = 0;
    model_finish(out, n, x, npts);
    if (out->par[MODEL_SIGMA].fixed && out->par[MODEL_SIGMA].value == 1.0)
        out->warnings |= MODEL_WARN_SIGMA_ONE;
    if (isfinite(out->rcond) && out->rcond < 1e-12)
        out->warnings |= MODEL_WARN_ILL_COND;
done:
    usl_workspace_free(own);
    return rc;
}

int usl_fit_linearized(const double *n, const double *x, size_t npts, double x1,
                       struct model_fit *out, char *errmsg, size_t errcap)
{
    double s11 = 0, s12 = 0, s22 = 0, t1 = 0, t2 = 0, det, a, b;
    if (model_check_points(n, x, npts, errmsg, errcap) != MODEL_OK)
        return MODEL_EINVAL;
    if (!(x1 > 0) || !isfinite(x1)) {
        if (errmsg)
            snprintf(errmsg, errcap, "X(1) = %g is not > 0", x1);
        return MODEL_EINVAL;
    }
    if (model_count_distinct(n, npts) < 3) {
        if (errmsg)
            snprintf(errmsg, errcap, "fewer than 3 distinct x values");
        return MODEL_EINVAL;
    }
    for (size_t i = 0; i < npts; i++) {
        double u = n[i] - 1, y = n[i] * x1 / x[i] - 1;
        s11 += u * u * u * u; /* basis u^2 */
        s12 += u * u * u;
        s22 += u * u; /* basis u */
        t1 += u * u * y;
        t2 += u * y;
    }
    det = s11 * s22 - s12 * s12;
    if (!(det > 0)) {
        if (errmsg)
            snprintf(errmsg, errcap, "the linearised regression is singular");
        return MODEL_EINVAL;
    }
    a = (t1 * s22 - t2 * s12) / det;
    b = (s11 * t2 - s12 * t1) / det;
    memset(out, 0, sizeof *out);
    out->kind = MODEL_USL;
    out->par[MODEL_LAMBDA].value = x1;
    out->par[MODEL_LAMBDA].fixed = 1;
    out->par[MODEL_SIGMA].value = b - a;
    out->par[MODEL_KAPPA].value = a;
    out->p = out->k = 2;
    out->status = GSL_SUCCESS;
    {
        /* standard errors as R usl 1.x reports them: from the Jacobian of X(N) in (sigma,
         * kappa) at the estimate, s^2 (J'J)^-1 with s^2 = SSE/(n-2) in throughput units */
        double jss = 0, jsk = 0, jkk = 0, det2;
        for (size_t i = 0; i < npts; i++) {
            double N = n[i], D = 1 + (b - a) * (N - 1) + a * N * (N - 1), X = x1 * N / D;
            double js = -X * (N - 1) / D, jk = -X * N * (N - 1) / D;
            jss += js * js;
            jsk += js * jk;
            jkk += jk * jk;
        }
        det2 = jss * jkk - jsk * jsk;
        if (det2 > 0) {
            out->cov[MODEL_SIGMA][MODEL_SIGMA] = jkk / det2;
            out->cov[MODEL_KAPPA][MODEL_KAPPA] = jss / det2;
            out->cov[MODEL_SIGMA][MODEL_KAPPA] = out->cov[MODEL_KAPPA][MODEL_SIGMA] = -jsk / det2;
        }
    }
    model_finish(out, n, x, npts);
    return MODEL_OK;
}
