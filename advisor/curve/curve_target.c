/* curve_target.c - a curve at a latency target, and node counts for a throughput (curve.h). */
#include "curve.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Bisection halvings for the crossing of the target inside one monotone segment. */
#define CURVE_BISECT 60

const char *curve_binds_name(enum curve_binds b)
{
    switch (b) {
    case CURVE_BINDS_LATENCY:
        return "latency";
    case CURVE_BINDS_PEAK:
        return "peak";
    case CURVE_BINDS_RANGE:
        return "range";
    case CURVE_BINDS_COLLAPSE:
        return "collapse";
    }
    return "?";
}

/* The latency's relative 95 % half-width at n (curve.h, "Latency's noise"): a level's, linear
 * in log n between the levels with one, the nearest level's outside them; NAN when none has. */
static double lat_rel(const struct curve *c, double n)
{
    const struct curve_level *a = NULL, *b = NULL;
    for (size_t i = 0; i < c->m; i++) {
        const struct curve_level *l = &c->lv[i];
        if (!isfinite(l->lat_rel95))
            continue;
        if (l->n <= n)
            a = l;
        else if (!b)
            b = l;
    }
    if (!a || !b)
        return a ? a->lat_rel95 : b ? b->lat_rel95 : NAN;
    if (a->n == n)
        return a->lat_rel95;
    {
        double w = log(n / a->n) / log(b->n / a->n);
        return a->lat_rel95 + w * (b->lat_rel95 - a->lat_rel95);
    }
}

/* Whether the latency at n meets the target: side 0 the curve's, -1 its 95 % lower bound, +1
 * its upper bound (the answers a rerun could give, curve_at_target). */
static int meets_side(const struct curve *c, double n, double target_s, int side)
{
    enum curve_basis b;
    double r = curve_latency(c, n, &b);
    if (side && isfinite(r)) {
        double rel = lat_rel(c, n);
        if (isfinite(rel))
            r = fmax(0, r * (1 + side * rel));
    }
    return isfinite(r) && r <= target_s;
}

static int meets(const struct curve *c, double n, double target_s)
{
    return meets_side(c, n, target_s, 0);
}

/* The peak (or the best level of a plateau) for the headroom. */
static void fill_peak(const struct curve *c, struct curve_at *out)
{
    out->n_peak = NAN;
    out->peak_x = NAN;
    if (c->peak.has) {
        out->n_peak = c->peak.n.value;
        out->peak_x = c->peak.x.value;
    } else if (c->shape.cls == SHAPE_PLATEAU) {
        out->peak_x = c->x_max;
        out->peak_is_best_level = 1;
    } else if (c->shape.cls == SHAPE_RISING && isfinite(c->x_max)) {
        /* still rising at the largest level: the peak is beyond the data, at least the best
         * level (a model's asymptote there, 8 x the best level on a curve measured to 900 tps,
         * is an assumption, not a measurement) */
        out->peak_x = c->x_max;
        out->peak_is_best_level = 1;
        out->peak_is_lower_bound = 1;
    }
    /* a predicted curve's levels move together (their interval is the model's error, not each
     * level's noise), so one that still climbs at its last level is not flat there, and a
     * model's peak at that edge is the fit's, not the data's: it stops where the measured
     * levels it came from stopped, and its peak is beyond (issue 28.5: c5.24xlarge, 96 vCPUs
     * predicted to 128 threads, +30 % on its last doubling, read as a plateau; c6g.16xlarge,
     * +21 %, given the USL's N* = 127.7) */
    if (c->spec.source == CURVE_SOURCE_PREDICTED && c->m >= 2 &&
        c->lv[c->m - 1].x > (1 + CURVE_PRED_STILL_RISING) * c->lv[c->m - 2].x) {
        out->n_peak = NAN;
        out->peak_x = fmax(c->x_max, isfinite(out->peak_x) ? out->peak_x : 0);
        out->peak_is_best_level = out->peak_x == c->x_max;
        out->peak_is_lower_bound = 1;
    }
}

/* The top of the search range (curve_at_target); *ext: 1 when it lies past the last level. */
static double search_top(const struct curve *c, double extrapolate, int *ext)
{
    double top = c->lv[c->m - 1].n;
    *ext = 0;
    if (c->shape.cls == SHAPE_COLLAPSE)
        return c->lv[c->shape.collapse_at].n;
    if (extrapolate > 1 && c->use_model && c->fit_hi == c->m - 1) {
        *ext = 1;
        return top * extrapolate;
    }
    return top;
}

/* Evaluate candidate n: keep it when it has more throughput than the best so far. */
static void consider(const struct curve *c, double n, double *best_n, struct curve_value *best)
{
    struct curve_value v;
    if (curve_throughput(c, n, &v) != CURVE_OK || !isfinite(v.x.value))
        return;
    if (!isfinite(best->x.value) || v.x.value > best->x.value ||
        (v.x.value == best->x.value && n < *best_n)) {
        *best = v;
        *best_n = n;
    }
}

/* The crossing of the target between a (meets) and b (does not), or the reverse. */
static double crossing(const struct curve *c, double a, double b, double t, int side)
{
    double ok = meets_side(c, a, t, side) ? a : b, bad = ok == a ? b : a;
    double level = ok;
    for (int i = 0; i < CURVE_BISECT; i++) {
        double mid = 0.5 * (ok + bad);
        if (meets_side(c, mid, t, side))
            ok = mid;
        else
            bad = mid;
    }
    /* a crossing at the level itself (its latency is the target) is the level */
    return fabs(ok - level) <= 1e-9 * level ? level : ok;
}

static void finish(const struct curve *c, double n, const struct curve_value *v,
                   struct curve_at *out)
{
    out->status = CURVE_MET;
    out->n = n;
    out->x = v->x;
    out->x_basis = v->basis;
    out->x_from_model = v->from_model;
    out->beyond = v->beyond;
    out->latency_s = curve_latency(c, n, &out->lat_basis);
}

static int at_target(const struct curve *c, const struct slo *slo, double nodes_at,
                     double extrapolate, int side, struct curve_at *out)
{
    double t = slo->target_s, top, *bp, best_n = NAN, max_ok = NAN;
    struct curve_value best;
    size_t nb = 0;
    int ext, top_ok, all = 1;

    memset(out, 0, sizeof *out);
    out->n = out->latency_s = out->latency_n = out->best_measured_x = out->best_measured_n = NAN;
    out->x.value = out->x.lo = out->x.hi = out->limit_n = NAN;
    out->beyond = 1;
    if (!(t > 0) || !isfinite(t) || !(extrapolate >= 1) || !isfinite(extrapolate) || c->m == 0)
        return CURVE_EINVAL;
    fill_peak(c, out);
    out->latency_model = c->lat == NULL;
    if (slo->pct != c->spec.lat_pct || (!c->lat && (c->by_nodes || slo->pct > 0))) {
        out->status = CURVE_NOLATENCY;
        return CURVE_OK;
    }
    memset(&best, 0, sizeof best);
    best.x.value = NAN;
    if (c->by_nodes) {
        double hi = c->lv[c->m - 1].n * extrapolate;
        if (!(nodes_at > 0))
            return CURVE_EINVAL;
        out->limit_n = hi;
        if (nodes_at < c->lv[0].n / extrapolate * (1 - 1e-12) || nodes_at > hi * (1 + 1e-12)) {
            out->status = CURVE_OUTSIDE;
            return CURVE_OK;
        }
        consider(c, nodes_at, &best_n, &best);
        if (!isfinite(best.x.value)) {
            out->status = CURVE_OUTSIDE;
            return CURVE_OK;
        }
        if (!meets_side(c, nodes_at, t, side)) {
            out->status = CURVE_NEVER;
            out->latency_n = nodes_at;
            out->latency_s = curve_latency(c, nodes_at, &out->lat_basis);
            return CURVE_OK;
        }
        finish(c, nodes_at, &best, out);
        return CURVE_OK;
    }
    top = search_top(c, extrapolate, &ext);
    out->limit_n = top;
    /* breakpoints: the levels up to the top, and the top */
    bp = malloc((c->m + 1) * sizeof *bp);
    if (!bp)
        return CURVE_ENOMEM;
    for (size_t i = 0; i < c->m && c->lv[i].n <= top * (1 + 1e-12); i++)
        bp[nb++] = c->lv[i].n;
    if (top > bp[nb - 1] * (1 + 1e-12))
        bp[nb++] = top;
    for (size_t i = 0; i < c->m; i++) {
        const struct curve_level *l = &c->lv[i];
        int ok = meets_side(c, l->n, t, side);
        all &= ok;
        if (ok && l->n <= top * (1 + 1e-12) && !(l->x <= out->best_measured_x)) {
            out->best_measured_x = l->x;
            out->best_measured_n = l->n;
        }
    }
    out->met_everywhere = all && c->shape.cls != SHAPE_COLLAPSE;
    for (size_t k = 0; k < nb; k++) {
        int here = meets_side(c, bp[k], t, side);
        if (here) {
            consider(c, bp[k], &best_n, &best);
            max_ok = bp[k];
        }
        if (k + 1 < nb && here != meets_side(c, bp[k + 1], t, side)) {
            double x = crossing(c, bp[k], bp[k + 1], t, side);
            consider(c, x, &best_n, &best);
            if (!(x <= max_ok))
                max_ok = x;
        }
    }
    if (c->peak.has && c->peak.from_model && c->peak.n.value >= bp[0] && c->peak.n.value <= top &&
        meets_side(c, c->peak.n.value, t, side))
        consider(c, c->peak.n.value, &best_n, &best);
    top_ok = meets_side(c, bp[nb - 1], t, side);
    free(bp);
    if (!isfinite(best.x.value)) {
        out->status = CURVE_NEVER;
        out->latency_n = c->lv[0].n;
        out->latency_s = curve_latency(c, c->lv[0].n, &out->lat_basis);
        return CURVE_OK;
    }
    finish(c, best_n, &best, out);
    /* what limits it: the top of the range; a feasible concurrency above the answer (the peak
     * does); else the target */
    if (top_ok && best_n >= top * (1 - 1e-12))
        out->binds = c->shape.cls == SHAPE_COLLAPSE ? CURVE_BINDS_COLLAPSE : CURVE_BINDS_RANGE;
    else if (max_ok > best_n * (1 + 1e-9))
        out->binds = CURVE_BINDS_PEAK;
    else
        out->binds = CURVE_BINDS_LATENCY;
    (void)ext;
    return CURVE_OK;
}

int curve_at_target(const struct curve *c, const struct slo *slo, double nodes_at,
                    double extrapolate, struct curve_at *out)
{
    struct curve_at side;
    double rel, t = slo->target_s;
    int rc = at_target(c, slo, nodes_at, extrapolate, 0, out);
    out->latency_lo_s = out->latency_hi_s = out->p_meets = NAN;
    if (rc != CURVE_OK || out->status != CURVE_MET)
        return rc;
    rel = lat_rel(c, out->n);
    /* without a measured latency (Little's law on the curve) the latency's noise is the
     * throughput's, already in the interval */
    if (!c->lat || !isfinite(rel) || !isfinite(out->latency_s))
        return rc;
    out->latency_lo_s = fmax(0, out->latency_s * (1 - rel));
    out->latency_hi_s = out->latency_s * (1 + rel);
    out->p_meets =
        rel > 0
            ? gsl_cdf_ugaussian_P((t - out->latency_s) / (rel * out->latency_s / 1.959963984540054))
            : out->latency_s <= t;
    /* the answers of the latency curve at its own 95 % bounds: where a rerun could cross */
    if (at_target(c, slo, nodes_at, extrapolate, -1, &side) == CURVE_OK &&
        side.status == CURVE_MET && side.x.hi > out->x.hi)
        out->x.hi = side.x.hi;
    if (at_target(c, slo, nodes_at, extrapolate, 1, &side) == CURVE_OK &&
        side.status == CURVE_MET && side.x.lo < out->x.lo)
        out->x.lo = side.x.lo;
    return rc;
}

long curve_nodes_for(const struct curve *c, const struct slo *slo, double required_tps,
                     long max_nodes, double extrapolate, enum curve_basis *basis)
{
    int ext;
    double top = c->m ? search_top(c, extrapolate, &ext) : 0;
    long lo = c->m ? (long)ceil(c->lv[0].n - 1e-9) : 1, hi = (long)floor(top + 1e-9);
    *basis = CURVE_BASIS_NONE;
    if (hi > max_nodes)
        hi = max_nodes;
    if (lo < 1)
        lo = 1;
    for (long k = lo; k <= hi; k++) {
        struct curve_value v;
        if (curve_throughput(c, (double)k, &v) != CURVE_OK || !(v.x.value >= required_tps))
            continue;
        if (meets(c, (double)k, slo->target_s)) {
            *basis = v.basis;
            return k;
        }
    }
    return 0;
}
