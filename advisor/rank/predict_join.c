/* predict_join.c - the measured side of a prediction (predict.h): points joined to catalog
 * configurations, their curves, and the groups of measured sizes of one family. It calls
 * curve.h and hwscale.h, never back into predict.c. */
#include "curve.h"
#include "predict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The configuration id of a point (as rankset.c joins). */
static const char *point_config(const struct point *p, const struct predict_options *o)
{
    if (p->config)
        return p->config;
    for (size_t i = 0; i < o->n_maps; i++)
        if (strcmp(o->maps[i].target, p->target) == 0)
            return o->maps[i].config;
    return p->target;
}

/* Ascending doubles, for qsort. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Index of statistic pct among a group's (0 = mean), or -1. */
static int stat_index(const struct predict_group *G, double pct)
{
    for (size_t k = 0; k < G->n_lat; k++)
        if (G->lat_pct[k] == pct)
            return (int)k;
    return -1;
}

/* A member's levels from its points (cg: its curve group), pooled by curve.h's rule: the
 * throughput and its interval once, the latency of each of the group's statistics. 0, -1 out of
 * memory, -2 a point curve.h refuses (err says which). */
static int member_curve(struct predict_member *M, const struct predict_group *G,
                        const struct point_list *pts, const struct curve_group *cg, char *err,
                        size_t cap)
{
    struct curve_spec spec = curve_spec_default();
    struct curve_level *lv = malloc((cg->n ? cg->n : 1) * sizeof *lv);
    size_t n = 0;
    int rc = 0;
    if (!lv)
        return -1;
    spec.x = CURVE_X_THREADS;
    for (size_t k = 0; k < G->n_lat && rc == 0; k++) {
        size_t nk = 0;
        int crc;
        spec.lat_pct = G->lat_pct[k]; /* 0 = the mean (G->lat_pct[0]) */
        crc = curve_levels_points(pts, cg->idx, cg->n, &spec, lv, &nk, err, cap);
        if (crc != CURVE_OK) {
            rc = crc == CURVE_ENOMEM ? -1 : -2;
            break;
        }
        if (k == 0) {
            n = nk;
            M->m = n;
            M->threads = malloc((n ? n : 1) * sizeof *M->threads);
            M->tps = malloc((n ? n : 1) * sizeof *M->tps);
            M->rel_ci = malloc((n ? n : 1) * sizeof *M->rel_ci);
            if (!M->threads || !M->tps || !M->rel_ci) {
                rc = -1;
                break;
            }
            for (size_t l = 0; l < n; l++) {
                M->threads[l] = lv[l].n;
                M->tps[l] = lv[l].x;
                M->rel_ci[l] = lv[l].half95 / lv[l].x; /* NAN when unknown */
                M->n_points += lv[l].reps;
            }
            /* the buffer pool the curve used: what was resident of the data (the smaller of
             * the data and the pool), the largest over its points */
            M->pool_mib = NAN;
            for (size_t i = 0; i < cg->n; i++) {
                const struct point *p = &pts->items[cg->idx[i]];
                double d, b, used;
                if (!point_has_server(p))
                    continue;
                d = p->server.v[PSRV_DATA_MIB];
                b = p->server.v[PSRV_BUFFER_POOL_MIB];
                /* both are needed: a data size alone says nothing of the pool it ran with */
                used = isfinite(d) && isfinite(b) ? fmin(d, b) : NAN;
                if (isfinite(used) && !(M->pool_mib >= used))
                    M->pool_mib = used;
            }
        }
        if (!(M->lat_ratio[k] = malloc((n ? n : 1) * sizeof *M->lat_ratio[k]))) {
            rc = -1;
            break;
        }
        /* the same points at the same levels: nk == n */
        for (size_t l = 0; l < n; l++)
            M->lat_ratio[k][l] = isfinite(lv[l].lat_s) ? lv[l].lat_s / (lv[l].n / lv[l].x) : NAN;
    }
    free(lv);
    return rc;
}

static int cmp_member(const void *a, const void *b)
{
    const struct predict_member *x = a, *y = b;
    if (x->instance->vcpu != y->instance->vcpu)
        return x->instance->vcpu < y->instance->vcpu ? -1 : 1;
    return strcmp(x->config, y->config);
}

/* The group of (family, workload, nodes), created when absent; NULL when out of memory. */
static struct predict_group *group_of(struct predict_set *s, const char *family,
                                      const char *workload, int nodes, long *index)
{
    struct predict_group *g;
    for (size_t i = 0; i < s->n_groups; i++)
        if (strcmp(s->groups[i].family, family) == 0 &&
            strcmp(s->groups[i].workload, workload) == 0 && s->groups[i].nodes == nodes) {
            *index = (long)i;
            return &s->groups[i];
        }
    g = realloc(s->groups, (s->n_groups + 1) * sizeof *g);
    if (!g)
        return NULL;
    s->groups = g;
    g = &s->groups[s->n_groups];
    memset(g, 0, sizeof *g);
    snprintf(g->family, sizeof g->family, "%s", family);
    snprintf(g->workload, sizeof g->workload, "%s", workload);
    g->nodes = nodes;
    g->target_stat = -1;
    *index = (long)s->n_groups++;
    return g;
}

/* Statistics, sizes, levels and leave-one-out of a group whose members are set. */
static int group_finish(struct predict_set *s, struct predict_group *G,
                        const struct point_list *pts, const struct curve_groups *groups, FILE *errf)
{
    char err[320];
    size_t n_lv = 0;
    /* statistics: the mean, then every percentile some counting point of the group carries */
    G->n_lat = 1;
    G->lat_pct[0] = 0;
    for (size_t j = 0; j < G->n_members; j++) {
        const struct curve_group *cg = curve_groups_find(groups, G->members[j].config, G->workload);
        for (size_t a = 0; cg && a < cg->n; a++) {
            const struct point *p = &pts->items[cg->idx[a]];
            for (size_t k = 0; k < p->latency_ms.n_pct && G->n_lat < HWSCALE_MAX_LAT; k++)
                if (stat_index(G, p->latency_ms.pct[k]) < 0)
                    G->lat_pct[G->n_lat++] = p->latency_ms.pct[k];
        }
    }
    for (size_t j = 0; j < G->n_members; j++) {
        const struct curve_group *cg = curve_groups_find(groups, G->members[j].config, G->workload);
        int mrc = cg ? member_curve(&G->members[j], G, pts, cg, err, sizeof err) : -1;
        if (mrc == -2 && errf)
            fprintf(errf, "sizeup: %s\n", err);
        if (mrc != 0)
            return mrc;
    }
    G->sizes = calloc(G->n_members, sizeof *G->sizes);
    G->size_member = calloc(G->n_members, sizeof *G->size_member);
    G->loo = calloc(G->n_members, sizeof *G->loo);
    for (size_t j = 0; j < G->n_members; j++)
        n_lv += G->members[j].m;
    G->levels = malloc((n_lv ? n_lv : 1) * sizeof *G->levels);
    if (!G->sizes || !G->size_member || !G->loo || !G->levels)
        return -1;
    n_lv = 0;
    for (size_t j = 0; j < G->n_members; j++) {
        struct predict_member *M = &G->members[j];
        struct hwscale_size *z;
        for (size_t l = 0; l < M->m; l++)
            G->levels[n_lv++] = M->threads[l];
        if (G->n_sizes > 0 && G->sizes[G->n_sizes - 1].vcpu == (double)M->instance->vcpu) {
            if (errf)
                fprintf(errf,
                        "sizeup: note: family %s: %s has the same vCPU count (%d) as %s, which "
                        "is used for it\n",
                        G->family, M->config, M->instance->vcpu,
                        G->members[G->size_member[G->n_sizes - 1]].config);
            continue;
        }
        M->used = 1;
        z = &G->sizes[G->n_sizes];
        G->size_member[G->n_sizes++] = j;
        z->vcpu = M->instance->vcpu;
        z->m = M->m;
        z->threads = M->threads;
        z->tps = M->tps;
        z->rel_ci = M->rel_ci;
        z->n_lat = G->n_lat;
        for (size_t k = 0; k < G->n_lat; k++)
            z->lat_ratio[k] = M->lat_ratio[k];
    }
    qsort(G->levels, n_lv, sizeof *G->levels, cmp_double);
    G->n_levels = 0;
    for (size_t i = 0; i < n_lv; i++)
        if (G->n_levels == 0 || G->levels[i] != G->levels[G->n_levels - 1])
            G->levels[G->n_levels++] = G->levels[i];
    G->target_stat = stat_index(G, s->opt.slo.pct);
    if (hwscale_validate(G->sizes, G->n_sizes, G->target_stat, s->opt.slo.target_s, G->loo, &G->val,
                         err, sizeof err) != 0) {
        if (errf)
            fprintf(errf, "sizeup: family %s (%s): %s\n", G->family, G->workload, err);
        return -2;
    }
    G->rel95 = G->n_sizes >= 2 ? G->val.rel95 : HWSCALE_ONE_SIZE_REL95;
    return 0;
}

/* The workload names to predict: opt's, or every workload of the measured curves (in the order
 * of their first point). */
static size_t workloads(const struct predict_set *s, const struct curve_groups *groups,
                        const char **out, size_t cap)
{
    size_t n = 0;
    if (s->opt.workload) {
        out[0] = s->opt.workload;
        return 1;
    }
    for (size_t i = 0; i < groups->n && n < cap; i++) {
        int seen = 0;
        if (groups->g[i].n == 0)
            continue;
        for (size_t j = 0; j < n && !seen; j++)
            seen = strcmp(out[j], groups->g[i].workload) == 0;
        if (!seen)
            out[n++] = groups->g[i].workload;
    }
    return n;
}

/* The id of the catalog configuration point i joins (j->keys[i]), or NULL, with a problem said
 * once per configuration id that is not in the catalogs. @return 1 when a problem was said. */
static int join_point(struct predict_set *s, const struct point_list *pts, size_t i,
                      struct predict_join *j, FILE *errf)
{
    const struct point *p = &pts->items[i];
    const char *id = point_config(p, &s->opt);
    const struct cat_config *cf;
    int seen = 0;
    j->keys[i] = NULL;
    if (!curve_point_counts(p) || p->threads <= 0 || !(p->tps > 0) ||
        (s->opt.workload && strcmp(p->workload, s->opt.workload) != 0))
        return 0;
    cf = cat_find_config(s->cat, id);
    if (cf) {
        j->keys[i] = cf->id;
        if (!s->source_file)
            s->source_file = p->source_file;
        return 0;
    }
    for (size_t b = 0; b < j->n_bad && !seen; b++)
        seen = strcmp(j->bad[b], id) == 0;
    if (seen)
        return 0;
    j->bad[j->n_bad++] = id;
    if (errf)
        fprintf(errf,
                "sizeup: %s:%ld: target '%s': configuration '%s' is not in the "
                "catalogs; give its id as the points' config or with --map %s=ID\n",
                p->source_file ? p->source_file : "-", p->source_line, p->target, id, p->target);
    return 1;
}

int predict_join_points(struct predict_set *s, const struct point_list *pts, struct predict_join *j,
                        FILE *errf)
{
    const struct cat_catalog *cat = s->cat;
    int problems = 0;
    j->keys = malloc((pts->n + 1) * sizeof *j->keys);
    j->bad = malloc((pts->n + 1) * sizeof *j->bad);
    if (!j->keys || !j->bad)
        return -1;
    /* join: keys[i] = the id of the point's configuration, NULL when it joins none; the curves
       (and which points count, the pooled level records) are curve.h's */
    for (size_t i = 0; i < pts->n; i++)
        problems += join_point(s, pts, i, j, errf);
    if (curve_groups_build(&j->groups, pts, j->keys) != CURVE_OK)
        return -1;
    for (size_t i = 0; i < j->groups.n; i++)
        s->n_points += j->groups.g[i].n + j->groups.g[i].n_pooled;
    j->n_wl = workloads(s, &j->groups, j->wl, 64);
    j->measured = calloc(cat->n_configs * (j->n_wl ? j->n_wl : 1) + 1, 1);
    if (!j->measured)
        return -1;
    for (size_t i = 0; i < j->groups.n; i++)
        for (size_t w = 0; j->groups.g[i].n > 0 && w < j->n_wl; w++)
            if (strcmp(j->groups.g[i].workload, j->wl[w]) == 0)
                j->measured[(size_t)(cat_find_config(cat, j->groups.g[i].key) - cat->configs) *
                                j->n_wl +
                            w] = 1;
    return problems;
}

/* Configuration k, measured for workload w, as a member of its group (created when absent);
 * a configuration without a cloud instance, a family or a vcpu count is noted and left out.
 * @return 0, -1 out of memory. */
static int add_member(struct predict_set *s, const struct predict_join *j, size_t k, size_t w,
                      FILE *errf)
{
    const struct cat_catalog *cat = s->cat;
    const struct cat_config *cf = &cat->configs[k];
    const struct cat_instance *in;
    const char *f;
    struct predict_group *G;
    struct predict_member *M;
    long gi;
    char fam[64];
    in = cf->instance ? cat_find_instance(cat, cf->instance) : NULL;
    f = in ? cat_instance_family(in, fam, sizeof fam) : NULL;
    if (!in || !f || in->vcpu <= 0) {
        if (errf && in && f && in->where)
            fprintf(errf,
                    "sizeup: note: %s: instance '%s' has no vcpu: %s is measured but "
                    "predicts nothing\n",
                    in->where, in->id, cf->id);
        else if (errf)
            fprintf(errf, "sizeup: note: %s is measured but predicts nothing: %s\n", cf->id,
                    !in  ? "it is not a cloud instance"
                    : !f ? "its instance has no family"
                         : "its instance has no vcpu in the catalog");
        return 0;
    }
    if (!(G = group_of(s, f, j->wl[w], cf->nodes, &gi)))
        return -1;
    M = realloc(G->members, (G->n_members + 1) * sizeof *M);
    if (!M)
        return -1;
    G->members = M;
    M = &G->members[G->n_members++];
    memset(M, 0, sizeof *M);
    M->config = cf->id;
    M->instance = in;
    return 0;
}

int predict_groups_build(struct predict_set *s, const struct point_list *pts,
                         const struct predict_join *j, FILE *errf)
{
    /* groups: one per (family, workload, nodes) with measured members */
    for (size_t w = 0; w < j->n_wl; w++)
        for (size_t k = 0; k < s->cat->n_configs; k++)
            if (j->measured[k * j->n_wl + w] && add_member(s, j, k, w, errf) != 0)
                return -1;
    if (s->n_groups == 0) {
        if (errf)
            fprintf(errf, "sizeup: no measured point joins a catalog configuration on an instance "
                          "with a family and a vcpu count: nothing to predict from\n");
        return -2;
    }
    for (size_t g = 0; g < s->n_groups; g++) {
        struct predict_group *G = &s->groups[g];
        int frc;
        qsort(G->members, G->n_members, sizeof *G->members, cmp_member);
        frc = group_finish(s, G, pts, &j->groups, errf);
        if (frc == -1 || frc == -2)
            return frc;
    }
    return 0;
}

void predict_join_destroy(struct predict_join *j)
{
    curve_groups_destroy(&j->groups);
    free(j->keys);
    free(j->bad);
    free(j->measured);
    memset(j, 0, sizeof *j);
}
