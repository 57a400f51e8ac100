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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
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

/* What the rows of predict_set_build share. */
struct rows_ctx {
    struct predict_set *s;
    const struct predict_join *j;
    long **curve_of;     /* [group * (n_transfer + 1) + rule][instance]: its curve, -3 not made
                            yet; rule 0 without transfer */
    size_t n_maps;       /* entries of curve_of */
    unsigned char *told; /* [instance]: its missing vcpu was reported */
    int problems;
    FILE *errf;
};

/* Where a row is predicted from: its group (-1 none), the transfer rule (0 none, else its
 * index + 1), the per-core ratio and how it was found. */
struct row_source {
    long gi;
    size_t rule;
    int transfer, from_clock, no_score;
    double ratio;
    struct score_xfer sx;
};

/* An instance of family f without vcpu: bad input when its family was measured for workload
 * wl, named once per instance (exit 3). */
static void row_no_vcpu(struct rows_ctx *X, const struct cat_instance *in, const char *f,
                        const char *wl)
{
    const struct predict_set *s = X->s;
    size_t ii = (size_t)(in - s->cat->instances);
    for (size_t g = 0; g < s->n_groups && !X->told[ii]; g++)
        if (strcmp(s->groups[g].family, f) == 0 && strcmp(s->groups[g].workload, wl) == 0) {
            X->told[ii] = 1;
            X->problems++;
            if (X->errf)
                fprintf(X->errf,
                        "sizeup: %s%sinstance '%s' (family %s, measured) has no vcpu: "
                        "its configurations are not predicted; give its vcpu count\n",
                        in->where ? in->where : "", in->where ? ": " : "", in->id, f);
        }
}

/* The group configuration cf (instance in, family f) of workload wl is predicted from: its own
 * family's, else the first transfer rule's source family with a group, and that rule's ratio
 * (a number, the clocks' or the scores'). */
static void row_source_find(const struct predict_set *s, const struct cat_config *cf,
                            const struct cat_instance *in, const char *f, const char *wl,
                            struct row_source *src)
{
    const struct predict_options *opt = &s->opt;
    for (size_t g = 0; g < s->n_groups && src->gi < 0; g++)
        if (strcmp(s->groups[g].family, f) == 0 && strcmp(s->groups[g].workload, wl) == 0 &&
            s->groups[g].nodes == cf->nodes)
            src->gi = (long)g;
    for (size_t t = 0; src->gi < 0 && t < opt->n_transfer; t++) {
        if (strcmp(opt->transfer[t].family, f) != 0)
            continue;
        for (size_t g = 0; g < s->n_groups && src->gi < 0; g++)
            if (strcmp(s->groups[g].family, opt->transfer[t].from) == 0 &&
                strcmp(s->groups[g].workload, wl) == 0 && s->groups[g].nodes == cf->nodes)
                src->gi = (long)g;
        if (src->gi >= 0) {
            src->transfer = 1;
            src->rule = t + 1;
            src->ratio = opt->transfer[t].ratio;
            if (opt->transfer[t].score) {
                if (score_ratio(s, (size_t)src->gi, in, f, &opt->transfer[t], &src->ratio,
                                &src->sx) != 0)
                    src->no_score = 1;
            } else if (isnan(src->ratio)) {
                double clk = group_clock(&s->groups[src->gi]);
                src->from_clock = 1;
                src->ratio = in->clock_ghz > 0 && clk > 0 ? in->clock_ghz / clk : NAN;
            }
        }
    }
}

/* Memory: the smallest pool a measured size of group G ran with must fit in instance in (a
 * size between two measured ones needs no more than the smaller had); r is PREDICT_NO_MEMORY
 * when it does not, mem_unchecked when in gives no memory to check. */
static void row_memory(const struct predict_group *G, const struct cat_instance *in,
                       struct predict_row *r)
{
    double pool = NAN, mem = in->memory_gib * 1024 * PREDICT_POOL_SHARE;
    for (size_t z = 0; z < G->n_sizes; z++) {
        double u = G->members[G->size_member[z]].pool_mib;
        if (isfinite(u) && !(pool <= u))
            pool = u;
    }
    r->mem_unchecked = isfinite(pool) && !(in->memory_gib > 0);
    if (isfinite(pool) && in->memory_gib > 0 && mem < pool) {
        r->status = PREDICT_NO_MEMORY;
        r->pool_mib = pool;
        r->mem_mib = mem;
    }
}

/* The predicted curve of row r (instance in), shared per (group, transfer rule, instance): made
 * when first asked; r is PREDICT_FAILED when the model refused it. @return 0, -1 out of memory. */
static int row_curve(struct rows_ctx *X, const struct row_source *src,
                     const struct cat_instance *in, struct predict_row *r)
{
    struct predict_set *s = X->s;
    size_t mi = (size_t)src->gi * (s->opt.n_transfer + 1) + src->rule;
    size_t ii = (size_t)(in - s->cat->instances);
    long *map = X->curve_of[mi];
    if (!map) {
        map = X->curve_of[mi] = malloc((s->cat->n_instances + 1) * sizeof *map);
        if (!map)
            return -1;
        for (size_t x = 0; x <= s->cat->n_instances; x++)
            map[x] = -3; /* not made yet */
    }
    if (map[ii] == -3) {
        long c = make_curve(s, (size_t)src->gi, in, src->transfer, src->ratio, src->from_clock,
                            src->sx.spec ? &src->sx : NULL, X->errf);
        if (c == -2)
            return -1;
        map[ii] = c;
    }
    r->curve = map[ii];
    if (r->curve < 0)
        r->status = PREDICT_FAILED;
    return 0;
}

/* The row of configuration k and workload w: its status and, predicted, its curve.
 * @return 0, -1 out of memory. */
static int row_build(struct rows_ctx *X, size_t k, size_t w)
{
    struct predict_set *s = X->s;
    const struct cat_catalog *cat = s->cat;
    const struct cat_config *cf = &cat->configs[k];
    const struct cat_instance *in = cf->instance ? cat_find_instance(cat, cf->instance) : NULL;
    const char *wl = X->j->wl[w], *f;
    struct row_source src = {.gi = -1, .ratio = 1};
    struct predict_row r;
    char fam[64];
    f = in ? cat_instance_family(in, fam, sizeof fam) : NULL;
    memset(&r, 0, sizeof r);
    r.config = cf->id;
    r.workload = wl;
    r.curve = -1;
    if (f)
        snprintf(r.family, sizeof r.family, "%s", f);
    if (X->j->measured[k * X->j->n_wl + w])
        r.status = PREDICT_MEASURED;
    else if (!f)
        r.status = PREDICT_NO_FAMILY;
    else if (in->vcpu <= 0) {
        r.status = PREDICT_NO_VCPU;
        row_no_vcpu(X, in, f, wl);
    } else {
        row_source_find(s, cf, in, f, wl, &src);
        if (src.gi < 0)
            r.status = PREDICT_NO_SIBLING;
        else if (src.no_score)
            r.status = PREDICT_NO_SCORE;
        else if (isnan(src.ratio))
            r.status = PREDICT_NO_CLOCK;
        else
            row_memory(&s->groups[src.gi], in, &r);
    }
    if (src.gi >= 0 && r.status == PREDICT_OK && row_curve(X, &src, in, &r) != 0)
        return -1;
    return push_row(s, &r);
}

int predict_set_build(struct predict_set *s, const struct point_list *pts,
                      const struct cat_catalog *cat, const struct predict_options *opt, FILE *errf)
{
    struct predict_join j;
    struct rows_ctx X;
    int rc = -1, jrc;

    predict_set_init(s);
    memset(&j, 0, sizeof j);
    memset(&X, 0, sizeof X);
    s->opt = *opt;
    s->cat = cat;
    X.s = s;
    X.j = &j;
    X.errf = errf;
    if ((jrc = predict_join_points(s, pts, &j, errf)) < 0 ||
        !(X.told = calloc(cat->n_instances + 1, 1)))
        goto nomem;
    X.problems = jrc;
    jrc = predict_groups_build(s, pts, &j, errf);
    if (jrc == -1)
        goto nomem;
    if (jrc == -2)
        goto fail;
    /* rows: every configuration x workload; curves shared per (group, transfer rule, instance) */
    X.n_maps = s->n_groups * (opt->n_transfer + 1);
    X.curve_of = calloc(X.n_maps, sizeof *X.curve_of);
    if (!X.curve_of)
        goto nomem;
    for (size_t w = 0; w < j.n_wl; w++)
        for (size_t k = 0; k < cat->n_configs; k++)
            if (row_build(&X, k, w) != 0)
                goto nomem;
    rc = X.problems;
    goto done;
nomem:
    if (errf)
        fprintf(errf, "sizeup: out of memory\n");
fail:
    rc = -1;
done:
    if (X.curve_of)
        for (size_t g = 0; g < X.n_maps; g++)
            free(X.curve_of[g]);
    free(X.curve_of);
    free(X.told);
    predict_join_destroy(&j);
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

/* 1 when some instance of cat is of family f. */
static int has_family(const struct cat_catalog *cat, const char *f)
{
    char buf[64];
    for (size_t i = 0; i < cat->n_instances; i++) {
        const char *g = cat_instance_family(&cat->instances[i], buf, sizeof buf);
        if (g && strcmp(g, f) == 0)
            return 1;
    }
    return 0;
}

/* 1 when g is an item of the ", "-separated list. */
static int listed(const char *list, const char *g)
{
    size_t n = strlen(g);
    for (const char *p = list; (p = strstr(p, g)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
            return 1;
    return 0;
}

/* The catalogs' families, "c5, c5a, ..." (the first that fit), into buf. */
static const char *families(const struct cat_catalog *cat, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < cat->n_instances; i++) {
        char one[64];
        const char *g = cat_instance_family(&cat->instances[i], one, sizeof one);
        if (!g || listed(buf, g))
            continue;
        if (len + strlen(g) + 8 >= cap) {
            snprintf(buf + len, cap - len, ", ...");
            break;
        }
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", g);
    }
    return buf;
}

int predict_transfer_check(const struct predict_transfer *tr, const char *const *text, size_t n,
                           const struct cat_catalog *cat, char *err, size_t cap)
{
    char have[400];
    for (size_t i = 0; i < n; i++) {
        const char *bad = !has_family(cat, tr[i].family) ? tr[i].family
                          : !has_family(cat, tr[i].from) ? tr[i].from
                                                         : NULL;
        if (strcmp(tr[i].family, tr[i].from) == 0) {
            snprintf(err, cap,
                     "--transfer %s: a family predicted from itself (its own sizes "
                     "predict it without a transfer)",
                     text[i]);
            return -1;
        }
        if (bad) {
            snprintf(err, cap,
                     "--transfer %s: no instance of family '%s' in the catalogs (they "
                     "have: %s)",
                     text[i], bad, families(cat, have, sizeof have));
            return -1;
        }
    }
    return 0;
}
