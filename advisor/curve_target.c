/* curve_target.c - a curve at a latency target, and node counts for a throughput (curve.h). */
#include "curve.h"

#include "piecewise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Bisection halvings for the crossing of the target inside one monotone segment. */
#define CURVE_BISECT 60
/* Search limit for a curve without a peak, knee or fall: this many times the largest N. */
#define CURVE_SEARCH_FACTOR 2.0

static int meets(const struct curve *c, double n, double target_s)
{
    enum curve_basis b;
    double r = curve_latency(c, n, &b);
    return isfinite(r) && r <= target_s;
}

static void fill_peak(const struct curve *c, struct curve_at *out)
{
    const struct model_derived *d = &c->derived;
    out->n_peak = NAN;
    out->peak_x = NAN;
    if (d->has_peak) {
        out->n_peak = d->n_peak.value;
        out->peak_x = d->x_peak.value;
    } else if (isfinite(d->ceiling.value)) {
        out->peak_x = d->ceiling.value;
        out->peak_is_ceiling = 1;
    }
}

/* Upper limit of the search (curve.h). *is_peak: 1 peak or knee, 0 search factor. */
static double search_limit(const struct curve *c, int *is_peak)
{
    const struct model_derived *d = &c->derived;
    const struct model_fit *f = &c->fit;
    *is_peak = 1;
    if (d->falling)
        return 1;
    if (d->has_peak && d->n_peak.value >= 1)
        return d->n_peak.value;
    if (d->has_peak)
        return 1;
    if (f->kind == MODEL_PIECEWISE && isfinite(f->par[MODEL_XM].value)) {
        double knee = piecewise_knee(f);
        if (isfinite(knee) && knee >= 1)
            return knee;
    }
    *is_peak = 0;
    return CURVE_SEARCH_FACTOR * f->n_max;
}

static void finish_at(const struct curve *c, double nt, struct curve_at *out)
{
    struct derived_prediction pr;
    const struct curve_level *l = curve_level_at(c, nt);
    derived_predict(&c->fit, nt, 0, 0, &pr);
    out->n = nt;
    out->x = pr.x;
    if (l) {
        out->x.value = l->x;
        out->x_basis = CURVE_BASIS_MEASURED;
    } else {
        out->x_basis = pr.extrapolated ? CURVE_BASIS_EXTRAPOLATED : CURVE_BASIS_INTERPOLATED;
    }
    out->latency_s = curve_latency(c, nt, &out->lat_basis);
}

int curve_at_target(const struct curve *c, const struct slo *slo, double nodes_at,
                    struct curve_at *out)
{
    double lim, t = slo->target_s, pct = slo->pct, *bp, nt;
    size_t nb = 0;
    int is_peak, k;

    memset(out, 0, sizeof *out);
    out->n = out->latency_s = out->best_measured_x = out->best_measured_n = NAN;
    out->x.value = out->x.lo = out->x.hi = NAN;
    if (!(t > 0) || !isfinite(t))
        return CURVE_EINVAL;
    fill_peak(c, out);
    out->latency_model = c->lat == NULL;
    if (pct != c->spec.lat_pct || (!c->lat && (c->by_nodes || pct > 0))) {
        out->status = CURVE_NOLATENCY;
        return CURVE_OK;
    }
    if (c->by_nodes) {
        if (!(nodes_at > 0))
            return CURVE_EINVAL;
        if (!meets(c, nodes_at, t)) {
            out->status = CURVE_NEVER;
            out->latency_s = curve_latency(c, nodes_at, &out->lat_basis);
            return CURVE_OK;
        }
        finish_at(c, nodes_at, out);
        out->status = CURVE_MET;
        return CURVE_OK;
    }
    lim = search_limit(c, &is_peak);
    /* best measured level meeting the target at N <= lim */
    for (size_t i = 0; i < c->m; i++) {
        const struct curve_level *l = &c->lv[i];
        double lat = c->lat ? l->lat_s : l->n / l->x; /* Little's law on the measured level */
        if (isfinite(lat) && lat <= t && l->n <= lim * (1 + 1e-9) &&
            !(l->x <= out->best_measured_x)) {
            out->best_measured_x = l->x;
            out->best_measured_n = l->n;
        }
    }
    /* breakpoints: 1, the measured N inside (1, lim), lim */
    bp = malloc((c->m + 2) * sizeof *bp);
    if (!bp)
        return CURVE_ENOMEM;
    bp[nb++] = 1;
    for (size_t i = 0; i < c->m; i++)
        if (c->lv[i].n > bp[nb - 1] && c->lv[i].n < lim)
            bp[nb++] = c->lv[i].n;
    if (lim > bp[nb - 1])
        bp[nb++] = lim;
    for (k = (int)nb - 1; k >= 0; k--)
        if (meets(c, bp[k], t))
            break;
    if (k < 0) {
        free(bp);
        out->status = CURVE_NEVER;
        out->latency_s = curve_latency(c, 1, &out->lat_basis);
        return CURVE_OK;
    }
    if (k == (int)nb - 1) {
        nt = bp[k];
        out->capped = is_peak && nb > 1;
        out->bound_by_search = !is_peak;
    } else {
        double lo = bp[k], hi = bp[k + 1];
        for (int i = 0; i < CURVE_BISECT; i++) {
            double mid = 0.5 * (lo + hi);
            if (meets(c, mid, t))
                lo = mid;
            else
                hi = mid;
        }
        nt = lo;
    }
    free(bp);
    finish_at(c, nt, out);
    out->status = CURVE_MET;
    return CURVE_OK;
}

long curve_nodes_for(const struct curve *c, const struct slo *slo, double required_tps,
                     long max_nodes, enum curve_basis *basis)
{
    double target_s = slo->target_s;
    int is_peak;
    double lim = search_limit(c, &is_peak);
    long hi_n = is_peak ? (long)floor(lim) : max_nodes;
    *basis = CURVE_BASIS_NONE;
    if (hi_n > max_nodes)
        hi_n = max_nodes;
    /* X rises up to the limit: first k with X(k) >= R by bisection, then the latency check
     * going up (latency need not be monotone in nodes) */
    if (hi_n < 1 || model_eval(&c->fit, (double)hi_n) < required_tps)
        return 0;
    {
        long lo = 1, hi = hi_n;
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            if (model_eval(&c->fit, (double)mid) >= required_tps)
                hi = mid;
            else
                lo = mid + 1;
        }
        for (long k = lo; k <= hi_n; k++)
            if (meets(c, (double)k, target_s)) {
                *basis = curve_level_at(c, (double)k) ? CURVE_BASIS_MEASURED
                         : (double)k < c->fit.n_min || (double)k > c->fit.n_max
                             ? CURVE_BASIS_EXTRAPOLATED
                             : CURVE_BASIS_INTERPOLATED;
                return k;
            }
    }
    return 0;
}
