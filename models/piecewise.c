/* piecewise.c - min(lambda*N, X_m) by enumeration of the splits of the sorted points. */
#include "piecewise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pt {
    double n, x;
};

static int cmp_pt(const void *a, const void *b)
{
    const struct pt *p = a, *q = b;
    return (p->n > q->n) - (p->n < q->n);
}

double piecewise_knee(const struct model_fit *f)
{
    if (f->kind != MODEL_PIECEWISE || !isfinite(f->par[MODEL_XM].value))
        return NAN;
    return f->par[MODEL_XM].value / f->par[MODEL_LAMBDA].value;
}

int piecewise_fit(const double *n, const double *x, size_t npts, struct model_fit *out,
                  char *errmsg, size_t errcap)
{
    struct pt *s;
    double *cum_xn, *cum_nn, *cum_x, *cum_xx;
    double best_sse = INFINITY, best_l = NAN, best_m = NAN, snn_best = 0;
    size_t best_k = 0;

    if (model_check_points(n, x, npts, errmsg, errcap) != MODEL_OK)
        return MODEL_EINVAL;
    s = malloc(npts * sizeof *s);
    cum_xn = malloc(4 * (npts + 1) * sizeof *cum_xn);
    if (!s || !cum_xn) {
        free(s);
        free(cum_xn);
        if (errmsg)
            snprintf(errmsg, errcap, "out of memory");
        return MODEL_ENOMEM;
    }
    cum_nn = cum_xn + (npts + 1);
    cum_x = cum_nn + (npts + 1);
    cum_xx = cum_x + (npts + 1);
    for (size_t i = 0; i < npts; i++) {
        s[i].n = n[i];
        s[i].x = x[i];
    }
    qsort(s, npts, sizeof *s, cmp_pt);
    cum_xn[0] = cum_nn[0] = cum_x[0] = cum_xx[0] = 0;
    for (size_t i = 0; i < npts; i++) {
        cum_xn[i + 1] = cum_xn[i] + s[i].x * s[i].n;
        cum_nn[i + 1] = cum_nn[i] + s[i].n * s[i].n;
        cum_x[i + 1] = cum_x[i] + s[i].x;
        cum_xx[i + 1] = cum_xx[i] + s[i].x * s[i].x;
    }
    /* k points on the linear branch, k = 0..npts. k = 0: all on the ceiling (the knee at or
     * below the smallest N; lambda is then only bounded below, reported as X_m / N_min);
     * k = npts: no knee in the data. */
    for (size_t step = 0; step <= npts; step++) {
        /* the one-parameter candidates first (no knee, then all on the ceiling), so that a
         * two-parameter split must be strictly better to win */
        size_t k = step == 0 ? npts : step - 1;
        double l = k ? cum_xn[k] / cum_nn[k] : (cum_x[npts] / (double)npts) / s[0].n;
        /* SSE of the linear part: sum x^2 - 2 l sum xn + l^2 sum n^2 */
        double sse = k ? (cum_xx[k]) - l * cum_xn[k] : 0.0;
        double m = NAN;
        if (k < npts) {
            size_t nf = npts - k;
            double sx = cum_x[npts] - cum_x[k];
            if (k > 0 && s[k - 1].n == s[k].n)
                continue; /* a split must fall between distinct N */
            if (k > 0 && s[npts - 1].n == s[k].n)
                continue; /* one x on the ceiling cannot tell flat from still rising */
            m = sx / (double)nf;
            if (k > 0 && (l * s[k - 1].n > m * (1 + 1e-12) || m > l * s[k].n * (1 + 1e-12)))
                continue; /* inconsistent with the min */
            sse += (cum_xx[npts] - cum_xx[k]) - sx * m;
        }
        if (sse < 0)
            sse = 0;
        if (sse < best_sse * (1 - 1e-9) - 1e-12 * cum_xx[npts] || best_sse == INFINITY) {
            best_sse = sse;
            best_l = l;
            best_m = m;
            best_k = k;
            snn_best = cum_nn[k];
        }
    }
    memset(out, 0, sizeof *out);
    out->kind = MODEL_PIECEWISE;
    out->par[MODEL_LAMBDA].value = best_l;
    out->par[MODEL_XM].value = best_m;
    out->par[2].value = NAN;
    out->par[2].fixed = 1;
    if (best_k > 0)
        out->cov[MODEL_LAMBDA][MODEL_LAMBDA] = 1.0 / snn_best;
    if (best_k == 0) {
        out->k = out->p = 1;
        out->par[MODEL_LAMBDA].fixed = 1;
        out->cov[MODEL_XM][MODEL_XM] = 1.0 / (double)npts;
    } else if (best_k < npts) {
        out->k = out->p = 2;
        out->cov[MODEL_XM][MODEL_XM] = 1.0 / (double)(npts - best_k);
    } else {
        out->k = out->p = 1;
        out->par[MODEL_XM].fixed = 1;
    }
    out->status = 0;
    out->iterations = 0;
    out->rcond = NAN;
    model_finish(out, n, x, npts);
    if (best_k == npts)
        out->warnings |= MODEL_WARN_KNEE_BEYOND;
    if (best_k == 0)
        out->warnings |= MODEL_WARN_KNEE_BEFORE;
    if (out->n_distinct < 3)
        out->warnings |= MODEL_WARN_FEW_DISTINCT;
    free(s);
    free(cum_xn);
    return MODEL_OK;
}
