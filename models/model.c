/* model.c - the fitted-model record: evaluation, statistics, delta method. */
#include "model.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

const char *model_kind_name(enum model_kind k)
{
    switch (k) {
    case MODEL_USL:
        return "usl";
    case MODEL_AMDAHL:
        return "amdahl";
    case MODEL_PIECEWISE:
        return "piecewise";
    }
    return "?";
}

int model_kind_parse(const char *s, enum model_kind *out)
{
    static const enum model_kind kinds[] = {MODEL_USL, MODEL_AMDAHL, MODEL_PIECEWISE};
    if (!s)
        return -1;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(s, model_kind_name(kinds[i])) == 0) {
            *out = kinds[i];
            return 0;
        }
    return -1;
}

const char *model_warning_text(unsigned bit)
{
    switch (bit) {
    case MODEL_WARN_FEW_DISTINCT:
        return "fewer than 3 distinct x values: only the piecewise model is fitted";
    case MODEL_WARN_FEW_POINTS:
        return "fewer than 6 points: intervals are wide";
    case MODEL_WARN_SUPERLINEAR:
        return "superlinear points (throughput per unit rises): expect large residuals there";
    case MODEL_WARN_PEAK_BEYOND:
        return "the peak lies beyond the largest x measured (extrapolated)";
    case MODEL_WARN_ILL_COND:
        return "the Jacobian is nearly singular: parameters are poorly determined";
    case MODEL_WARN_KNEE_BEYOND:
        return "no knee inside the data: throughput is linear over the measured range";
    case MODEL_WARN_NO_DOF:
        return "as many parameters as points: no standard errors";
    case MODEL_WARN_KNEE_BEFORE:
        return "the knee lies at or below the smallest x measured: throughput is flat or "
               "falling over the measured range";
    case MODEL_WARN_SIGMA_ONE:
        return "sigma is at its bound 1: throughput falls from the smallest x measured";
    }
    return "";
}

double model_eval_par(enum model_kind k, const double *par, double n)
{
    if (!(n > 0))
        return NAN;
    if (k == MODEL_PIECEWISE) {
        double lin = par[MODEL_LAMBDA] * n;
        return isfinite(par[MODEL_XM]) && par[MODEL_XM] < lin ? par[MODEL_XM] : lin;
    }
    {
        double kappa = k == MODEL_AMDAHL ? 0.0 : par[MODEL_KAPPA];
        double d = 1.0 + par[MODEL_SIGMA] * (n - 1.0) + kappa * n * (n - 1.0);
        return par[MODEL_LAMBDA] * n / d;
    }
}

double model_eval(const struct model_fit *f, double n)
{
    double par[MODEL_MAX_PAR];
    for (int i = 0; i < MODEL_MAX_PAR; i++)
        par[i] = f->par[i].value;
    return model_eval_par(f->kind, par, n);
}

static int n_params(enum model_kind k)
{
    return k == MODEL_USL ? 3 : 2;
}

double model_delta_se(const struct model_fit *f, double (*g)(const double *par, void *ctx),
                      void *ctx)
{
    int np = n_params(f->kind);
    double par[MODEL_MAX_PAR], grad[MODEL_MAX_PAR] = {0, 0, 0}, var = 0;
    if (f->dof <= 0)
        return NAN;
    for (int i = 0; i < MODEL_MAX_PAR; i++)
        par[i] = f->par[i].value;
    for (int i = 0; i < np; i++) {
        double h, up, dn, keep = par[i];
        if (f->par[i].fixed)
            continue;
        h = f->par[i].se > 0 ? 1e-4 * f->par[i].se : 1e-7 * fabs(keep);
        if (!(h > 0))
            h = 1e-12;
        par[i] = keep + h;
        up = g(par, ctx);
        par[i] = keep - h;
        dn = g(par, ctx);
        par[i] = keep;
        if (!isfinite(up) || !isfinite(dn))
            return NAN;
        grad[i] = (up - dn) / (2 * h);
    }
    for (int i = 0; i < np; i++)
        for (int j = 0; j < np; j++)
            var += grad[i] * f->cov[i][j] * grad[j];
    return var > 0 ? sqrt(var) : 0.0;
}

int model_check_points(const double *n, const double *x, size_t npts, char *errmsg, size_t errcap)
{
    if (npts < 1) {
        if (errmsg)
            snprintf(errmsg, errcap, "no points");
        return MODEL_EINVAL;
    }
    for (size_t i = 0; i < npts; i++) {
        if (!isfinite(n[i]) || !(n[i] > 0)) {
            if (errmsg)
                snprintf(errmsg, errcap, "point %zu: x = %g is not a finite number > 0", i + 1,
                         n[i]);
            return MODEL_EINVAL;
        }
        if (!isfinite(x[i]) || !(x[i] > 0)) {
            if (errmsg)
                snprintf(errmsg, errcap, "point %zu: throughput %g is not a finite number > 0",
                         i + 1, x[i]);
            return MODEL_EINVAL;
        }
    }
    return MODEL_OK;
}

size_t model_count_distinct(const double *n, size_t npts)
{
    size_t d = 0;
    for (size_t i = 0; i < npts; i++) {
        size_t j;
        for (j = 0; j < i; j++)
            if (n[j] == n[i])
                break;
        if (j == i)
            d++;
    }
    return d;
}

int model_has_superlinear(const double *n, const double *x, size_t npts)
{
    for (size_t i = 0; i < npts; i++)
        for (size_t j = 0; j < npts; j++)
            if (n[j] > n[i] && x[j] / n[j] > x[i] / n[i] * (1 + 1e-9))
                return 1;
    return 0;
}

/* t quantiles (0.975, dof) for dof 1..T95_CACHED, filled once per process from
 * gsl_cdf_tdist_Pinv: every fit needs one and computing it costs about as much as the rest of
 * model_finish; the table holds the same bits, pthread_once makes the filling thread-safe. */
#define T95_CACHED 64
static double t95_tab[T95_CACHED + 1];
static pthread_once_t t95_once = PTHREAD_ONCE_INIT;

static void t95_fill(void)
{
    for (int d = 1; d <= T95_CACHED; d++)
        t95_tab[d] = gsl_cdf_tdist_Pinv(0.975, (double)d);
}

/* gsl_cdf_tdist_Pinv(0.975, dof) for dof >= 1 */
static double t95(int dof)
{
    if (dof > T95_CACHED)
        return gsl_cdf_tdist_Pinv(0.975, (double)dof);
    pthread_once(&t95_once, t95_fill);
    return t95_tab[dof];
}

int model_finish(struct model_fit *f, const double *n, const double *x, size_t npts)
{
    int np = n_params(f->kind);
    double mean = 0, tss = 0, sse = 0, s2;
    if (npts < f->p || npts == 0)
        return MODEL_EINVAL;
    f->n = npts;
    f->n_distinct = model_count_distinct(n, npts);
    f->dof = (int)(npts - f->p);
    f->n_min = f->n_max = n[0];
    for (size_t i = 0; i < npts; i++) {
        mean += x[i];
        if (n[i] < f->n_min)
            f->n_min = n[i];
        if (n[i] > f->n_max)
            f->n_max = n[i];
    }
    mean /= (double)npts;
    f->n_resid = npts < MODEL_MAX_RESID ? npts : MODEL_MAX_RESID;
    for (size_t i = 0; i < npts; i++) {
        double r = x[i] - model_eval(f, n[i]);
        sse += r * r;
        tss += (x[i] - mean) * (x[i] - mean);
        if (i < f->n_resid) {
            f->resid_n[i] = n[i];
            f->resid[i] = r;
        }
    }
    f->sse = sse;
    f->r2 = tss > 0 ? 1.0 - sse / tss : NAN;
    {
        double k = (double)f->k, nn = (double)npts;
        double l = sse > 0 ? nn * log(sse / nn) : -INFINITY;
        f->aicc = nn - k - 1 > 0 ? l + 2 * k + 2 * k * (k + 1) / (nn - k - 1) : INFINITY;
        if (sse <= 0 && nn - k - 1 > 0)
            f->aicc = -INFINITY;
    }
    if (f->dof > 0) {
        s2 = sse / f->dof;
        f->rse = sqrt(s2);
        f->t95 = t95(f->dof);
    } else {
        s2 = NAN;
        f->rse = NAN;
        f->t95 = NAN;
        f->warnings |= MODEL_WARN_NO_DOF;
    }
    for (int i = 0; i < MODEL_MAX_PAR; i++) {
        struct model_param *q = &f->par[i];
        if (i >= np || q->fixed || f->dof <= 0) {
            q->se = q->lo = q->hi = NAN;
            for (int j = 0; j < MODEL_MAX_PAR; j++)
                f->cov[i][j] = f->cov[j][i] = f->dof <= 0 ? NAN : 0.0;
            continue;
        }
    }
    for (int i = 0; i < MODEL_MAX_PAR; i++)
        for (int j = 0; j < MODEL_MAX_PAR; j++)
            if (f->dof > 0)
                f->cov[i][j] *= s2;
    for (int i = 0; i < np; i++) {
        struct model_param *q = &f->par[i];
        if (q->fixed || f->dof <= 0)
            continue;
        q->se = f->cov[i][i] > 0 ? sqrt(f->cov[i][i]) : 0.0;
        q->lo = q->value - f->t95 * q->se;
        q->hi = q->value + f->t95 * q->se;
    }
    if (npts < 6)
        f->warnings |= MODEL_WARN_FEW_POINTS;
    if (model_has_superlinear(n, x, npts))
        f->warnings |= MODEL_WARN_SUPERLINEAR;
    return MODEL_OK;
}
