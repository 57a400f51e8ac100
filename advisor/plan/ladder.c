/* ladder.c - the adaptive thread ladder (see ladder.h). */
#include "ladder.h"

#include "curve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ladder_opts ladder_opts_default(void)
{
    struct ladder_opts o;
    o.max_threads = 64;
    o.max_points = 10;
    o.min_gain = 0.05;
    o.max_latency_ms = 0;
    o.narrow = 0.5;
    return o;
}

int ladder_init(struct ladder *l, const struct ladder_opts *opts)
{
    memset(l, 0, sizeof *l);
    if (!opts || opts->max_threads == 0 || opts->max_points < 2 ||
        opts->max_points > LADDER_MAX_LEVELS || !(opts->min_gain > 0) || !(opts->narrow > 0) ||
        !(opts->max_latency_ms >= 0))
        return -1;
    l->o = *opts;
    l->phase = LADDER_DOUBLING;
    return 0;
}

int ladder_add(struct ladder *l, unsigned threads, double tps, double latency_ms)
{
    if (threads == 0 || l->n >= LADDER_MAX_LEVELS)
        return -1;
    l->lv[l->n].threads = threads;
    l->lv[l->n].tps = tps;
    l->lv[l->n].latency_ms = latency_ms;
    l->n++;
    return 0;
}

static int measured(const struct ladder *l, unsigned t)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->lv[i].threads == t)
            return 1;
    return 0;
}

/* Phase 1: the next doubling, or 0 when doubling is over (l->why says why). */
static unsigned next_doubling(struct ladder *l)
{
    const struct ladder_level *last;
    unsigned next;
    if (l->n == 0) {
        snprintf(l->why, sizeof l->why, "doubling from 1 thread");
        return 1;
    }
    last = &l->lv[l->n - 1];
    if (l->o.max_latency_ms > 0 && last->latency_ms > l->o.max_latency_ms) {
        snprintf(l->why, sizeof l->why, "latency %.2f ms at %u threads passes the bound %.2f ms",
                 last->latency_ms, last->threads, l->o.max_latency_ms);
        return 0;
    }
    if (last->threads >= l->o.max_threads) {
        snprintf(l->why, sizeof l->why, "reached --max-threads %u", l->o.max_threads);
        return 0;
    }
    if (l->n >= 3) {
        double g1 = l->lv[l->n - 2].tps > 0 ? last->tps / l->lv[l->n - 2].tps - 1 : INFINITY;
        double g0 =
            l->lv[l->n - 3].tps > 0 ? l->lv[l->n - 2].tps / l->lv[l->n - 3].tps - 1 : INFINITY;
        if (g0 < l->o.min_gain && g1 < l->o.min_gain) {
            snprintf(l->why, sizeof l->why,
                     "throughput gained %+.1f %% and %+.1f %% over the last two doublings "
                     "(< %.0f %%): plateau",
                     100 * g0, 100 * g1, 100 * l->o.min_gain);
            return 0;
        }
    }
    next = last->threads * 2 > l->o.max_threads ? l->o.max_threads : last->threads * 2;
    snprintf(l->why, sizeof l->why, "doubling to %u threads", next);
    return next;
}

static int measured_before(const unsigned *s, size_t m, unsigned t)
{
    for (size_t i = 0; i < m; i++)
        if (s[i] == t)
            return 1;
    return 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

/* Geometric midpoint of a < b, or 0 when it falls on a or b (nothing to split). */
static unsigned midpoint(unsigned a, unsigned b)
{
    unsigned m = (unsigned)lround(sqrt((double)a * (double)b));
    return m > a && m < b ? m : 0;
}

/* The estimate of where the curve bends: USL peak or knee, with its interval. 0 when the
 * curve could be fitted, else -1 (then l->est is the level of the highest throughput). */
static int estimate(struct ladder *l, struct usl_workspace *ws)
{
    struct curve_obs obs[LADDER_MAX_LEVELS];
    struct curve_spec spec = curve_spec_default();
    struct curve c;
    const struct model_derived *d;
    size_t k = 0, best = 0;
    char err[320];
    int rc = -1;
    for (size_t i = 0; i < l->n; i++) {
        if (!(l->lv[i].tps > 0))
            continue;
        obs[k].n = l->lv[i].threads;
        obs[k].x = l->lv[i].tps;
        obs[k].ci95_x = NAN;
        obs[k].lat_s = NAN;
        obs[k].ci95_df = 0;
        obs[k].pooled = 0;
        obs[k].lat_hist = 0;
        if (obs[k].x > obs[best].x)
            best = k;
        k++;
    }
    l->have_est = 0;
    if (k == 0)
        return -1;
    l->est = obs[best].n;
    l->est_lo = l->est_hi = NAN;
    spec.lat_pct = CURVE_LAT_NONE;
    if (k < 3 || curve_init(&c, obs, k, &spec, ws, err, sizeof err) != CURVE_OK)
        return -1;
    d = &c.derived;
    if (c.peak.has && c.peak.from_model) {
        l->est_is_peak = 1;
        l->est = c.peak.n.value;
        l->est_lo = c.peak.n.lo;
        l->est_hi = c.peak.n.hi;
        rc = 0;
    } else if (c.peak.has) {
        /* the best level: the peak lies between its neighbours, nearer the higher one (the
         * estimate is the geometric midpoint towards it) */
        size_t b = c.shape.best;
        double lo = b > 0 ? c.lv[b - 1].n : c.lv[b].n, hi = b + 1 < c.m ? c.lv[b + 1].n : lo;
        int up = b + 1 < c.m && (b == 0 || c.lv[b + 1].x >= c.lv[b - 1].x);
        l->est_is_peak = 1;
        l->est = sqrt(c.lv[b].n * (up ? c.lv[b + 1].n : lo));
        l->est_lo = lo;
        l->est_hi = b + 1 < c.m ? hi : c.lv[b].n;
        rc = 0;
    } else if (c.use_model && isfinite(d->knee.value) && d->knee.value > 0) {
        l->est_is_peak = 0;
        l->est = d->knee.value;
        l->est_lo = d->knee.lo;
        l->est_hi = d->knee.hi;
        rc = 0;
    } else if (c.shape.cls == SHAPE_PLATEAU) {
        /* no model: the plateau starts at the first level within the noise of the best */
        size_t t = c.shape.top_lo;
        l->est_is_peak = 0;
        l->est = c.lv[t].n;
        l->est_lo = t > 0 ? c.lv[t - 1].n : c.lv[t].n;
        l->est_hi = c.lv[t].n;
        rc = 0;
    }
    curve_destroy(&c);
    if (rc == 0)
        l->have_est = 1;
    return rc;
}

/* "95 % interval [lo, hi]" of the estimate, or what is unknown about it (never nan). */
static const char *interval_text(const struct ladder *l, char *buf, size_t cap)
{
    if (!l->have_est)
        snprintf(buf, cap, "95 %% interval unknown (no model or shape of the levels places it)");
    else if (isfinite(l->est_lo) && isfinite(l->est_hi))
        snprintf(buf, cap, "95 %% interval [%.1f, %.1f]", l->est_lo, l->est_hi);
    else
        snprintf(buf, cap, "95 %% interval unknown (the model gives none)");
    return buf;
}

/* Phase 2: a midpoint near the estimate, or 0 when done. */
static unsigned next_refining(struct ladder *l, struct usl_workspace *ws)
{
    unsigned s[LADDER_MAX_LEVELS];
    size_t m = 0, j;
    int fitted;
    const char *what;
    if (l->n >= l->o.max_points) {
        snprintf(l->why, sizeof l->why, "measured --max-points %zu levels", l->o.max_points);
        return 0;
    }
    fitted = estimate(l, ws) == 0;
    what = !fitted ? "highest throughput" : l->est_is_peak ? "USL peak" : "knee";
    if (fitted && isfinite(l->est_lo) && isfinite(l->est_hi) &&
        l->est_hi - l->est_lo <= l->o.narrow * l->est) {
        snprintf(l->why, sizeof l->why, "%s at %.1f threads, 95 %% interval [%.1f, %.1f]: narrow",
                 what, l->est, l->est_lo, l->est_hi);
        return 0;
    }
    for (size_t i = 0; i < l->n; i++)
        if (!measured_before(s, m, l->lv[i].threads))
            s[m++] = l->lv[i].threads;
    if (m < 2) {
        snprintf(l->why, sizeof l->why, "fewer than 2 levels: nothing to refine");
        return 0;
    }
    qsort(s, m, sizeof s[0], cmp_unsigned);
    /* the gap holding the estimate; outside the range, the gap at that end */
    for (j = 0; j + 2 < m && !(l->est <= s[j + 1]); j++)
        ;
    /* that gap, then its neighbours outwards */
    for (size_t step = 0; step < m; step++) {
        for (int side = 0; side < 2; side++) {
            long g = side == 0 ? (long)j - (long)step : (long)j + (long)step;
            unsigned mid;
            if ((step == 0 && side == 1) || g < 0 || g + 1 >= (long)m)
                continue;
            mid = midpoint(s[g], s[g + 1]);
            if (mid && !measured(l, mid)) {
                char iv[80];
                snprintf(l->why, sizeof l->why, "%s at %.1f threads, %s: midpoint %u of %u and %u",
                         what, l->est, interval_text(l, iv, sizeof iv), mid, s[g], s[g + 1]);
                return mid;
            }
        }
        if (step >= 1) /* only the gap and its direct neighbours are near the knee */
            break;
    }
    snprintf(l->why, sizeof l->why,
             "%s at %.1f threads is bracketed by adjacent thread counts: nothing left to split",
             what, l->est);
    return 0;
}

unsigned ladder_next(struct ladder *l, struct usl_workspace *ws)
{
    unsigned t;
    if (l->phase == LADDER_DOUBLING) {
        if (l->n >= l->o.max_points) {
            snprintf(l->why, sizeof l->why, "measured --max-points %zu levels", l->o.max_points);
            l->phase = LADDER_DONE;
            return 0;
        }
        t = next_doubling(l);
        if (t)
            return t;
        snprintf(l->doubling_why, sizeof l->doubling_why, "%s", l->why);
        l->phase = LADDER_REFINING;
    }
    if (l->phase == LADDER_REFINING) {
        t = next_refining(l, ws);
        if (t)
            return t;
        l->phase = LADDER_DONE;
    }
    return 0;
}

double ladder_latency_bound_ms(const struct slo *slo)
{
    return slo && slo->target_s > 0 ? LADDER_LATENCY_FACTOR * slo->target_s * 1e3 : 0;
}
