/* curve.c - a curve's levels, shape, fit and peak (curve.h; which points count and grouping:
 * curve_groups.c). */
#include "curve.h"
#include "errtext.h"

#include "noise.h"

/* batch-means degrees of freedom of a calibrated probe point (probes/calib.h: 20 batches) */
#define CALIB_DEFAULT_DF 19.0

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct curve_spec curve_spec_default(void)
{
    struct curve_spec s;
    s.x = CURVE_X_THREADS;
    s.qps = 0;
    s.lat_pct = 0;
    s.model = FIT_AUTO;
    s.source = CURVE_SOURCE_MEASURED;
    s.think_s = 0;
    s.levels_only = 0;
    return s;
}

const char *curve_x_name(const struct curve *c)
{
    return c->by_nodes ? "nodes" : "threads";
}

const char *curve_basis_name(enum curve_basis b)
{
    switch (b) {
    case CURVE_BASIS_MEASURED:
        return "measured";
    case CURVE_BASIS_INTERPOLATED:
        return "interpolated";
    case CURVE_BASIS_EXTRAPOLATED:
        return "extrapolated";
    case CURVE_BASIS_LINEAR:
        return "linear scale-out";
    case CURVE_BASIS_PREDICTED:
        return "predicted";
    case CURVE_BASIS_NONE:
        break;
    }
    return "-";
}

void curve_destroy(struct curve *c)
{
    if (!c)
        return;
    free(c->obs_n);
    free(c->obs_x);
    free(c->lv);
    free(c->fr);
    latency_pctl_free(c->lat);
    memset(c, 0, sizeof *c);
}

static int cmp_obs(const void *a, const void *b)
{
    const struct curve_obs *p = a, *q = b;
    return (p->n > q->n) - (p->n < q->n);
}

/* An observation as a replicate of models/noise.h: its ci95 as a standard error. */
static struct noise_obs to_noise(const struct curve_obs *v)
{
    struct noise_obs o;
    double df = v->ci95_df > 0 ? v->ci95_df : 0;
    o.n = v->n;
    o.x = v->x;
    o.se = NAN;
    o.se_df = df;
    if (isfinite(v->ci95_x) && v->ci95_x >= 0)
        o.se = v->ci95_x / (df > 0 && df < NOISE_DF_LARGE ? gsl_cdf_tdist_Pinv(0.975, df)
                                                          : gsl_cdf_ugaussian_Pinv(0.975));
    return o;
}

/* Pool the sorted observations into levels (curve.h, "Levels"). */
static int pool_levels(struct curve *c, const struct curve_obs *v, size_t m)
{
    struct noise_obs *no = malloc(2 * m * sizeof *no), *loose = no + m;
    struct noise_pool pool;
    size_t nl = 0;
    if (!no)
        return CURVE_ENOMEM;
    for (size_t i = 0; i < m; i++) {
        no[i] = to_noise(&v[i]);
        if (!v[i].pooled)
            loose[nl++] = no[i];
    }
    if (noise_pool(nl ? loose : NULL, nl, &pool) != NOISE_OK) {
        free(no);
        return CURVE_EINVAL;
    }
    for (size_t i = 0; i < m;) {
        struct curve_level *l = &c->lv[c->m++];
        struct noise_level lv;
        size_t j = i, k = 0, n_pooled = 0;
        double lat = 0, lat2 = 0, xrel;
        while (j < m && v[j].n == v[i].n) {
            if (isfinite(v[j].lat_s) && v[j].lat_s > 0) {
                lat += v[j].lat_s;
                lat2 += v[j].lat_s * v[j].lat_s;
                k++;
            }
            n_pooled += v[j].pooled != 0;
            j++;
        }
        /* a level made only of level records is taken as recorded: never pooled again */
        noise_level(n_pooled == j - i ? NULL : &pool, no + i, j - i, &lv);
        l->n = v[i].n;
        l->reps = j - i;
        l->x = lv.mean;
        l->lat_s = k ? lat / (double)k : NAN;
        l->half95 = lv.method == NOISE_NONE ? NAN : lv.half95;
        l->between_runs = lv.method == NOISE_POOLED || lv.method == NOISE_FLOOR ||
                          (lv.method != NOISE_NONE && n_pooled == j - i);
        /* the latency's relative noise (top of curve.h, "Latency's noise") */
        xrel = l->x > 0 ? curve_level_half(l) / l->x : SHAPE_NOISE_REL;
        l->lat_rel95 = NAN;
        if (k >= 2) {
            double mean = lat / (double)k;
            double var = fmax(0, (lat2 - k * mean * mean) / (double)(k - 1));
            l->lat_rel95 =
                fmax(xrel, gsl_cdf_tdist_Pinv(0.975, (double)(k - 1)) * sqrt(var / k) / mean);
        } else if (k == 1) {
            l->lat_rel95 = xrel;
        }
        if (k)
            c->m_lat++;
        i = j;
    }
    free(no);
    return CURVE_OK;
}

/* Classify levels lo..hi (models/shape.h). */
static int classify(const struct curve_level *lv, size_t lo, size_t hi, struct shape *out)
{
    size_t m = hi - lo + 1;
    double *b = malloc(3 * m * sizeof *b);
    int *between = malloc(m * sizeof *between), rc;
    if (!b || !between) {
        free(b);
        free(between);
        return CURVE_ENOMEM;
    }
    for (size_t i = 0; i < m; i++) {
        b[i] = lv[lo + i].n;
        b[m + i] = lv[lo + i].x;
        b[2 * m + i] = lv[lo + i].half95;
        between[i] = lv[lo + i].between_runs;
    }
    rc = shape_classify(b, b + m, b + 2 * m, between, m, out) == 0 ? CURVE_OK : CURVE_EINVAL;
    free(between);
    free(b);
    return rc;
}

/* The peak the curve reports (curve.h). */
static void find_peak(struct curve *c)
{
    struct curve_peak *p = &c->peak;
    const struct curve_level *b = &c->lv[c->shape.best];
    enum shape_class k = c->shape.cls;
    const struct model_derived *d = &c->derived;
    double lo_n, hi_n;
    memset(p, 0, sizeof *p);
    p->n.value = p->n.lo = p->n.hi = p->x.value = p->x.lo = p->x.hi = NAN;
    p->model_n = c->fitted && d->has_peak ? d->n_peak.value : NAN;
    if (k == SHAPE_RISING || k == SHAPE_SINGLE)
        return;
    lo_n = c->shape.best > 0 ? c->lv[c->shape.best - 1].n : 0;
    hi_n = c->shape.best + 1 < c->m ? c->lv[c->shape.best + 1].n : INFINITY;
    if (k == SHAPE_PLATEAU && hi_n > c->lv[c->m - 1].n)
        hi_n = c->lv[c->m - 1].n; /* a plateau's peak, if any, lies inside the data */
    if (c->use_model && d->has_peak && d->n_peak.value >= lo_n && d->n_peak.value <= hi_n) {
        p->has = 1;
        p->from_model = 1;
        p->n = d->n_peak;
        p->x = d->x_peak;
        p->below_range = d->n_peak.value < c->lv[0].n;
        return;
    }
    if (k == SHAPE_PLATEAU)
        return; /* no fall seen, and no model peak where the points put it */
    p->has = 1;
    p->below_range = c->shape.best == 0;
    p->n.value = p->n.lo = p->n.hi = b->n;
    p->x.value = b->x;
    p->x.lo = fmax(0, b->x - curve_level_half(b)); /* a throughput is never below 0 */
    p->x.hi = b->x + curve_level_half(b);
}

/* Classify the levels, choose the levels to fit, fit, check, and find the peak (curve.h). */
static int shape_and_fit(struct curve *c, struct usl_workspace *ws, char *err, size_t cap)
{
    struct shape sub;
    struct fit_options fo;
    size_t lo, hi, k = 0;
    double *fn, *fx, *ln, *lx, *lh;
    int rc;

    if ((rc = classify(c->lv, 0, c->m - 1, &c->shape)) != CURVE_OK) {
        snprintf(err, cap, rc == CURVE_ENOMEM ? "out of memory" : "levels not classifiable");
        return rc;
    }
    c->x_max = c->lv[c->shape.best].x;
    lo = c->shape.superlinear_start ? 1 : 0;
    hi = c->shape.cls == SHAPE_COLLAPSE ? c->shape.collapse_at : c->m - 1;
    c->fit_lo = lo;
    c->fit_hi = hi;
    if (hi < lo + 1) {
        snprintf(c->no_fit, sizeof c->no_fit, "%s level%s to fit %s", hi < lo ? "no" : "one",
                 hi < lo ? "s" : "",
                 c->shape.cls == SHAPE_COLLAPSE ? "before the collapse" : "after the first");
        snprintf(c->no_model, sizeof c->no_model, "%s", c->no_fit);
        find_peak(c);
        return CURVE_OK;
    }
    if ((rc = classify(c->lv, lo, hi, &sub)) != CURVE_OK) {
        snprintf(err, cap, "out of memory");
        return rc;
    }
    fn = malloc((2 * c->n_obs + 3 * c->m) * sizeof *fn);
    if (!fn) {
        snprintf(err, cap, "out of memory");
        return CURVE_ENOMEM;
    }
    fx = fn + c->n_obs;
    ln = fx + c->n_obs;
    lx = ln + c->m;
    lh = lx + c->m;
    for (size_t i = 0; i < c->n_obs; i++)
        if (c->obs_n[i] >= c->lv[lo].n && c->obs_n[i] <= c->lv[hi].n) {
            fn[k] = c->obs_n[i];
            fx[k++] = c->obs_x[i];
        }
    fo.model = c->spec.model;
    fo.peak_seen = sub.cls == SHAPE_PEAKED || sub.cls == SHAPE_FALLING;
    rc = fit_curve_opt(fn, fx, k, &fo, ws, c->fr, c->no_fit, sizeof c->no_fit);
    if (rc == MODEL_ENOMEM) {
        free(fn);
        snprintf(err, cap, "out of memory");
        return CURVE_ENOMEM;
    }
    if (rc == MODEL_OK) {
        c->fit = c->fr->fits[c->fr->chosen];
        if (derived_compute(&c->fit, &c->derived) == MODEL_OK) {
            c->fitted = 1;
            c->no_fit[0] = '\0';
        } else {
            snprintf(c->no_fit, sizeof c->no_fit, "the fitted model has non-finite parameters");
        }
    }
    if (c->fitted) {
        size_t lm = hi - lo + 1;
        for (size_t i = 0; i < lm; i++) {
            ln[i] = c->lv[lo + i].n;
            lx[i] = c->lv[lo + i].x;
            lh[i] = c->lv[lo + i].half95;
        }
        fit_check_levels(&c->fit, ln, lx, lh, lm, &c->check);
        for (size_t i = 0; i < k; i++) {
            double r = fabs(fx[i] - model_eval(&c->fit, fn[i])) / fx[i];
            if (r > c->point_rel) {
                c->point_rel = r;
                c->point_rel_n = fn[i];
            }
        }
        c->check.worst += lo;
        c->check.run_from += lo;
        c->use_model = c->check.describes;
        if (!c->check.describes)
            snprintf(c->no_model, sizeof c->no_model, "%s",
                     c->check.pattern ? "its residuals follow a pattern"
                                      : "a residual lies beyond its noise bound");
        else if (fo.peak_seen && !c->derived.has_peak && !c->derived.falling) {
            c->use_model = 0;
            snprintf(c->no_model, sizeof c->no_model,
                     "the points fall after their best level and the model has no peak");
        }
        if (c->spec.levels_only && c->use_model) {
            c->use_model = 0;
            snprintf(c->no_model, sizeof c->no_model,
                     "its points come from a model of their own: they are used as they are");
        }
    } else {
        snprintf(c->no_model, sizeof c->no_model, "no model could be fitted: %.150s", c->no_fit);
    }
    free(fn);
    find_peak(c);
    return CURVE_OK;
}

int curve_init(struct curve *c, const struct curve_obs *obs, size_t m,
               const struct curve_spec *spec, struct usl_workspace *ws, char *err, size_t cap)
{
    struct curve_obs *v = NULL;
    int rc = CURVE_ENOMEM;

    memset(c, 0, sizeof *c);
    c->spec = *spec;
    c->by_nodes = spec->x == CURVE_X_NODES;
    if (spec->x == CURVE_X_AUTO || spec->lat_pct == CURVE_LAT_AUTO) {
        snprintf(err, cap, "curve_init: the x axis and the statistic must be resolved");
        return CURVE_EINVAL;
    }
    if (m < 2) {
        snprintf(err, cap, "%zu point%s: a curve needs at least 2 points", m, m == 1 ? "" : "s");
        return CURVE_EINVAL;
    }
    for (size_t i = 0; i < m; i++)
        if (!(obs[i].n > 0) || !isfinite(obs[i].n) || !(obs[i].x > 0) || !isfinite(obs[i].x)) {
            snprintf(err, cap, "point %zu: x = %g, throughput %g: both must be finite and > 0",
                     i + 1, obs[i].n, obs[i].x);
            return CURVE_EINVAL;
        }
    v = malloc(m * sizeof *v);
    c->obs_n = malloc(m * sizeof *c->obs_n);
    c->obs_x = malloc(m * sizeof *c->obs_x);
    c->lv = malloc(m * sizeof *c->lv);
    c->fr = malloc(sizeof *c->fr);
    if (!v || !c->obs_n || !c->obs_x || !c->lv || !c->fr) {
        snprintf(err, cap, "out of memory");
        goto out;
    }
    memcpy(v, obs, m * sizeof *v);
    if (spec->lat_pct == CURVE_LAT_NONE)
        for (size_t i = 0; i < m; i++)
            v[i].lat_s = NAN;
    qsort(v, m, sizeof *v, cmp_obs);
    c->n_obs = m;
    for (size_t i = 0; i < m; i++) {
        c->obs_n[i] = v[i].n;
        c->obs_x[i] = v[i].x;
    }
    rc = pool_levels(c, v, m);
    if (rc != CURVE_OK) {
        snprintf(err, cap, rc == CURVE_ENOMEM ? "out of memory" : "bad level interval");
        goto out;
    }
    rc = shape_and_fit(c, ws, err, cap);
    if (rc != CURVE_OK)
        goto out;
    if (c->m_lat) {
        double *ln = malloc(2 * c->m_lat * sizeof *ln);
        size_t k = 0;
        if (!ln) {
            snprintf(err, cap, "out of memory");
            rc = CURVE_ENOMEM;
            goto out;
        }
        for (size_t i = 0; i < c->m; i++)
            if (isfinite(c->lv[i].lat_s)) {
                ln[k] = c->lv[i].n;
                ln[c->m_lat + k++] = c->lv[i].lat_s;
            }
        c->lat = latency_pctl_new(ln, ln + c->m_lat, c->m_lat, err, cap);
        free(ln);
        if (!c->lat) {
            rc = CURVE_EINVAL;
            goto out;
        }
    }
    rc = CURVE_OK;
out:
    free(v);
    if (rc != CURVE_OK)
        curve_destroy(c);
    return rc;
}

/* Degrees of freedom of a point's ci95_tps: a level record's (extra.interval.df; *pooled = 1),
 * a calibrated probe point's batch means (extra.calibration.batches - 1, else 19), else 0. */
static double interval_df(const struct point *p, int *pooled)
{
    json_t *iv = p->extra ? json_object_get(p->extra, "interval") : NULL;
    json_t *cal = p->extra ? json_object_get(p->extra, "calibration") : NULL;
    json_t *v;
    *pooled = 0;
    if (point_is_level_record(p)) {
        *pooled = 1;
        v = json_object_get(iv, "df");
        return json_is_number(v) && json_number_value(v) > 0 ? json_number_value(v) : 0;
    }
    if (json_is_object(cal)) {
        v = json_object_get(cal, "batches");
        if (json_is_integer(v) && json_integer_value(v) >= 2)
            return (double)(json_integer_value(v) - 1);
        return CALIB_DEFAULT_DF;
    }
    return 0;
}

/* The statistic every point of the curve carries: p95, else p99, else none. */
static double auto_pct(const struct point_list *pts, const size_t *idx, size_t m)
{
    static const double cand[2] = {95, 99};
    for (int k = 0; k < 2; k++) {
        size_t have = 0;
        for (size_t i = 0; i < m; i++)
            if (!isnan(point_latency_pct(&pts->items[idx[i]], cand[k], NULL)))
                have++;
        if (have == m)
            return cand[k];
    }
    return CURVE_LAT_NONE;
}

/* Resolve s (CURVE_X_AUTO, CURVE_LAT_AUTO) for points idx[0..m-1] and turn them into
 * observations (obs: m entries). CURVE_OK, CURVE_EINVAL (err names the point), CURVE_ENOMEM. */
static int points_obs(const struct point_list *pts, const size_t *idx, size_t m,
                      struct curve_spec *s, struct curve_obs *obs, char *err, size_t cap)
{
    if (s->x == CURVE_X_AUTO) {
        size_t with_nodes = 0;
        double *nn = malloc((m + 1) * sizeof *nn);
        if (!nn) {
            snprintf(err, cap, "out of memory");
            return CURVE_ENOMEM;
        }
        for (size_t i = 0; i < m; i++)
            if (pts->items[idx[i]].nodes > 0)
                nn[with_nodes++] = (double)pts->items[idx[i]].nodes;
        s->x =
            with_nodes == m && model_count_distinct(nn, m) >= 2 ? CURVE_X_NODES : CURVE_X_THREADS;
        free(nn);
    }
    if (s->lat_pct == CURVE_LAT_AUTO)
        s->lat_pct = auto_pct(pts, idx, m);
    for (size_t i = 0; i < m; i++) {
        const struct point *p = &pts->items[idx[i]];
        int64_t xv = s->x == CURVE_X_NODES ? p->nodes : p->threads;
        double yv = s->qps ? p->qps : p->tps;
        /* with qps the mean latency is per query: Little's law on the curve, not the points'
         * per-transaction mean */
        enum point_pct_source src = POINT_PCT_NONE;
        double lat_ms = s->lat_pct > 0               ? point_latency_pct(p, s->lat_pct, &src)
                        : s->lat_pct == 0 && !s->qps ? p->latency_ms.avg
                                                     : NAN;
        if (xv <= 0) {
            errtext_set(err, cap, p->source_file ? p->source_file : "-", p->source_line, 0,
                        "%s / %s: point has no %s count", p->target, p->workload,
                        s->x == CURVE_X_NODES ? "nodes" : "threads");
            return CURVE_EINVAL;
        }
        if (isnan(yv) || !(yv > 0)) {
            errtext_set(err, cap, p->source_file ? p->source_file : "-", p->source_line, 0,
                        "%s / %s: point at %s %lld has no positive %s", p->target, p->workload,
                        s->x == CURVE_X_NODES ? "nodes" : "threads", (long long)xv,
                        s->qps ? "qps" : "tps");
            return CURVE_EINVAL;
        }
        obs[i].n = (double)xv;
        obs[i].x = yv;
        obs[i].ci95_x = p->ci95_tps;
        if (s->qps && isfinite(p->ci95_tps) && p->tps > 0)
            obs[i].ci95_x = p->ci95_tps * p->qps / p->tps;
        obs[i].lat_s = isfinite(lat_ms) ? lat_ms * 1e-3 : NAN;
        obs[i].lat_hist = src == POINT_PCT_HIST_EXACT || src == POINT_PCT_HISTOGRAM;
        obs[i].ci95_df = interval_df(p, &obs[i].pooled);
    }
    return CURVE_OK;
}

int curve_init_points(struct curve *c, const struct point_list *pts, const size_t *idx, size_t m,
                      const struct curve_spec *spec, struct usl_workspace *ws, char *err,
                      size_t cap)
{
    struct curve_spec s = *spec;
    struct curve_obs *obs;
    int rc;

    memset(c, 0, sizeof *c);
    obs = malloc((m + 1) * sizeof *obs);
    if (!obs) {
        snprintf(err, cap, "out of memory");
        return CURVE_ENOMEM;
    }
    rc = points_obs(pts, idx, m, &s, obs, err, cap);
    if (rc == CURVE_OK)
        rc = curve_init(c, obs, m, &s, ws, err, cap);
    if (rc == CURVE_OK)
        for (size_t i = 0; i < m; i++)
            c->n_lat_hist += obs[i].lat_hist;
    free(obs);
    return rc;
}

int curve_levels_points(const struct point_list *pts, const size_t *idx, size_t m,
                        const struct curve_spec *spec, struct curve_level *out, size_t *n_out,
                        char *err, size_t cap)
{
    struct curve_spec s = *spec;
    struct curve_obs *obs;
    struct curve tmp;
    int rc;

    *n_out = 0;
    if (m < 1) {
        snprintf(err, cap, "no points: a level needs at least one");
        return CURVE_EINVAL;
    }
    obs = malloc(m * sizeof *obs);
    if (!obs) {
        snprintf(err, cap, "out of memory");
        return CURVE_ENOMEM;
    }
    rc = points_obs(pts, idx, m, &s, obs, err, cap);
    if (rc == CURVE_OK) {
        if (s.lat_pct == CURVE_LAT_NONE)
            for (size_t i = 0; i < m; i++)
                obs[i].lat_s = NAN;
        qsort(obs, m, sizeof *obs, cmp_obs);
        memset(&tmp, 0, sizeof tmp);
        tmp.lv = out;
        rc = pool_levels(&tmp, obs, m);
        if (rc != CURVE_OK)
            snprintf(err, cap, rc == CURVE_ENOMEM ? "out of memory" : "bad level interval");
        else
            *n_out = tmp.m;
    }
    free(obs);
    return rc;
}

const struct curve_level *curve_level_at(const struct curve *c, double n)
{
    for (size_t i = 0; i < c->m; i++)
        if (fabs(c->lv[i].n - n) <= 1e-9 * c->lv[i].n)
            return &c->lv[i];
    return NULL;
}

double curve_level_half(const struct curve_level *l)
{
    return isfinite(l->half95) && l->half95 >= 0 ? l->half95 : SHAPE_NOISE_REL * l->x;
}
