/* rankpred.c - measured and predicted configurations in one ranking (rankpred.h). */
#include "rankpred.h"

#include "cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 1 when name is one of the ", "-separated items of list. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

static long mix_index(const struct rank_options *o, const char *workload)
{
    for (size_t i = 0; i < o->n_mix; i++)
        if (strcmp(o->mix[i].workload, workload) == 0)
            return (long)i;
    return -1;
}

/* A distinct combination of predicted curves (one per workload of the mix). */
struct pset {
    long curve[RANK_MAX_MIX]; /* predict_set curve index per workload, -1 none */
    size_t row[RANK_MAX_MIX]; /* a predict row that has that curve */
    long next;                /* next set with the same first curve, -1 */
    size_t set;               /* its index among the ranking's curve sets */
    struct rank_row tmpl;     /* its evaluation */
};

/* What rankpred_add works with: the ranking, the predictions and the configurations queued. */
struct rp {
    struct rank_set *s;
    const struct predict_set *ps;
    const struct cat_catalog *cat;
    size_t nm;    /* workloads of the mix */
    size_t old_n; /* rows of the ranking before */
    size_t n_new; /* configurations queued */
    size_t n_sets, cap_sets;
    unsigned char *in_set; /* [config]: 1 ranked on its own points, 2 queued */
    long *pc;              /* [config * nm + workload]: its predicted curve, -1 none */
    long *first;           /* [curve]: the first set whose first curve it is, -1 */
    long *cfg_set;         /* [config]: its set */
    size_t *order;         /* the queued configurations, in the order of the predict rows */
    struct pset *sets;
    struct point_list pts; /* a set's predicted points, one workload at a time */
    struct usl_workspace *ws;
};

/* The working arrays, the configurations ranked already marked. @return 0, -1 out of memory. */
static int rp_alloc(struct rp *R)
{
    const struct cat_catalog *cat = R->cat;
    size_t nm = R->nm;
    R->in_set = calloc(cat->n_configs + 1, 1);
    R->pc = malloc((cat->n_configs * nm + 1) * sizeof *R->pc);
    R->cfg_set = malloc((cat->n_configs + 1) * sizeof *R->cfg_set);
    R->order = malloc((cat->n_configs + 1) * sizeof *R->order);
    R->first = malloc((R->ps->n_curves + 1) * sizeof *R->first);
    R->ws = usl_workspace_new();
    if (!R->in_set || !R->pc || !R->cfg_set || !R->order || !R->first || !R->ws)
        return -1;
    for (size_t k = 0; k < R->s->n; k++) {
        const struct cat_config *cf = cat_find_config(cat, R->s->config[k]);
        if (cf)
            R->in_set[cf - cat->configs] = 1;
    }
    for (size_t i = 0; i < cat->n_configs * nm; i++)
        R->pc[i] = -1;
    for (size_t c = 0; c <= R->ps->n_curves; c++)
        R->first[c] = -1;
    return 0;
}

static void rp_free(struct rp *R)
{
    free(R->in_set);
    free(R->pc);
    free(R->cfg_set);
    free(R->order);
    free(R->first);
    free(R->sets);
    point_list_destroy(&R->pts);
    usl_workspace_free(R->ws);
}

/* Queue the predicted curves of each configuration not ranked yet, per workload of the mix. */
static void rp_queue(struct rp *R)
{
    const struct predict_set *ps = R->ps;
    for (size_t r = 0; r < ps->n_rows; r++) {
        const struct predict_row *pr = &ps->rows[r];
        const struct cat_config *cf;
        long w = mix_index(&R->s->opt, pr->workload);
        size_t k;
        if (w < 0 || pr->status != PREDICT_OK || !(cf = cat_find_config(R->cat, pr->config)))
            continue;
        k = (size_t)(cf - R->cat->configs);
        if (R->in_set[k] == 1)
            continue; /* ranked on its own points */
        if (R->in_set[k] == 0) {
            R->in_set[k] = 2; /* queued */
            R->order[R->n_new++] = k;
        }
        R->pc[k * R->nm + (size_t)w] = pr->curve;
    }
}

/* The distinct sets of curves of the queued configurations, and a predict row of each curve of
 * a set (for its points). @return 0, -1 out of memory. */
static int rp_group(struct rp *R)
{
    const struct predict_set *ps = R->ps;
    size_t nm = R->nm;
    for (size_t q = 0; q < R->n_new; q++) {
        size_t k = R->order[q];
        long c0 = R->pc[k * nm] >= 0 ? R->pc[k * nm] : (long)ps->n_curves, j;
        for (j = R->first[c0]; j >= 0; j = R->sets[j].next)
            if (memcmp(R->sets[j].curve, &R->pc[k * nm], nm * sizeof *R->pc) == 0)
                break;
        if (j < 0) {
            if (R->n_sets == R->cap_sets) {
                size_t cap = R->cap_sets ? 2 * R->cap_sets : 16;
                struct pset *g = realloc(R->sets, cap * sizeof *g);
                if (!g)
                    return -1;
                R->sets = g;
                R->cap_sets = cap;
            }
            memset(&R->sets[R->n_sets], 0, sizeof R->sets[R->n_sets]);
            memcpy(R->sets[R->n_sets].curve, &R->pc[k * nm], nm * sizeof *R->pc);
            R->sets[R->n_sets].next = R->first[c0];
            R->first[c0] = (long)R->n_sets;
            j = (long)R->n_sets++;
        }
        R->cfg_set[k] = j;
    }
    for (size_t r = 0; r < ps->n_rows; r++) {
        const struct predict_row *pr = &ps->rows[r];
        long w = mix_index(&R->s->opt, pr->workload);
        if (w < 0 || pr->status != PREDICT_OK)
            continue;
        for (size_t j = 0; j < R->n_sets; j++)
            if (R->sets[j].curve[w] == pr->curve)
                R->sets[j].row[w] = r;
    }
    return 0;
}

/* Grow the ranking's arrays by the queued configurations and their sets (the rows so far
 * repointed into the storage that moved). @return 0, -1 out of memory. */
static int rp_grow(struct rp *R)
{
    struct rank_set *s = R->s;
    size_t nm = R->nm, old_n = R->old_n, n = s->n + R->n_new, ns = s->n_sets + R->n_sets;
    char **config = realloc(s->config, n * sizeof *config);
    if (config)
        s->config = config;
    size_t *config_set = realloc(s->config_set, n * sizeof *config_set);
    if (config_set)
        s->config_set = config_set;
    struct rank_row *rows = realloc(s->rows, n * sizeof *rows);
    if (rows)
        s->rows = rows;
    size_t *row_curve = realloc(s->row_curve, n * sizeof *row_curve);
    if (row_curve)
        s->row_curve = row_curve;
    struct curve *curves = realloc(s->curves, ns * nm * sizeof *curves);
    if (curves) {
        s->curves = curves;
        memset(s->curves + s->n_sets * nm, 0, R->n_sets * nm * sizeof *curves);
    }
    struct rank_at *at = realloc(s->at, ns * nm * sizeof *at);
    if (!at)
        return -1;
    s->at = at;
    /* the rows so far point into the storage that moved */
    for (size_t i = 0; rows && i < old_n; i++)
        s->rows[i].at = s->at + s->config_set[s->row_curve[i]] * nm;
    char **from = s->from ? realloc(s->from, n * sizeof *from) : calloc(n, sizeof *from);
    if (from) {
        if (!s->from)
            memset(from, 0, old_n * sizeof *from);
        s->from = from;
    }
    /* the per-configuration notes a ranking may carry grow with it (NULL: none) */
    if (s->note) {
        char **nt = realloc(s->note, n * sizeof *nt);
        if (!nt)
            return -1;
        memset(nt + old_n, 0, (n - old_n) * sizeof *nt);
        s->note = nt;
    }
    if (s->measured) {
        char **ms = realloc(s->measured, n * sizeof *ms);
        if (!ms)
            return -1;
        memset(ms + old_n, 0, (n - old_n) * sizeof *ms);
        s->measured = ms;
    }
    if (!config || !config_set || !rows || !row_curve || !curves || !from)
        return -1;
    return 0;
}

/* Each set's curves from its predicted points, evaluated at the target once (its template row).
 * @return the number of curves that could not be built (said on errf), or -1 out of memory. */
static int rp_eval_sets(struct rp *R, FILE *errf)
{
    struct rank_set *s = R->s;
    size_t nm = R->nm;
    struct curve_spec spec = curve_spec_default();
    int problems = 0;
    spec.x = CURVE_X_THREADS;
    spec.lat_pct = s->opt.slo.pct;
    spec.source = CURVE_SOURCE_PREDICTED;
    for (size_t j = 0; j < R->n_sets; j++) {
        struct pset *P = &R->sets[j];
        const struct curve *cv[RANK_MAX_MIX];
        P->set = s->n_sets++;
        for (size_t w = 0; w < nm; w++) {
            struct curve *c = &s->curves[P->set * nm + w];
            size_t idx[256];
            char err[320];
            int rc;
            cv[w] = NULL;
            if (P->curve[w] < 0)
                continue;
            point_list_truncate(&R->pts, 0);
            if (predict_row_points(R->ps, P->row[w], &R->pts) != POINT_OK)
                return -1;
            for (size_t i = 0; i < R->pts.n && i < 256; i++)
                idx[i] = i;
            rc = curve_init_points(c, &R->pts, idx, R->pts.n < 256 ? R->pts.n : 256, &spec, R->ws,
                                   err, sizeof err);
            if (rc == CURVE_ENOMEM)
                return -1;
            if (rc != CURVE_OK) {
                problems++;
                if (errf)
                    fprintf(errf, "sizeup: predicted %s / %s: %s\n", R->ps->rows[P->row[w]].config,
                            s->opt.mix[w].workload, err);
                continue;
            }
            cv[w] = c;
        }
        rank_row_eval(&P->tmpl, s->at + P->set * nm, "", 1, cv, &s->opt);
        rank_row_widen_predicted(&P->tmpl, cv, &s->opt);
    }
    return problems;
}

/* One row per queued configuration: its set's evaluation, its own price. @return 0, -1 out of
 * memory. */
static int rp_add_rows(struct rp *R)
{
    struct rank_set *s = R->s;
    size_t nm = R->nm;
    char buf[512];
    for (size_t q = 0; q < R->n_new; q++) {
        size_t k = R->order[q], i = s->n;
        const struct cat_config *cf = &R->cat->configs[k];
        struct pset *P = &R->sets[R->cfg_set[k]];
        const struct curve *cv[RANK_MAX_MIX];
        if (!(s->config[i] = strdup(cf->id)))
            return -1;
        s->from[i] = NULL;
        s->config_set[i] = P->set;
        s->row_curve[i] = i;
        s->n++;
        for (size_t w = 0; w < nm; w++)
            cv[w] = s->curves[P->set * nm + w].m ? &s->curves[P->set * nm + w] : NULL;
        for (size_t w = 0; w < nm; w++)
            if (P->curve[w] >= 0) {
                predict_curve_from(R->ps, &R->ps->curves[P->curve[w]], buf, sizeof buf);
                if (!(s->from[i] = strdup(buf)))
                    return -1;
                break;
            }
        s->rows[i] = P->tmpl;
        s->rows[i].config = s->config[i];
        s->rows[i].config_nodes = cf->nodes > 0 ? cf->nodes : 1;
        rank_set_price_row(s, &s->rows[i], cv);
    }
    return 0;
}

/* What is neither measured nor predicted, by reason (the first workload of the mix counts,
 * except for memory, which any workload of the mix says once per configuration). */
static void rp_unpredicted(const struct rank_set *s, const struct predict_set *ps,
                           struct rankpred_stats *st)
{
    for (size_t r = 0; r < ps->n_rows; r++) {
        const struct predict_row *pr = &ps->rows[r];
        size_t len = strlen(st->families);
        if (pr->status == PREDICT_NO_MEMORY && mix_index(&s->opt, pr->workload) >= 0) {
            size_t sl = strlen(st->small);
            if (listed(st->small, pr->config))
                continue; /* another workload of the mix said it */
            st->no_memory++;
            if (!(st->pool_mib >= pr->pool_mib))
                st->pool_mib = pr->pool_mib;
            if (sl + strlen(pr->config) + 8 < sizeof st->small)
                snprintf(st->small + sl, sizeof st->small - sl, "%s%s", sl ? ", " : "", pr->config);
            continue;
        }
        if (pr->status == PREDICT_OK && pr->mem_unchecked && mix_index(&s->opt, pr->workload) == 0)
            st->mem_unchecked++;
        if (mix_index(&s->opt, pr->workload) != 0 || pr->status == PREDICT_OK ||
            pr->status == PREDICT_MEASURED || pr->status == PREDICT_NO_MEMORY)
            continue;
        if (pr->status == PREDICT_NO_CLOCK) {
            /* a transfer names its family: probing one of its sizes is not what it lacks
             * (issue 28.14: m5 and m6i were listed as "probe one size of") */
            size_t cl = strlen(st->no_clock_list);
            st->no_clock++;
            if (cl + strlen(pr->config) + 8 < sizeof st->no_clock_list)
                snprintf(st->no_clock_list + cl, sizeof st->no_clock_list - cl, "%s%s",
                         cl ? ", " : "", pr->config);
            continue;
        }
        if (pr->status != PREDICT_NO_SIBLING) {
            st->other++;
            continue;
        }
        st->not_predicted++;
        if (pr->family[0] && !strstr(st->families, pr->family) &&
            len + strlen(pr->family) + 8 < sizeof st->families)
            snprintf(st->families + len, sizeof st->families - len, "%s%s", len ? ", " : "",
                     pr->family);
    }
}

int rankpred_add(struct rank_set *s, const struct predict_set *ps, struct rankpred_stats *st,
                 FILE *errf)
{
    struct rp R;
    int problems;

    memset(st, 0, sizeof *st);
    memset(&R, 0, sizeof R);
    R.s = s;
    R.ps = ps;
    R.cat = s->cat;
    R.nm = s->opt.n_mix;
    R.old_n = s->n;
    point_list_init(&R.pts);
    if (rp_alloc(&R) != 0)
        goto nomem;
    rp_queue(&R);
    if (rp_group(&R) != 0 || (R.n_new && rp_grow(&R) != 0))
        goto nomem;
    if ((problems = rp_eval_sets(&R, errf)) < 0 || rp_add_rows(&R) != 0)
        goto nomem;
    st->added = R.n_new;
    st->sets = R.n_sets;
    rp_unpredicted(s, ps, st);
    if (rank_set_sort(s) != 0)
        goto nomem;
    rp_free(&R);
    return problems;
nomem:
    if (errf)
        fprintf(errf, "sizeup: out of memory\n");
    rp_free(&R);
    rank_set_destroy(s);
    return -1;
}
