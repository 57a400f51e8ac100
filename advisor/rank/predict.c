/* predict.c - groups of measured sizes and the predicted curves of the rest (predict.h). */
#include "predict.h"
#include "curve.h"

#include <ctype.h>
#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int predict_transfer_parse(const char *s, struct predict_transfer *out, char *err, size_t cap)
{
    const char *eq = strchr(s, '='), *colon = eq ? strchr(eq, ':') : NULL;
    char *end;
    memset(out, 0, sizeof *out);
    if (!eq || !colon || eq == s || colon == eq + 1 || !colon[1] || (size_t)(eq - s) >= 64 ||
        (size_t)(colon - eq - 1) >= 64) {
        snprintf(err, cap,
                 "'%s' is not a transfer rule: expected FAMILY=FROM:RATIO (a per-core throughput "
                 "ratio > 0, 'clock' for the ratio of the clocks, or 'score[:BENCH.KIND]' for "
                 "the ratio of the --scores file's CPU scores), e.g. m5=c5:0.9",
                 s);
        return -1;
    }
    snprintf(out->family, sizeof out->family, "%.*s", (int)(eq - s), s);
    snprintf(out->from, sizeof out->from, "%.*s", (int)(colon - eq - 1), eq + 1);
    if (strcmp(out->family, out->from) == 0) {
        snprintf(err, cap, "'%s': a family cannot be predicted from itself", s);
        return -1;
    }
    if (strcmp(colon + 1, "clock") == 0) {
        out->ratio = NAN;
        return 0;
    }
    if (strncmp(colon + 1, "score", 5) == 0 && (!colon[6] || colon[6] == ':')) {
        char bench[64];
        int all;
        out->ratio = NAN;
        out->score = 1;
        if (colon[6] && (strlen(colon + 7) >= sizeof out->spec ||
                         score_spec_split(colon + 7, bench, sizeof bench, &all) != 0)) {
            snprintf(err, cap,
                     "'%s': after 'score:' give BENCH.single or BENCH.all (e.g. "
                     "geekbench6.all), a benchmark of the --scores file",
                     s);
            return -1;
        }
        if (colon[6])
            snprintf(out->spec, sizeof out->spec, "%s", colon + 7);
        return 0;
    }
    errno = 0;
    out->ratio = strtod(colon + 1, &end);
    if (*end || errno || !(out->ratio > 0) || !isfinite(out->ratio) || out->ratio > 100) {
        snprintf(err, cap, "'%s': the ratio '%s' is not a number in (0, 100], 'clock' or 'score'",
                 s, colon + 1);
        return -1;
    }
    return 0;
}

const char *predict_status_text(enum predict_status st)
{
    switch (st) {
    case PREDICT_OK:
        return "predicted";
    case PREDICT_MEASURED:
        return "measured";
    case PREDICT_NO_SIBLING:
        return "not predicted: probe one size of its family";
    case PREDICT_NO_VCPU:
        return "not predicted: its instance has no vcpu in the catalog";
    case PREDICT_NO_FAMILY:
        return "not predicted: no instance family (an on-premises server, or an instance "
               "without a family or a FAMILY.SIZE name)";
    case PREDICT_NO_CLOCK:
        return "not predicted: the clock transfer needs clock_ghz of both families";
    case PREDICT_FAILED:
        return "not predicted: the model refused its input";
    case PREDICT_NO_MEMORY:
        return "not predicted: its memory cannot hold the buffer pool its family's measured "
               "sizes used";
    case PREDICT_NO_SCORE:
        return "not predicted: the score transfer has no CPU score of its instance or of the "
               "source family (or no calibrated error) in the --scores file";
    }
    return "?";
}

void predict_set_init(struct predict_set *s)
{
    memset(s, 0, sizeof *s);
}

static void member_destroy(struct predict_member *m)
{
    free(m->threads);
    free(m->tps);
    free(m->rel_ci);
    for (size_t k = 0; k < HWSCALE_MAX_LAT; k++)
        free(m->lat_ratio[k]);
}

void predict_set_destroy(struct predict_set *s)
{
    if (!s)
        return;
    for (size_t g = 0; g < s->n_groups; g++) {
        struct predict_group *G = &s->groups[g];
        for (size_t i = 0; i < G->n_members; i++)
            member_destroy(&G->members[i]);
        free(G->members);
        free(G->sizes);
        free(G->size_member);
        free(G->levels);
        free(G->loo);
    }
    free(s->groups);
    for (size_t c = 0; c < s->n_curves; c++)
        free(s->curves[c].levels);
    free(s->curves);
    free(s->rows);
    predict_set_init(s);
}

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

static int push_row(struct predict_set *s, const struct predict_row *r)
{
    if (s->n_rows == s->cap_rows) {
        size_t cap = s->cap_rows ? 2 * s->cap_rows : 64;
        struct predict_row *g = realloc(s->rows, cap * sizeof *g);
        if (!g)
            return -1;
        s->rows = g;
        s->cap_rows = cap;
    }
    s->rows[s->n_rows++] = *r;
    return 0;
}

/* A score transfer's ratio and error (NULL: none). */
struct score_xfer {
    const char *spec;
    int from_family;
    double error, coverage;
};

/* Predict the curve of instance in from group g (ratio: transfer or 1). */
static long make_curve(struct predict_set *s, size_t g, const struct cat_instance *in, int transfer,
                       double ratio, int from_clock, const struct score_xfer *sx, FILE *errf)
{
    struct predict_group *G = &s->groups[g];
    const double *at = s->opt.threads ? s->opt.threads : G->levels;
    size_t m = s->opt.threads ? s->opt.n_threads : G->n_levels;
    struct predict_curve *c;
    char err[256];
    if (s->n_curves == s->cap_curves) {
        size_t cap = s->cap_curves ? 2 * s->cap_curves : 32;
        struct predict_curve *gr = realloc(s->curves, cap * sizeof *gr);
        if (!gr)
            return -2;
        s->curves = gr;
        s->cap_curves = cap;
    }
    c = &s->curves[s->n_curves];
    memset(c, 0, sizeof *c);
    c->group = g;
    c->instance = in;
    c->transfer = transfer;
    c->ratio = ratio;
    c->ratio_from_clock = from_clock;
    if (sx) {
        c->score_spec = sx->spec;
        c->score_from_family = sx->from_family;
        c->score_error = sx->error;
        c->score_coverage = sx->coverage;
    }
    c->m = m;
    if (!(c->levels = malloc((m ? m : 1) * sizeof *c->levels)))
        return -2;
    if (hwscale_predict(G->sizes, G->n_sizes, in->vcpu, at, m, G->rel95, c->levels, &c->info, err,
                        sizeof err) != 0) {
        if (errf)
            fprintf(errf, "sizeup: %s from family %s: %s\n", in->id, G->family, err);
        free(c->levels);
        return -1;
    }
    for (size_t i = 0; i < m; i++) {
        c->levels[i].tps *= ratio;
        c->levels[i].ci95_tps *= ratio;
        /* a score transfer: the interval is at least the calibrated error of the ratio, whose
           calibration predicted whole families through this same model (transfercal.h) */
        if (c->score_error * c->levels[i].tps > c->levels[i].ci95_tps)
            c->levels[i].ci95_tps = c->score_error * c->levels[i].tps;
        /* latency = r N / X: with X scaled by the ratio the ratios r stay */
    }
    c->info.peak_tps *= ratio;
    for (size_t z = 0; z < G->n_sizes && z < 32; z++) {
        const struct cat_instance *sib = G->members[G->size_member[z]].instance;
        if ((c->info.used >> z & 1u) && sib->processor && in->processor &&
            strcmp(sib->processor, in->processor) != 0)
            c->processor_differs = 1;
    }
    return (long)s->n_curves++;
}

/* The clock of a group's used members when they all have the same, else NAN. */
static double group_clock(const struct predict_group *G)
{
    double clk = NAN;
    for (size_t z = 0; z < G->n_sizes; z++) {
        double c = G->members[G->size_member[z]].instance->clock_ghz;
        if (!(c > 0) || (isfinite(clk) && c != clk))
            return NAN;
        clk = c;
    }
    return clk;
}

/* The name a score file knows an instance by: its provider name, else its id. */
static const char *instance_name(const struct cat_instance *in)
{
    return in->name ? in->name : in->id;
}

/* A score transfer of instance in (family f) from group g: the ratio of in's per-core score to
 * the median of the source group's used sizes' per-core scores (scores.h), and the calibrated
 * error of the rule's BENCH.KIND. @return 0, or -1 (a score or the calibration missing). */
static int score_ratio(const struct predict_set *s, size_t g, const struct cat_instance *in,
                       const char *f, const struct predict_transfer *t, double *ratio,
                       struct score_xfer *sx)
{
    const struct predict_group *G = &s->groups[g];
    const struct score_table *sc = s->opt.scores;
    const char *spec = t->spec[0] ? t->spec : score_best_spec(sc);
    const struct score_cal *cal = score_calibration(sc, spec);
    double tgt, v[64], src;
    int fam_t = 0, fam_s = 0;
    size_t n = 0;
    char fam[64];
    if (!sc || !spec || (!cal && !s->opt.score_raw))
        return -1;
    tgt = score_per_core(sc, spec, instance_name(in), f, &fam_t);
    for (size_t z = 0; z < G->n_sizes && n < 64; z++) {
        const struct cat_instance *m = G->members[G->size_member[z]].instance;
        int ff;
        double x = score_per_core(sc, spec, instance_name(m),
                                  cat_instance_family(m, fam, sizeof fam), &ff);
        if (isfinite(x)) {
            v[n++] = x;
            fam_s |= ff;
        }
    }
    if (!isfinite(tgt) || n == 0)
        return -1;
    qsort(v, n, sizeof *v, cmp_double);
    src = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    *ratio = tgt / src;
    sx->spec = spec;
    sx->from_family = fam_t | fam_s;
    sx->error = cal && !s->opt.score_raw ? cal->rel_error : 0;
    sx->coverage = cal && !s->opt.score_raw ? cal->coverage : NAN;
    return 0;
}

int predict_set_build(struct predict_set *s, const struct point_list *pts,
                      const struct cat_catalog *cat, const struct predict_options *opt, FILE *errf)
{
    long **curve_of = NULL;
    const char **keys = NULL, **bad = NULL, *wl[64];
    unsigned char *measured = NULL; /* [config][workload] */
    unsigned char *told = NULL;     /* [instance]: its missing vcpu was reported */
    size_t n_bad = 0, n_wl, n_maps = 0;
    struct curve_groups groups;
    int problems = 0, rc = -1;
    char fam[64];

    predict_set_init(s);
    memset(&groups, 0, sizeof groups);
    s->opt = *opt;
    s->cat = cat;
    keys = malloc((pts->n + 1) * sizeof *keys);
    bad = malloc((pts->n + 1) * sizeof *bad);
    if (!keys || !bad)
        goto nomem;
    /* join: keys[i] = the id of the point's configuration, NULL when it joins none; the curves
       (and which points count, the pooled level records) are curve.h's */
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        const char *id = point_config(p, opt);
        const struct cat_config *cf;
        keys[i] = NULL;
        if (!curve_point_counts(p) || p->threads <= 0 || !(p->tps > 0) ||
            (opt->workload && strcmp(p->workload, opt->workload) != 0))
            continue;
        cf = cat_find_config(cat, id);
        if (!cf) {
            int seen = 0;
            for (size_t j = 0; j < n_bad && !seen; j++)
                seen = strcmp(bad[j], id) == 0;
            if (!seen) {
                bad[n_bad++] = id;
                problems++;
                if (errf)
                    fprintf(errf,
                            "sizeup: %s:%ld: target '%s': configuration '%s' is not in the "
                            "catalogs; give its id as the points' config or with --map %s=ID\n",
                            p->source_file ? p->source_file : "-", p->source_line, p->target, id,
                            p->target);
            }
            continue;
        }
        keys[i] = cf->id;
        if (!s->source_file)
            s->source_file = p->source_file;
    }
    if (curve_groups_build(&groups, pts, keys) != CURVE_OK)
        goto nomem;
    for (size_t i = 0; i < groups.n; i++)
        s->n_points += groups.g[i].n + groups.g[i].n_pooled;
    n_wl = workloads(s, &groups, wl, 64);
    measured = calloc(cat->n_configs * (n_wl ? n_wl : 1) + 1, 1);
    told = calloc(cat->n_instances + 1, 1);
    if (!measured || !told)
        goto nomem;
    for (size_t i = 0; i < groups.n; i++)
        for (size_t w = 0; groups.g[i].n > 0 && w < n_wl; w++)
            if (strcmp(groups.g[i].workload, wl[w]) == 0)
                measured[(size_t)(cat_find_config(cat, groups.g[i].key) - cat->configs) * n_wl +
                         w] = 1;
    /* groups: one per (family, workload, nodes) with measured members */
    for (size_t w = 0; w < n_wl; w++)
        for (size_t k = 0; k < cat->n_configs; k++) {
            const struct cat_config *cf = &cat->configs[k];
            const struct cat_instance *in;
            const char *f;
            struct predict_group *G;
            struct predict_member *M;
            long gi;
            if (!measured[k * n_wl + w])
                continue;
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
                continue;
            }
            if (!(G = group_of(s, f, wl[w], cf->nodes, &gi)))
                goto nomem;
            M = realloc(G->members, (G->n_members + 1) * sizeof *M);
            if (!M)
                goto nomem;
            G->members = M;
            M = &G->members[G->n_members++];
            memset(M, 0, sizeof *M);
            M->config = cf->id;
            M->instance = in;
        }
    if (s->n_groups == 0) {
        if (errf)
            fprintf(errf, "sizeup: no measured point joins a catalog configuration on an instance "
                          "with a family and a vcpu count: nothing to predict from\n");
        goto fail;
    }
    for (size_t g = 0; g < s->n_groups; g++) {
        struct predict_group *G = &s->groups[g];
        int frc;
        qsort(G->members, G->n_members, sizeof *G->members, cmp_member);
        frc = group_finish(s, G, pts, &groups, errf);
        if (frc == -1)
            goto nomem;
        if (frc == -2)
            goto fail;
    }
    /* rows: every configuration x workload; curves shared per (group, transfer rule, instance):
       curve_of[g * (n_transfer + 1) + t][instance index], t = 0 without transfer */
    n_maps = s->n_groups * (opt->n_transfer + 1);
    curve_of = calloc(n_maps, sizeof *curve_of);
    if (!curve_of)
        goto nomem;
    for (size_t w = 0; w < n_wl; w++)
        for (size_t k = 0; k < cat->n_configs; k++) {
            const struct cat_config *cf = &cat->configs[k];
            const struct cat_instance *in =
                cf->instance ? cat_find_instance(cat, cf->instance) : NULL;
            const char *f = in ? cat_instance_family(in, fam, sizeof fam) : NULL;
            struct predict_row r;
            long gi = -1;
            size_t rule = 0;
            int transfer = 0, from_clock = 0, no_score = 0;
            double ratio = 1;
            struct score_xfer sx = {0};
            memset(&r, 0, sizeof r);
            r.config = cf->id;
            r.workload = wl[w];
            r.curve = -1;
            if (f)
                snprintf(r.family, sizeof r.family, "%s", f);
            if (measured[k * n_wl + w])
                r.status = PREDICT_MEASURED;
            else if (!f)
                r.status = PREDICT_NO_FAMILY;
            else if (in->vcpu <= 0) {
                /* bad input when its family was measured: named once per instance (exit 3) */
                size_t ii = (size_t)(in - cat->instances);
                r.status = PREDICT_NO_VCPU;
                for (size_t g = 0; g < s->n_groups && !told[ii]; g++)
                    if (strcmp(s->groups[g].family, f) == 0 &&
                        strcmp(s->groups[g].workload, wl[w]) == 0) {
                        told[ii] = 1;
                        problems++;
                        if (errf)
                            fprintf(errf,
                                    "sizeup: %s%sinstance '%s' (family %s, measured) has no vcpu: "
                                    "its configurations are not predicted; give its vcpu count\n",
                                    in->where ? in->where : "", in->where ? ": " : "", in->id, f);
                    }
            } else {
                for (size_t g = 0; g < s->n_groups && gi < 0; g++)
                    if (strcmp(s->groups[g].family, f) == 0 &&
                        strcmp(s->groups[g].workload, wl[w]) == 0 &&
                        s->groups[g].nodes == cf->nodes)
                        gi = (long)g;
                for (size_t t = 0; gi < 0 && t < opt->n_transfer; t++) {
                    if (strcmp(opt->transfer[t].family, f) != 0)
                        continue;
                    for (size_t g = 0; g < s->n_groups && gi < 0; g++)
                        if (strcmp(s->groups[g].family, opt->transfer[t].from) == 0 &&
                            strcmp(s->groups[g].workload, wl[w]) == 0 &&
                            s->groups[g].nodes == cf->nodes)
                            gi = (long)g;
                    if (gi >= 0) {
                        transfer = 1;
                        rule = t + 1;
                        ratio = opt->transfer[t].ratio;
                        if (opt->transfer[t].score) {
                            if (score_ratio(s, (size_t)gi, in, f, &opt->transfer[t], &ratio, &sx) !=
                                0)
                                no_score = 1;
                        } else if (isnan(ratio)) {
                            double src = group_clock(&s->groups[gi]);
                            from_clock = 1;
                            ratio = in->clock_ghz > 0 && src > 0 ? in->clock_ghz / src : NAN;
                        }
                    }
                }
                if (gi < 0)
                    r.status = PREDICT_NO_SIBLING;
                else if (no_score)
                    r.status = PREDICT_NO_SCORE;
                else if (isnan(ratio))
                    r.status = PREDICT_NO_CLOCK;
                else {
                    /* memory: the smallest pool a measured size of the family ran with must fit
                     * (a size between two measured ones needs no more than the smaller had) */
                    const struct predict_group *G = &s->groups[gi];
                    double pool = NAN, mem = in->memory_gib * 1024 * PREDICT_POOL_SHARE;
                    for (size_t z = 0; z < G->n_sizes; z++) {
                        double u = G->members[G->size_member[z]].pool_mib;
                        if (isfinite(u) && !(pool <= u))
                            pool = u;
                    }
                    r.mem_unchecked = isfinite(pool) && !(in->memory_gib > 0);
                    if (isfinite(pool) && in->memory_gib > 0 && mem < pool) {
                        r.status = PREDICT_NO_MEMORY;
                        r.pool_mib = pool;
                        r.mem_mib = mem;
                    }
                }
            }
            if (gi >= 0 && r.status == PREDICT_OK) {
                size_t mi = (size_t)gi * (opt->n_transfer + 1) + rule;
                size_t ii = (size_t)(in - cat->instances);
                long *map = curve_of[mi];
                if (!map) {
                    map = curve_of[mi] = malloc((cat->n_instances + 1) * sizeof *map);
                    if (!map)
                        goto nomem;
                    for (size_t x = 0; x <= cat->n_instances; x++)
                        map[x] = -3; /* not made yet */
                }
                if (map[ii] == -3) {
                    long c = make_curve(s, (size_t)gi, in, transfer, ratio, from_clock,
                                        sx.spec ? &sx : NULL, errf);
                    if (c == -2)
                        goto nomem;
                    map[ii] = c;
                }
                r.curve = map[ii];
                if (r.curve < 0)
                    r.status = PREDICT_FAILED;
            }
            if (push_row(s, &r) != 0)
                goto nomem;
        }
    rc = problems;
    goto done;
nomem:
    if (errf)
        fprintf(errf, "sizeup: out of memory\n");
fail:
    rc = -1;
done:
    if (curve_of)
        for (size_t g = 0; g < n_maps; g++)
            free(curve_of[g]);
    free(curve_of);
    curve_groups_destroy(&groups);
    free(keys);
    free(bad);
    free(measured);
    free(told);
    if (rc < 0)
        predict_set_destroy(s);
    return rc;
}

const char *predict_curve_from(const struct predict_set *s, const struct predict_curve *c,
                               char *buf, size_t cap)
{
    const struct predict_group *G = &s->groups[c->group];
    size_t used = 0;
    buf[0] = '\0';
    for (size_t z = 0; z < G->n_sizes && z < 32; z++) {
        int k;
        if (!(c->info.used >> z & 1u))
            continue;
        k = snprintf(buf + used, cap - used, "%s%s", used ? ", " : "",
                     G->members[G->size_member[z]].config);
        if (k < 0 || (size_t)k >= cap - used)
            break;
        used += (size_t)k;
    }
    return buf;
}

int predict_score_check(const struct predict_transfer *tr, const char *const *text, size_t n,
                        const struct score_table *sc, const char *path, char *err, size_t cap)
{
    for (size_t i = 0; i < n; i++) {
        const char *spec;
        if (!tr[i].score)
            continue;
        if (!sc) {
            snprintf(err, cap, "--transfer %s: give --scores FILE", text[i]);
            return -1;
        }
        spec = tr[i].spec[0] ? tr[i].spec : score_best_spec(sc);
        if (!spec || !score_calibration(sc, spec)) {
            snprintf(err, cap,
                     "--transfer %s: %s has no calibrated error for %s: measure it with sizeup "
                     "predict --calibrate-transfer %s and add the entry to the file's "
                     "\"calibration\"",
                     text[i], path, spec ? spec : "any score", spec ? spec : "BENCH.KIND");
            return -1;
        }
    }
    return 0;
}
