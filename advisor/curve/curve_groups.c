/* curve_groups.c - which points count and how they group into curves: exclusion, duplicates,
 * the replicates a level record pools (curve.h, its first section). */
#include "curve.h"

#include <math.h>
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
        any = point_level_pooled(&pts->items[g->idx[a]]) != NULL;
    if (!any)
        return 0;
    mark = calloc(g->n, sizeof *mark);
    if (!mark)
        return -1;
    for (size_t a = 0; a < g->n; a++) {
        const struct point *r = &pts->items[g->idx[a]];
        json_t *l = point_level_pooled(r), *e;
        size_t k;
        if (!l)
            continue;
        json_array_foreach(l, k, e)
        {
            for (size_t b = 0; b < g->n; b++)
                if (!mark[b] && b != a && !point_level_pooled(&pts->items[g->idx[b]]) &&
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
    if ((point_level_pooled(a) != NULL) != (point_level_pooled(b) != NULL))
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
