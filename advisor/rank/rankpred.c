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

int rankpred_add(struct rank_set *s, const struct predict_set *ps, struct rankpred_stats *st,
                 FILE *errf)
{
    const struct cat_catalog *cat = s->cat;
    size_t nm = s->opt.n_mix, n_new = 0, n_sets = 0, cap_sets = 0, old_n = s->n;
    unsigned char *in_set = NULL;
    long *pc = NULL, *first = NULL, *cfg_set = NULL;
    size_t *order = NULL;
    struct pset *sets = NULL;
    struct point_list pts;
    struct usl_workspace *ws = NULL;
    struct curve_spec spec = curve_spec_default();
    int problems = 0;
    char buf[512];

    memset(st, 0, sizeof *st);
    point_list_init(&pts);
    in_set = calloc(cat->n_configs + 1, 1);
    pc = malloc((cat->n_configs * nm + 1) * sizeof *pc);
    cfg_set = malloc((cat->n_configs + 1) * sizeof *cfg_set);
    order = malloc((cat->n_configs + 1) * sizeof *order);
    first = malloc((ps->n_curves + 1) * sizeof *first);
    ws = usl_workspace_new();
    if (!in_set || !pc || !cfg_set || !order || !first || !ws)
        goto nomem;
    for (size_t k = 0; k < s->n; k++) {
        const struct cat_config *cf = cat_find_config(cat, s->config[k]);
        if (cf)
            in_set[cf - cat->configs] = 1;
    }
    for (size_t i = 0; i < cat->n_configs * nm; i++)
        pc[i] = -1;
    for (size_t c = 0; c <= ps->n_curves; c++)
        first[c] = -1;
    /* the predicted curves of each configuration not ranked yet */
    for (size_t r = 0; r < ps->n_rows; r++) {
        const struct predict_row *pr = &ps->rows[r];
        const struct cat_config *cf;
        long w = mix_index(&s->opt, pr->workload);
        size_t k;
        if (w < 0 || pr->status != PREDICT_OK || !(cf = cat_find_config(cat, pr->config)))
            continue;
        k = (size_t)(cf - cat->configs);
        if (in_set[k] == 1)
            continue; /* ranked on its own points */
        if (in_set[k] == 0) {
            in_set[k] = 2; /* queued */
            order[n_new++] = k;
        }
        pc[k * nm + (size_t)w] = pr->curve;
    }
    /* distinct sets of curves */
    for (size_t q = 0; q < n_new; q++) {
        size_t k = order[q];
        long c0 = pc[k * nm] >= 0 ? pc[k * nm] : (long)ps->n_curves, j;
        for (j = first[c0]; j >= 0; j = sets[j].next)
            if (memcmp(sets[j].curve, &pc[k * nm], nm * sizeof *pc) == 0)
                break;
        if (j < 0) {
            if (n_sets == cap_sets) {
                size_t cap = cap_sets ? 2 * cap_sets : 16;
                struct pset *g = realloc(sets, cap * sizeof *g);
                if (!g)
                    goto nomem;
                sets = g;
                cap_sets = cap;
            }
            memset(&sets[n_sets], 0, sizeof sets[n_sets]);
            memcpy(sets[n_sets].curve, &pc[k * nm], nm * sizeof *pc);
            sets[n_sets].next = first[c0];
            first[c0] = (long)n_sets;
            j = (long)n_sets++;
        }
        cfg_set[k] = j;
    }
    /* a row of each curve, for its points */
    for (size_t r = 0; r < ps->n_rows; r++) {
        const struct predict_row *pr = &ps->rows[r];
        long w = mix_index(&s->opt, pr->workload);
        if (w < 0 || pr->status != PREDICT_OK)
            continue;
        for (size_t j = 0; j < n_sets; j++)
            if (sets[j].curve[w] == pr->curve)
                sets[j].row[w] = r;
    }
    /* grow the ranking */
    if (n_new) {
        size_t n = s->n + n_new, ns = s->n_sets + n_sets;
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
            memset(s->curves + s->n_sets * nm, 0, n_sets * nm * sizeof *curves);
        }
        struct rank_at *at = realloc(s->at, ns * nm * sizeof *at);
        if (!at)
            goto nomem;
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
                goto nomem;
            memset(nt + old_n, 0, (n - old_n) * sizeof *nt);
            s->note = nt;
        }
        if (s->measured) {
            char **ms = realloc(s->measured, n * sizeof *ms);
            if (!ms)
                goto nomem;
            memset(ms + old_n, 0, (n - old_n) * sizeof *ms);
            s->measured = ms;
        }
        if (!config || !config_set || !rows || !row_curve || !curves || !from)
            goto nomem;
    }
    spec.x = CURVE_X_THREADS;
    spec.lat_pct = s->opt.slo.pct;
    spec.source = CURVE_SOURCE_PREDICTED;
    for (size_t j = 0; j < n_sets; j++) {
        struct pset *P = &sets[j];
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
            point_list_truncate(&pts, 0);
            if (predict_row_points(ps, P->row[w], &pts) != POINT_OK)
                goto nomem;
            for (size_t i = 0; i < pts.n && i < 256; i++)
                idx[i] = i;
            rc = curve_init_points(c, &pts, idx, pts.n < 256 ? pts.n : 256, &spec, ws, err,
                                   sizeof err);
            if (rc == CURVE_ENOMEM)
                goto nomem;
            if (rc != CURVE_OK) {
                problems++;
                if (errf)
                    fprintf(errf, "sizeup: predicted %s / %s: %s\n", ps->rows[P->row[w]].config,
                            s->opt.mix[w].workload, err);
                continue;
            }
            cv[w] = c;
        }
        rank_row_eval(&P->tmpl, s->at + P->set * nm, "", 1, cv, &s->opt);
        rank_row_widen_predicted(&P->tmpl, cv, &s->opt);
    }
    /* one row per configuration: the set's evaluation, its own price */
    for (size_t q = 0; q < n_new; q++) {
        size_t k = order[q], i = s->n;
        const struct cat_config *cf = &cat->configs[k];
        struct pset *P = &sets[cfg_set[k]];
        const struct curve *cv[RANK_MAX_MIX];
        if (!(s->config[i] = strdup(cf->id)))
            goto nomem;
        s->from[i] = NULL;
        s->config_set[i] = P->set;
        s->row_curve[i] = i;
        s->n++;
        for (size_t w = 0; w < nm; w++)
            cv[w] = s->curves[P->set * nm + w].m ? &s->curves[P->set * nm + w] : NULL;
        for (size_t w = 0; w < nm; w++)
            if (P->curve[w] >= 0) {
                predict_curve_from(ps, &ps->curves[P->curve[w]], buf, sizeof buf);
                if (!(s->from[i] = strdup(buf)))
                    goto nomem;
                break;
            }
        s->rows[i] = P->tmpl;
        s->rows[i].config = s->config[i];
        s->rows[i].config_nodes = cf->nodes > 0 ? cf->nodes : 1;
        rank_set_price_row(s, &s->rows[i], cv);
    }
    st->added = n_new;
    st->sets = n_sets;
    /* what is neither measured nor predicted, by family */
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
    if (rank_set_sort(s) != 0)
        goto nomem;
    free(in_set);
    free(pc);
    free(cfg_set);
    free(order);
    free(first);
    free(sets);
    point_list_destroy(&pts);
    usl_workspace_free(ws);
    return problems;
nomem:
    if (errf)
        fprintf(errf, "sizeup: out of memory\n");
    free(in_set);
    free(pc);
    free(cfg_set);
    free(order);
    free(first);
    free(sets);
    point_list_destroy(&pts);
    usl_workspace_free(ws);
    rank_set_destroy(s);
    return -1;
}
