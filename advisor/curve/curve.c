/* curve.c - which points count, grouping, levels, the fit and latency of a curve (curve.h). */
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

const char *curve_point_excluded_why(const struct point *p)
{
    static const char *const flags[] = {
        "interrupted",        "partial",       "stalled", "reconnects", "impossible_latency",
        "histogram_mismatch", "tables_changed"};
    if (p->incomplete)
        return "incomplete";
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (point_has_flag(p, flags[i]))
            return flags[i];
    return NULL;
}

const char *curve_excluded_meaning(const char *why)
{
    if (why && (strcmp(why, "impossible_latency") == 0 || strcmp(why, "histogram_mismatch") == 0))
        return "figures that contradict each other";
    if (why && strcmp(why, "tables_changed") == 0)
        return "run on a table that was no longer sizeup's";
    return "not a steady measurement";
}

int curve_point_counts(const struct point *p)
{
    return curve_point_excluded_why(p) == NULL;
}

const struct point *curve_find_point(const struct point_list *pts, const char *target,
                                     const char *workload, long threads)
{
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        if (p->threads == threads && curve_point_counts(p) && strcmp(p->target, target) == 0 &&
            strcmp(p->workload, workload) == 0)
            return p;
    }
    return NULL;
}

size_t curve_count_points(const struct point_list *pts, const char *target, const char *workload)
{
    size_t n = 0;
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        if (curve_point_counts(p) && strcmp(p->target, target) == 0 &&
            strcmp(p->workload, workload) == 0)
            n++;
    }
    return n;
}

void curve_groups_destroy(struct curve_groups *g)
{
    if (!g)
        return;
    for (size_t i = 0; g->g && i < g->n; i++)
        free(g->g[i].dup_of);
    free(g->g);
    free(g->buf);
    memset(g, 0, sizeof *g);
}

const struct curve_group *curve_groups_find(const struct curve_groups *g, const char *key,
                                            const char *workload)
{
    for (size_t i = 0; i < g->n; i++)
        if (strcmp(g->g[i].key, key) == 0 && strcmp(g->g[i].workload, workload) == 0)
            return &g->g[i];
    return NULL;
}

/* The pooled list of a level record (extra.interval.method "replicates"), or NULL. */
static json_t *pooled_list(const struct point *p)
{
    return point_level_pooled(p);
}

/* 1 when q is the replicate entry e of level record r (same x, started_at and tps). */
static int is_entry(const struct point *r, const struct point *q, json_t *e)
{
    json_t *at = json_object_get(e, "started_at"), *tps = json_object_get(e, "tps");
    if (q == r || q->threads != r->threads || q->nodes != r->nodes || !q->started_at ||
        !json_is_string(at) || !json_is_number(tps) || strcmp(q->started_at, json_string_value(at)))
        return 0;
    return fabs(q->tps - json_number_value(tps)) <= 1e-6 * fabs(q->tps) + 1e-9;
}

/* Move the group's replicates that a level record of the group pools from idx to pooled
 * (input order kept in both). 0, or -1 out of memory. */
static int split_pooled(struct curve_group *g, const struct point_list *pts)
{
    size_t *mark, kept = 0, np = 0;
    int any = 0;
    for (size_t a = 0; a < g->n && !any; a++)
        any = pooled_list(&pts->items[g->idx[a]]) != NULL;
    if (!any)
        return 0;
    mark = calloc(g->n, sizeof *mark);
    if (!mark)
        return -1;
    for (size_t a = 0; a < g->n; a++) {
        const struct point *r = &pts->items[g->idx[a]];
        json_t *l = pooled_list(r), *e;
        size_t k;
        if (!l)
            continue;
        json_array_foreach(l, k, e)
        {
            for (size_t b = 0; b < g->n; b++)
                if (!mark[b] && b != a && !pooled_list(&pts->items[g->idx[b]]) &&
                    is_entry(r, &pts->items[g->idx[b]], e)) {
                    mark[b] = 1;
                    break;
                }
        }
    }
    {
        size_t *tmp = malloc(g->n * sizeof *tmp);
        if (!tmp) {
            free(mark);
            return -1;
        }
        for (size_t a = 0; a < g->n; a++)
            if (!mark[a])
                tmp[kept++] = g->idx[a];
        for (size_t a = 0; a < g->n; a++)
            if (mark[a])
                tmp[kept + np++] = g->idx[a];
        memcpy(g->idx, tmp, g->n * sizeof *tmp);
        free(tmp);
    }
    free(mark);
    g->pooled = g->idx + kept;
    g->n_pooled = np;
    g->n = kept;
    return 0;
}

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

int curve_same_measurement(const struct point *a, const struct point *b)
{
    if (!a->target || !b->target || strcmp(a->target, b->target) != 0)
        return 0;
    if (a->source_file && b->source_file && strcmp(a->source_file, b->source_file) == 0 &&
        a->source_line != b->source_line)
        return 0; /* two rows of one table: two measurements, however rounded */
    if ((pooled_list(a) != NULL) != (pooled_list(b) != NULL))
        return 0; /* a level record of one replicate and that replicate: the record counts */
    if (a->threads != b->threads || a->nodes != b->nodes || a->transactions != b->transactions ||
        !same_double(a->tps, b->tps) || !same_double(a->qps, b->qps) ||
        !same_double(a->duration_s, b->duration_s) ||
        !same_double(a->latency_ms.avg, b->latency_ms.avg))
        return 0;
    if (!a->started_at || !b->started_at)
        return !a->started_at && !b->started_at;
    return strcmp(a->started_at, b->started_at) == 0;
}

/* Move the group's counting points that repeat an earlier one, or a replicate a level record
 * pools (curve_same_measurement), from idx's kept part to dup, their originals in dup_of
 * (storage: dup_of, 2 n). */
static void split_dups(struct curve_group *g, const struct point_list *pts, size_t *dup_of)
{
    size_t kept = 0, nd = 0;
    size_t *tmp = g->dup_of = dup_of;
    for (size_t a = 0; a < g->n; a++) {
        const struct point *p = &pts->items[g->idx[a]];
        size_t orig = (size_t)-1;
        for (size_t b = 0; b < kept && orig == (size_t)-1; b++)
            if (curve_same_measurement(&pts->items[g->idx[b]], p))
                orig = g->idx[b];
        /* a copy of a replicate that a level record pools: the record counts it already */
        for (size_t b = 0; b < g->n_pooled && orig == (size_t)-1; b++)
            if (curve_same_measurement(&pts->items[g->pooled[b]], p))
                orig = g->pooled[b];
        if (orig == (size_t)-1) {
            g->idx[kept++] = g->idx[a];
        } else {
            tmp[g->n + nd] = g->idx[a]; /* the dups, parked after dup_of's part */
            tmp[nd++] = orig;
        }
    }
    /* the dups after the kept points (before pooled: idx + n + ... is pooled) */
    for (size_t i = 0; i < nd; i++)
        g->idx[kept + i] = tmp[g->n + i];
    g->dup = g->idx + kept;
    g->n_dup = nd;
    g->n = kept;
}

int curve_groups_build(struct curve_groups *out, const struct point_list *pts,
                       const char *const *keys)
{
    size_t *gi = NULL, *fill = NULL, *scratch = NULL, used = 0;
    memset(out, 0, sizeof *out);
    if (pts->n == 0)
        return CURVE_OK;
    gi = malloc(pts->n * sizeof *gi);
    out->g = calloc(pts->n, sizeof *out->g);
    out->buf = malloc(pts->n * sizeof *out->buf);
    fill = calloc(2 * pts->n, sizeof *fill);
    if (!gi || !out->g || !out->buf || !fill)
        goto nomem;
    /* pass 1: the group of every point, and the counts */
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        const char *key = keys ? keys[i] : p->target;
        size_t k;
        gi[i] = (size_t)-1;
        if (!key)
            continue;
        for (k = 0; k < out->n; k++)
            if (strcmp(out->g[k].key, key) == 0 && strcmp(out->g[k].workload, p->workload) == 0)
                break;
        if (k == out->n) {
            out->g[k].key = key;
            out->g[k].workload = p->workload;
            out->n++;
        }
        gi[i] = k;
        if (curve_point_counts(p))
            out->g[k].n++;
        else
            out->g[k].n_excluded++;
    }
    /* pass 2: carve the storage and fill the indices in input order */
    for (size_t k = 0; k < out->n; k++) {
        out->g[k].idx = out->buf + used;
        used += out->g[k].n;
        out->g[k].excluded = out->buf + used;
        used += out->g[k].n_excluded;
    }
    for (size_t i = 0; i < pts->n; i++) {
        size_t k = gi[i];
        if (k == (size_t)-1)
            continue;
        if (curve_point_counts(&pts->items[i]))
            out->g[k].idx[fill[2 * k]++] = i;
        else
            out->g[k].excluded[fill[2 * k + 1]++] = i;
    }
    free(gi);
    free(fill);
    for (size_t k = 0; k < out->n; k++)
        if (split_pooled(&out->g[k], pts) != 0)
            goto nomem_groups;
    for (size_t k = 0; k < out->n; k++)
        if (out->g[k].n > 1) {
            out->g[k].dup_of = NULL;
            if (!(scratch = malloc(2 * out->g[k].n * sizeof *scratch)))
                goto nomem_groups;
            split_dups(&out->g[k], pts, scratch);
            if (out->g[k].n_dup == 0) {
                free(scratch);
                out->g[k].dup_of = NULL;
            }
            scratch = NULL;
        }
    return CURVE_OK;
nomem_groups:
    curve_groups_destroy(out);
    return CURVE_ENOMEM;
nomem:
    free(gi);
    free(fill);
    curve_groups_destroy(out);
    return CURVE_ENOMEM;
}

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
    int rc;
    if (!b)
        return CURVE_ENOMEM;
    for (size_t i = 0; i < m; i++) {
        b[i] = lv[lo + i].n;
        b[m + i] = lv[lo + i].x;
        b[2 * m + i] = lv[lo + i].half95;
    }
    rc = shape_classify(b, b + m, b + 2 * m, m, out) == 0 ? CURVE_OK : CURVE_EINVAL;
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
