/* rankset.c - join points to configurations, fit, rank and price them (rankset.h). */
#include "rankset.h"

#include "cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rank_map_parse(char *s, struct rank_map *m)
{
    char *eq = strchr(s, '=');
    if (!eq || eq == s || !eq[1])
        return -1;
    *eq = '\0';
    m->target = s;
    m->config = eq + 1;
    return 0;
}

void rank_set_init(struct rank_set *s)
{
    memset(s, 0, sizeof *s);
}

void rank_set_destroy(struct rank_set *s)
{
    if (!s)
        return;
    if (s->curves)
        for (size_t i = 0; i < s->n * s->opt.n_mix; i++)
            rank_curve_destroy(&s->curves[i]);
    for (size_t i = 0; i < s->n; i++)
        free(s->config[i]);
    free(s->config);
    free(s->curves);
    free(s->rows);
    free(s->row_curve);
    memset(s, 0, sizeof *s);
}

const struct rank_curve *rank_set_curves(const struct rank_set *s, size_t i)
{
    return &s->curves[s->row_curve[i] * s->opt.n_mix];
}

const char *rank_set_workloads(const struct rank_set *s, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->opt.n_mix && used < cap; i++) {
        int k;
        if (s->opt.n_mix == 1)
            k = snprintf(buf + used, cap - used, "%s", s->opt.mix[i].workload);
        else
            k = snprintf(buf + used, cap - used, "%s%s %g", i ? ", " : "", s->opt.mix[i].workload,
                         s->opt.mix[i].weight);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return buf;
}

/* The configuration id of a point, or NULL when it joins none. */
static const char *point_config(const struct point *p, const struct rank_map *maps, size_t n_maps)
{
    if (p->config)
        return p->config;
    for (size_t i = 0; i < n_maps; i++)
        if (strcmp(maps[i].target, p->target) == 0)
            return maps[i].config;
    return p->target;
}

static long find_str(const char *const *v, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], s) == 0)
            return (long)i;
    return -1;
}

static long mix_index(const struct rank_options *o, const char *workload)
{
    for (size_t i = 0; i < o->n_mix; i++)
        if (strcmp(o->mix[i].workload, workload) == 0)
            return (long)i;
    return -1;
}

struct cost_ctx {
    const struct cat_catalog *cat;
    const char *config;
    enum cat_pricing pricing;
    int estimate;
};

static double cost_at(void *vctx, long nodes)
{
    struct cost_ctx *c = vctx;
    struct cat_cost cost;
    struct cat_error err;
    if (nodes > 1000000 ||
        cat_config_cost(c->cat, c->config, c->pricing, (int)nodes, &cost, &err) != CAT_OK)
        return NAN;
    c->estimate |= cost.estimate;
    return cost.per_hour;
}

static const char *src_name(const struct point *p)
{
    return p->source_file ? p->source_file : "-";
}

/* Choose the workload when no mix was given: the one workload of the points. */
static int pick_workload(struct rank_set *s, const struct point_list *pts, FILE *errf)
{
    const char *w = NULL;
    for (size_t i = 0; i < pts->n; i++) {
        if (!w)
            w = pts->items[i].workload;
        else if (strcmp(w, pts->items[i].workload) != 0) {
            if (errf)
                fprintf(errf,
                        "sizeup: the points hold several workloads (%s, %s, ...): choose one with "
                        "--workload or a mix with --mix\n",
                        w, pts->items[i].workload);
            return -1;
        }
    }
    if (!w) {
        if (errf)
            fprintf(errf, "sizeup: no points to rank\n");
        return -1;
    }
    snprintf(s->opt.mix[0].workload, sizeof s->opt.mix[0].workload, "%s", w);
    s->opt.mix[0].weight = 1;
    s->opt.n_mix = 1;
    return 0;
}

int rank_set_build(struct rank_set *s, const struct point_list *pts, const struct cat_catalog *cat,
                   const struct rank_options *opt, const struct rank_map *maps, size_t n_maps,
                   FILE *errf)
{
    long *pc = NULL;         /* configuration index of each point, -1 none */
    const char **bad = NULL; /* ids already reported */
    size_t n_bad = 0;
    struct usl_workspace *ws = NULL;
    double *bn = NULL, *bx = NULL, *bl = NULL;
    int problems = 0;

    rank_set_init(s);
    s->opt = *opt;
    s->cat = cat;
    if (s->opt.n_mix == 0 && pick_workload(s, pts, errf) != 0)
        return -1;
    pc = malloc((pts->n + 1) * sizeof *pc);
    bad = malloc((pts->n + 1) * sizeof *bad);
    s->config = malloc((pts->n + 1) * sizeof *s->config);
    bn = malloc((pts->n + 1) * sizeof *bn);
    bx = malloc((pts->n + 1) * sizeof *bx);
    bl = malloc((pts->n + 1) * sizeof *bl);
    ws = usl_workspace_new();
    if (!pc || !bad || !s->config || !bn || !bx || !bl || !ws)
        goto nomem;
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        const char *id;
        long k;
        pc[i] = -1;
        if (mix_index(&s->opt, p->workload) < 0)
            continue;
        id = point_config(p, maps, n_maps);
        if (!cat_find_config(cat, id)) {
            if (find_str(bad, n_bad, id) < 0) {
                bad[n_bad++] = id;
                problems++;
                if (errf)
                    fprintf(errf,
                            "sizeup: %s:%ld: target '%s': configuration '%s' is not in the "
                            "catalogs; give its id as the points' config or with --map %s=ID\n",
                            src_name(p), p->source_line, p->target, id, p->target);
            }
            continue;
        }
        k = find_str((const char *const *)s->config, s->n, id);
        if (k < 0) {
            s->config[s->n] = strdup(id);
            if (!s->config[s->n])
                goto nomem;
            k = (long)s->n++;
        }
        pc[i] = k;
        s->n_points++;
    }
    if (s->n == 0) {
        if (errf)
            fprintf(errf,
                    "sizeup: no point joins a configuration of the catalogs for workload "
                    "%s\n",
                    s->opt.mix[0].workload);
        goto fail;
    }
    s->curves = calloc(s->n * s->opt.n_mix, sizeof *s->curves);
    s->rows = calloc(s->n, sizeof *s->rows);
    s->row_curve = calloc(s->n, sizeof *s->row_curve);
    if (!s->curves || !s->rows || !s->row_curve)
        goto nomem;
    for (size_t k = 0; k < s->n; k++) {
        const struct cat_config *cf = cat_find_config(cat, s->config[k]);
        const struct rank_curve *cv[RANK_MAX_MIX];
        struct cost_ctx cc;
        for (size_t w = 0; w < s->opt.n_mix; w++) {
            struct rank_curve *c = &s->curves[k * s->opt.n_mix + w];
            size_t m = 0, with_nodes = 0;
            const struct point *first = NULL;
            char err[256];
            int rc;
            cv[w] = NULL;
            for (size_t i = 0; i < pts->n; i++) {
                const struct point *p = &pts->items[i];
                if (pc[i] != (long)k || strcmp(p->workload, s->opt.mix[w].workload) != 0)
                    continue;
                if (!first)
                    first = p;
                if (p->nodes > 0)
                    with_nodes++;
                m++;
            }
            if (!m)
                continue;
            {
                /* scale-out when every point has a node count and there are 2 or more */
                int by_nodes = 0;
                size_t j = 0;
                if (with_nodes == m) {
                    for (size_t i = 0; i < pts->n; i++)
                        if (pc[i] == (long)k &&
                            strcmp(pts->items[i].workload, s->opt.mix[w].workload) == 0)
                            bn[j++] = (double)pts->items[i].nodes;
                    by_nodes = model_count_distinct(bn, m) >= 2;
                }
                j = 0;
                for (size_t i = 0; i < pts->n; i++) {
                    const struct point *p = &pts->items[i];
                    if (pc[i] != (long)k || strcmp(p->workload, s->opt.mix[w].workload) != 0)
                        continue;
                    bn[j] = by_nodes ? (double)p->nodes : (double)p->threads;
                    bx[j] = p->tps;
                    bl[j] = (s->opt.slo.pct > 0 ? point_percentile(p, s->opt.slo.pct)
                                                : p->latency_ms.avg) *
                            1e-3;
                    j++;
                }
                rc = rank_curve_init(c, bn, bx, bl, m, by_nodes, s->opt.slo.pct, ws, err,
                                     sizeof err);
            }
            if (rc == RANK_ENOMEM)
                goto nomem;
            if (rc != RANK_OK) {
                problems++;
                if (errf)
                    fprintf(errf, "sizeup: %s:%ld: %s / %s: %s\n", src_name(first),
                            first->source_line, s->config[k], s->opt.mix[w].workload, err);
                continue;
            }
            cv[w] = c;
        }
        s->row_curve[k] = k;
        rank_row_eval(&s->rows[k], s->config[k], cf->nodes, cv, &s->opt);
        cc.cat = cat;
        cc.config = s->config[k];
        cc.pricing = s->opt.pricing;
        cc.estimate = 0;
        rank_row_price(&s->rows[k], cv, &s->opt, cost_at, &cc);
        s->rows[k].cost_estimate = cc.estimate;
        if (!isfinite(s->rows[k].cost_per_hour)) {
            struct cat_cost cost;
            struct cat_error cerr;
            problems++;
            if (errf &&
                cat_config_cost(cat, s->config[k], s->opt.pricing, 0, &cost, &cerr) != CAT_OK)
                fprintf(errf, "sizeup: %s: %s\n", s->config[k], cerr.msg);
        }
    }
    {
        /* sort rows with their curve index */
        struct rank_row *sorted = s->rows;
        rank_sort(sorted, s->n, &s->opt);
        for (size_t i = 0; i < s->n; i++)
            s->row_curve[i] =
                (size_t)find_str((const char *const *)s->config, s->n, sorted[i].config);
    }
    free(pc);
    free((void *)bad);
    free(bn);
    free(bx);
    free(bl);
    usl_workspace_free(ws);
    return problems;
nomem:
    if (errf)
        fprintf(errf, "sizeup: out of memory\n");
fail:
    free(pc);
    free((void *)bad);
    free(bn);
    free(bx);
    free(bl);
    usl_workspace_free(ws);
    rank_set_destroy(s);
    return -1;
}
