/* latency.c - mean latency by Little's law, concurrency at a latency target, percentiles. */
#include "latency.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_interp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double latency_mean(const struct model_fit *f, double n, double think_s)
{
    if (!(n > 0))
        return NAN;
    return n / model_eval(f, n) - think_s;
}

struct tctx {
    enum model_kind kind;
    double rt; /* target + think time */
};

/* N_R for explicit parameters, capped at N* (USL with kappa > 0); NAN when none. */
static double n_at(enum model_kind kind, const double *par, double rt)
{
    double l = par[MODEL_LAMBDA];
    if (kind == MODEL_PIECEWISE) {
        if (!isfinite(par[MODEL_XM]) || rt < 1.0 / l)
            return NAN;
        return rt * par[MODEL_XM];
    }
    {
        double s = par[MODEL_SIGMA], k = kind == MODEL_USL ? par[MODEL_KAPPA] : 0.0;
        double c = l * rt - 1 + s, den, nr;
        if (c < 0)
            return NAN;
        den = (s - k) + sqrt((s - k) * (s - k) + 4 * k * c);
        if (!(den > 0))
            return NAN;
        nr = 2 * c / den;
        if (k > 0 && s < 1) {
            double np = sqrt((1 - s) / k);
            if (nr > np)
                nr = np;
        }
        return nr;
    }
}

static double g_n(const double *par, void *ctx)
{
    const struct tctx *c = ctx;
    return n_at(c->kind, par, c->rt);
}

static double g_x(const double *par, void *ctx)
{
    const struct tctx *c = ctx;
    return model_eval_par(c->kind, par, n_at(c->kind, par, c->rt));
}

static struct derived_value interval(const struct model_fit *f, double (*g)(const double *, void *),
                                     void *ctx, double v)
{
    struct derived_value d;
    double se = model_delta_se(f, g, ctx);
    d.value = v;
    d.lo = d.hi = NAN;
    if (isfinite(se) && isfinite(f->t95)) {
        d.lo = v - f->t95 * se;
        d.hi = v + f->t95 * se;
        if (d.lo < 0)
            d.lo = 0;
    }
    return d;
}

int latency_at_target(const struct model_fit *f, double target_s, double think_s,
                      struct latency_target *out)
{
    double par[MODEL_MAX_PAR], nr;
    struct tctx c;
    memset(out, 0, sizeof *out);
    out->n.value = out->n.lo = out->n.hi = NAN;
    out->x = out->n;
    if (!(target_s > 0) || !(think_s >= 0) || !isfinite(target_s))
        return MODEL_EINVAL;
    for (int i = 0; i < MODEL_MAX_PAR; i++)
        par[i] = f->par[i].value;
    c.kind = f->kind;
    c.rt = target_s + think_s;
    if (f->kind == MODEL_PIECEWISE && !isfinite(par[MODEL_XM])) {
        out->status = c.rt >= 1.0 / par[MODEL_LAMBDA] ? LATENCY_UNBOUNDED : LATENCY_UNREACHABLE;
        return MODEL_OK;
    }
    if (f->kind != MODEL_PIECEWISE && par[MODEL_SIGMA] == 0 &&
        (f->kind == MODEL_AMDAHL || par[MODEL_KAPPA] == 0)) {
        /* X = lambda N: R = 1/lambda at every N */
        out->status = c.rt >= 1.0 / par[MODEL_LAMBDA] ? LATENCY_UNBOUNDED : LATENCY_UNREACHABLE;
        return MODEL_OK;
    }
    nr = n_at(f->kind, par, c.rt);
    if (!isfinite(nr)) {
        out->status = LATENCY_UNREACHABLE;
        return MODEL_OK;
    }
    if (f->kind == MODEL_USL && par[MODEL_KAPPA] > 0 && par[MODEL_SIGMA] < 1) {
        double s = par[MODEL_SIGMA], k = par[MODEL_KAPPA], c2 = par[MODEL_LAMBDA] * c.rt - 1 + s;
        double free_nr = 2 * c2 / ((s - k) + sqrt((s - k) * (s - k) + 4 * k * c2));
        out->capped = free_nr > nr;
    }
    out->status = LATENCY_OK;
    out->n = interval(f, g_n, &c, nr);
    out->x = interval(f, g_x, &c, model_eval(f, nr));
    out->extrapolated = nr < f->n_min || nr > f->n_max;
    return MODEL_OK;
}

struct latency_pctl {
    size_t m;
    double *n, *p;      /* sorted by n */
    gsl_interp *interp; /* NULL when m < 2 */
};

void latency_pctl_free(struct latency_pctl *c)
{
    if (!c)
        return;
    if (c->interp)
        gsl_interp_free(c->interp);
    free(c->n);
    free(c);
}

struct latency_pctl *latency_pctl_new(const double *n, const double *pctl_s, size_t m, char *errmsg,
                                      size_t errcap)
{
    struct latency_pctl *c;
    if (m < 1) {
        if (errmsg)
            snprintf(errmsg, errcap, "no measured percentiles");
        return NULL;
    }
    for (size_t i = 0; i < m; i++)
        if (!(n[i] > 0) || !(pctl_s[i] > 0) || !isfinite(n[i]) || !isfinite(pctl_s[i])) {
            if (errmsg)
                snprintf(errmsg, errcap, "point %zu: x and percentile must be finite and > 0",
                         i + 1);
            return NULL;
        }
    c = calloc(1, sizeof *c);
    if (!c || !(c->n = malloc(2 * m * sizeof *c->n))) {
        free(c);
        if (errmsg)
            snprintf(errmsg, errcap, "out of memory");
        return NULL;
    }
    c->m = m;
    c->p = c->n + m;
    /* insertion sort by n (m is small) */
    for (size_t i = 0; i < m; i++) {
        size_t j = i;
        while (j > 0 && c->n[j - 1] > n[i]) {
            c->n[j] = c->n[j - 1];
            c->p[j] = c->p[j - 1];
            j--;
        }
        c->n[j] = n[i];
        c->p[j] = pctl_s[i];
    }
    for (size_t i = 1; i < m; i++)
        if (c->n[i] == c->n[i - 1]) {
            if (errmsg)
                snprintf(errmsg, errcap, "two percentiles at x = %g", c->n[i]);
            latency_pctl_free(c);
            return NULL;
        }
    if (m >= 2) {
        const gsl_interp_type *t = m >= 3 ? gsl_interp_steffen : gsl_interp_linear;
        c->interp = gsl_interp_alloc(t, m);
        if (!c->interp || gsl_interp_init(c->interp, c->n, c->p, m) != GSL_SUCCESS) {
            if (errmsg)
                snprintf(errmsg, errcap, "interpolation set-up failed");
            latency_pctl_free(c);
            return NULL;
        }
    }
    return c;
}

double latency_pctl_eval(const struct latency_pctl *c, const struct model_fit *f, double n,
                         double think_s, int *extrapolated)
{
    size_t end;
    double y;
    *extrapolated = 0;
    if (!(n > 0))
        return NAN;
    if (n >= c->n[0] && n <= c->n[c->m - 1]) {
        if (c->m == 1)
            return c->p[0];
        if (gsl_interp_eval_e(c->interp, c->n, c->p, n, NULL, &y) != GSL_SUCCESS)
            return NAN;
        return y;
    }
    *extrapolated = 1;
    end = n < c->n[0] ? 0 : c->m - 1;
    {
        double r = latency_mean(f, n, think_s), re = latency_mean(f, c->n[end], think_s);
        if (!isfinite(r) || !isfinite(re) || !(r > 0) || !(re > 0))
            return NAN;
        return c->p[end] * r / re;
    }
}
