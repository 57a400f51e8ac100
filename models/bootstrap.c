/* bootstrap.c - residual bootstrap of N*, maximum throughput and ceiling. */
#include "bootstrap.h"

#include "piecewise.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bootstrap_options bootstrap_options_default(void)
{
    struct bootstrap_options o;
    o.replicates = 2000;
    o.seed = 42;
    return o;
}

/* figures of one fitted model: N* (+inf without peak), maximum throughput, ceiling */
static void figures(const struct model_fit *f, double *np, double *xm, double *ceil)
{
    double l = f->par[MODEL_LAMBDA].value, s = f->par[MODEL_SIGMA].value;
    double k = f->kind == MODEL_USL ? f->par[MODEL_KAPPA].value : 0.0;
    if (f->kind == MODEL_PIECEWISE) {
        *np = INFINITY;
        *ceil = isfinite(f->par[MODEL_XM].value) ? f->par[MODEL_XM].value : INFINITY;
        *xm = *ceil;
        return;
    }
    *ceil = s > 0 ? l / s : INFINITY;
    if (k > 0 && s < 1) {
        *np = sqrt((1 - s) / k);
        *xm = model_eval(f, *np);
    } else {
        *np = INFINITY;
        *xm = *ceil;
    }
}

/* quantile q of sorted v[0..m-1], linear between order statistics; +inf propagates */
static double quantile(const double *v, size_t m, double q)
{
    double pos = q * (double)(m - 1), frac;
    size_t i = (size_t)floor(pos);
    if (i + 1 >= m)
        return v[m - 1];
    frac = pos - (double)i;
    if (isinf(v[i]) || isinf(v[i + 1]))
        return frac > 0 || isinf(v[i]) ? INFINITY : v[i];
    return v[i] + frac * (v[i + 1] - v[i]);
}

int bootstrap_derived(const double *n, const double *x, size_t npts, const struct model_fit *fit,
                      const struct bootstrap_options *opt, struct usl_workspace *ws,
                      struct bootstrap_result *out, char *errmsg, size_t errcap)
{
    struct bootstrap_options o = opt ? *opt : bootstrap_options_default();
    struct usl_options uo = usl_options_default();
    struct usl_workspace *own = NULL;
    double *buf, *xs, *res, *fitted, *v_np, *v_xm, *v_ce, infl, np0, xm0, ce0;
    gsl_rng *rng;
    size_t m = 0;
    int rc = MODEL_OK;

    memset(out, 0, sizeof *out);
    if (npts != fit->n || npts == 0 || o.replicates < 100 || fit->dof <= 0) {
        if (errmsg)
            snprintf(errmsg, errcap,
                     "bootstrap needs the fit's own points, >= 100 replicates "
                     "and degrees of freedom");
        return MODEL_EINVAL;
    }
    buf = malloc((3 * npts + 3 * o.replicates) * sizeof *buf);
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!ws)
        own = ws = usl_workspace_new();
    if (!buf || !rng || !ws) {
        free(buf);
        gsl_rng_free(rng);
        usl_workspace_free(own);
        if (errmsg)
            snprintf(errmsg, errcap, "out of memory");
        return MODEL_ENOMEM;
    }
    xs = buf;
    res = xs + npts;
    fitted = res + npts;
    v_np = fitted + npts;
    v_xm = v_np + o.replicates;
    v_ce = v_xm + o.replicates;
    gsl_rng_set(rng, o.seed);
    infl = sqrt((double)npts / (double)fit->dof);
    for (size_t i = 0; i < npts; i++) {
        fitted[i] = model_eval(fit, n[i]);
        res[i] = (x[i] - fitted[i]) * infl;
    }
    uo.amdahl = fit->kind == MODEL_AMDAHL;
    uo.any_sign_x = 1;
    if (fit->par[MODEL_LAMBDA].fixed && fit->kind != MODEL_PIECEWISE)
        uo.lambda_fixed = fit->par[MODEL_LAMBDA].value;
    for (size_t b = 0; b < o.replicates; b++) {
        struct model_fit f;
        int pos = 1, r;
        for (size_t i = 0; i < npts; i++) {
            xs[i] = fitted[i] + res[gsl_rng_uniform_int(rng, npts)];
            pos &= xs[i] > 0;
        }
        if (fit->kind == MODEL_PIECEWISE && !pos)
            continue; /* the piecewise fit needs X > 0; counted as a failed refit */
        if (fit->kind == MODEL_PIECEWISE)
            r = piecewise_fit(n, xs, npts, &f, NULL, 0);
        else
            r = usl_fit(n, xs, npts, &uo, ws, &f, NULL, 0);
        if (r == MODEL_ENOMEM) {
            rc = r;
            goto done;
        }
        if (r != MODEL_OK)
            continue;
        figures(&f, &v_np[m], &v_xm[m], &v_ce[m]);
        if (isinf(v_np[m]))
            out->no_peak++;
        m++;
    }
    out->replicates = o.replicates;
    out->refitted = m;
    if (m < o.replicates * 9 / 10) {
        if (errmsg)
            snprintf(errmsg, errcap, "only %zu of %zu bootstrap refits succeeded", m, o.replicates);
        rc = MODEL_ENOCONV;
        goto done;
    }
    gsl_sort(v_np, 1, m);
    gsl_sort(v_xm, 1, m);
    gsl_sort(v_ce, 1, m);
    figures(fit, &np0, &xm0, &ce0);
    out->n_peak.value = isfinite(np0) ? np0 : NAN;
    out->x_max.value = xm0;
    out->ceiling.value = ce0;
    out->n_peak.lo = quantile(v_np, m, 0.025);
    out->n_peak.hi = quantile(v_np, m, 0.975);
    out->x_max.lo = quantile(v_xm, m, 0.025);
    out->x_max.hi = quantile(v_xm, m, 0.975);
    out->ceiling.lo = quantile(v_ce, m, 0.025);
    out->ceiling.hi = quantile(v_ce, m, 0.975);
done:
    free(buf);
    gsl_rng_free(rng);
    usl_workspace_free(own);
    return rc;
}
