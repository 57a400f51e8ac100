/* curve_eval.c - a curve's throughput and latency at one x, and its shape in words (curve.h). */
#include "curve.h"

#include "figfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *curve_fmt_tps(double v, char *buf, size_t cap)
{
    return fig_fmt(buf, cap, v, FIG_THOUSANDS);
}

/* The x unit for a count n: "thread"/"node" for 1, else "threads"/"nodes". */
static const char *unit_at(const struct curve *c, double n)
{
    if (n == 1)
        return c->by_nodes ? "node" : "thread";
    return curve_x_name(c);
}

/* Linear in log x between levels i and i+1 (n strictly between them). */
static double interp(const struct curve *c, size_t i, double n, double yi, double yj)
{
    double t = log(n / c->lv[i].n) / log(c->lv[i + 1].n / c->lv[i].n);
    return yi + t * (yj - yi);
}

static int throughput(const struct curve *c, double n, struct curve_value *out);

int curve_throughput(const struct curve *c, double n, struct curve_value *out)
{
    int rc = throughput(c, n, out);
    /* a curve of predicted points: every figure inside it is a prediction */
    if (rc == CURVE_OK && c->spec.source == CURVE_SOURCE_PREDICTED &&
        (out->basis == CURVE_BASIS_MEASURED || out->basis == CURVE_BASIS_INTERPOLATED))
        out->basis = CURVE_BASIS_PREDICTED;
    return rc;
}

static int throughput(const struct curve *c, double n, struct curve_value *out)
{
    const struct curve_level *l;
    double n0, n1;
    memset(out, 0, sizeof *out);
    out->x.value = out->x.lo = out->x.hi = NAN;
    out->beyond = 1;
    if (!(n > 0) || !isfinite(n) || c->m == 0)
        return CURVE_EINVAL;
    n0 = c->lv[0].n;
    n1 = c->lv[c->m - 1].n;
    out->beyond = n > n1 ? n / n1 : n < n0 ? n / n0 : 1;
    if ((l = curve_level_at(c, n)) != NULL) {
        double h = curve_level_half(l);
        out->x.value = l->x;
        /* an interval wider than the value stays wide, down to 0 (no throughput is below it):
         * never dropped, so that it counts where certainty is computed (issue 28.1) */
        out->x.lo = fmax(0, l->x - h);
        out->x.hi = l->x + h;
        out->basis = CURVE_BASIS_MEASURED;
        return CURVE_OK;
    }
    if (n > n0 && n < n1) {
        size_t i = 0;
        if (c->use_model && n >= c->lv[c->fit_lo].n && n <= c->lv[c->fit_hi].n) {
            struct derived_prediction pr;
            if (derived_predict(&c->fit, n, 0, 0, &pr) == MODEL_OK && isfinite(pr.x.value) &&
                pr.x.value <= c->x_max) {
                out->x = pr.x;
                if (!(out->x.lo <= out->x.value && out->x.value <= out->x.hi))
                    out->x.lo = out->x.hi = out->x.value;
                {
                    /* never narrower than the measured levels around it: a model that fits
                     * them exactly has a delta-method width of 0, their replicates do not */
                    size_t j = 0;
                    while (j + 2 < c->m && c->lv[j + 1].n < n)
                        j++;
                    {
                        const struct curve_level *a = &c->lv[j], *b = &c->lv[j + 1];
                        double ha = curve_level_half(a), hb = curve_level_half(b);
                        double rel = fmax(ha / a->x, hb / b->x);
                        if (isfinite(rel)) {
                            out->x.lo = fmin(out->x.lo, out->x.value * (1 - rel));
                            out->x.hi = fmax(out->x.hi, out->x.value * (1 + rel));
                        }
                    }
                }
                out->x.lo = fmax(0, out->x.lo);
                out->basis = CURVE_BASIS_INTERPOLATED;
                out->from_model = 1;
                return CURVE_OK;
            }
        }
        while (i + 2 < c->m && c->lv[i + 1].n < n)
            i++;
        {
            const struct curve_level *a = &c->lv[i], *b = &c->lv[i + 1];
            double ha = curve_level_half(a), hb = curve_level_half(b);
            out->x.value = interp(c, i, n, a->x, b->x);
            out->x.lo = fmax(0, interp(c, i, n, a->x - ha, b->x - hb));
            out->x.hi = interp(c, i, n, a->x + ha, b->x + hb);
        }
        out->basis = CURVE_BASIS_INTERPOLATED;
        return CURVE_OK;
    }
    /* outside the measured range: the model only, where it is used and fitted to that end */
    if (c->use_model && (n > n1 ? c->fit_hi == c->m - 1 : c->fit_lo == 0)) {
        struct derived_prediction pr;
        if (derived_predict(&c->fit, n, 0, 0, &pr) == MODEL_OK && isfinite(pr.x.value) &&
            pr.x.value > 0) {
            out->x = pr.x;
            if (isfinite(out->x.lo))
                out->x.lo = fmax(0, out->x.lo);
            out->basis = CURVE_BASIS_EXTRAPOLATED;
            out->from_model = 1;
        }
    }
    return CURVE_OK;
}

static double latency(const struct curve *c, double n, enum curve_basis *basis);

double curve_latency(const struct curve *c, double n, enum curve_basis *basis)
{
    double r = latency(c, n, basis);
    /* a curve of predicted points: its latencies are predictions too */
    if (c->spec.source == CURVE_SOURCE_PREDICTED &&
        (*basis == CURVE_BASIS_MEASURED || *basis == CURVE_BASIS_INTERPOLATED))
        *basis = CURVE_BASIS_PREDICTED;
    return r;
}

static double latency(const struct curve *c, double n, enum curve_basis *basis)
{
    *basis = CURVE_BASIS_NONE;
    if (!(n > 0) || c->m == 0)
        return NAN;
    if (c->lat) {
        int ex = 0;
        const struct curve_level *l;
        double r;
        double lo = NAN, hi = NAN;
        for (size_t i = 0; i < c->m; i++)
            if (isfinite(c->lv[i].lat_s)) {
                if (isnan(lo))
                    lo = c->lv[i].n;
                hi = c->lv[i].n;
            }
        if ((n < lo || n > hi) &&
            !(c->use_model && (n > hi ? c->fit_hi == c->m - 1 : c->fit_lo == 0)))
            return NAN; /* outside the measured latencies and no model to carry them */
        r = latency_pctl_eval(c->lat, &c->fit, n, c->spec.think_s, &ex);
        if (!isfinite(r))
            return NAN;
        *basis = ex ? CURVE_BASIS_EXTRAPOLATED : CURVE_BASIS_INTERPOLATED;
        if (!ex && (l = curve_level_at(c, n)) != NULL && isfinite(l->lat_s))
            *basis = CURVE_BASIS_MEASURED;
        return r;
    }
    if (!c->by_nodes && c->spec.lat_pct == 0) {
        struct curve_value v;
        if (curve_throughput(c, n, &v) != CURVE_OK || !(v.x.value > 0))
            return NAN;
        *basis = v.basis;
        return n / v.x.value - c->spec.think_s;
    }
    return NAN;
}

const char *curve_shape_text(const struct curve *c, char *buf, size_t cap)
{
    const struct shape *s = &c->shape;
    const char *xn = curve_x_name(c), *yn = c->spec.qps ? "qps" : "tps";
    char a[32], b[32];
    const struct curve_level *first = &c->lv[0], *last = &c->lv[c->m - 1];
    const struct curve_level *best = &c->lv[s->best];
    switch (s->cls) {
    case SHAPE_SINGLE:
        snprintf(buf, cap, "a single level (%s %s at %g %s): no shape",
                 curve_fmt_tps(first->x, a, sizeof a), yn, first->n, unit_at(c, first->n));
        break;
    case SHAPE_RISING:
        snprintf(buf, cap,
                 "rising: still gaining at the largest level (%s %s at %g %s -> %s at %g); "
                 "probe higher concurrency to find where it saturates",
                 curve_fmt_tps(c->lv[c->m - 2].x, a, sizeof a), yn, c->lv[c->m - 2].n, xn,
                 curve_fmt_tps(last->x, b, sizeof b), last->n);
        break;
    case SHAPE_PLATEAU:
        if (s->top_lo < s->top_hi)
            snprintf(buf, cap,
                     "plateau: saturated; within the noise of the best level (%s %s at %g %s) "
                     "from %g to %g %s",
                     curve_fmt_tps(best->x, a, sizeof a), yn, best->n, unit_at(c, best->n),
                     c->lv[s->top_lo].n, c->lv[s->top_hi].n, xn);
        else
            snprintf(buf, cap,
                     "plateau: saturated; no fall and no gain beyond the noise at the end (best "
                     "level %s %s at %g %s)",
                     curve_fmt_tps(best->x, a, sizeof a), yn, best->n, unit_at(c, best->n));
        break;
    case SHAPE_PEAKED:
        snprintf(buf, cap,
                 "peaked: the most throughput is %s %s at %g %s; it falls beyond the noise "
                 "after that (%s at %g)",
                 curve_fmt_tps(best->x, a, sizeof a), yn, best->n, unit_at(c, best->n),
                 curve_fmt_tps(last->x, b, sizeof b), last->n);
        break;
    case SHAPE_FALLING:
        snprintf(buf, cap,
                 "falling: past its peak over the whole measured range (%s %s at %g %s -> %s "
                 "at %g)",
                 curve_fmt_tps(first->x, a, sizeof a), yn, first->n, unit_at(c, first->n),
                 curve_fmt_tps(last->x, b, sizeof b), last->n);
        break;
    case SHAPE_COLLAPSE: {
        const struct curve_level *p = &c->lv[s->collapse_at], *q = &c->lv[s->collapse_at + 1];
        snprintf(buf, cap,
                 "collapse: throughput collapses between %g and %g %s (%s -> %s %s); no model is "
                 "drawn across it and no answer lies beyond it",
                 p->n, q->n, xn, curve_fmt_tps(p->x, a, sizeof a), curve_fmt_tps(q->x, b, sizeof b),
                 yn);
        break;
    }
    }
    return buf;
}

const char *curve_start_text(const struct curve *c, char *buf, size_t cap)
{
    const char *xn = curve_x_name(c);
    buf[0] = '\0';
    if (!c->shape.superlinear_start || c->m < 2)
        return buf;
    snprintf(buf, cap,
             "superlinear start: %g %s give %.2f x the throughput of %g (more than %.3g x): the "
             "%g-%s level is left out of the fit",
             c->lv[1].n, xn, c->shape.start_ratio, c->lv[0].n, c->lv[1].n / c->lv[0].n, c->lv[0].n,
             c->by_nodes ? "node" : "thread");
    return buf;
}

/* A noise bound above this (relative) cannot tell the models apart. */
#define CURVE_BOUND_TOO_WIDE 0.25

const char *curve_model_text(const struct curve *c, char *buf, size_t cap)
{
    const char *xn = curve_x_name(c);
    const struct fit_check *k = &c->check;
    char range[96] = "";
    if (!c->fitted) {
        snprintf(buf, cap,
                 "no model: %s; the measured curve is used (interpolation between "
                 "levels)",
                 c->no_fit);
        return buf;
    }
    if (c->fit_lo > 0 || c->fit_hi + 1 < c->m)
        snprintf(range, sizeof range, " (levels %g-%g %s)", c->lv[c->fit_lo].n, c->lv[c->fit_hi].n,
                 xn);
    if (c->use_model) {
        int n = snprintf(buf, cap,
                         "the %s model describes the levels it saw%s: largest residual %+.1f %% at "
                         "%g %s, within the noise bound %.1f %%",
                         model_kind_name(c->fit.kind), range, 100 * k->worst_rel, c->lv[k->worst].n,
                         unit_at(c, c->lv[k->worst].n), 100 * k->worst_bound_rel);
        if (c->point_rel > SHAPE_NOISE_REL && n > 0 && (size_t)n < cap)
            n +=
                snprintf(buf + n, cap - (size_t)n,
                         "; a single point is off by %.1f %% (at %g %s, R^2 %.2f), within the "
                         "noise of its level",
                         100 * c->point_rel, c->point_rel_n, unit_at(c, c->point_rel_n), c->fit.r2);
        /* issue 28.2: a bound that wide holds any of the models (USL, Amdahl and the piecewise
         * line differ by less than that over a measured range) */
        if (k->worst_bound_rel > CURVE_BOUND_TOO_WIDE && n > 0 && (size_t)n < cap)
            snprintf(buf + n, cap - (size_t)n,
                     "; but a noise bound that wide cannot tell models apart: the levels are too "
                     "noisy for the model to say more than the points (measure longer, or more "
                     "replicates)");
    } else if (!k->describes && k->pattern) {
        snprintf(buf, cap,
                 "no model describes the points: the %s model's residuals%s have one sign at %zu "
                 "consecutive levels from %g %s (a pattern); the measured curve is used "
                 "(interpolation between levels)",
                 model_kind_name(c->fit.kind), range, k->run_len, c->lv[k->run_from].n,
                 unit_at(c, c->lv[k->run_from].n));
    } else if (!k->describes) {
        snprintf(buf, cap,
                 "no model describes the points: the %s model's largest residual%s is %+.1f %% "
                 "at %g %s, beyond the noise bound %.1f %%; the measured curve is used "
                 "(interpolation between levels)",
                 model_kind_name(c->fit.kind), range, 100 * k->worst_rel, c->lv[k->worst].n,
                 unit_at(c, c->lv[k->worst].n), 100 * k->worst_bound_rel);
    } else {
        snprintf(buf, cap,
                 "no model describes the points: %s; the measured curve is used "
                 "(interpolation between levels)",
                 c->no_model);
    }
    return buf;
}
