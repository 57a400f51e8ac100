/* suite_rank.c - configurations ranked by the cost of one query-suite run (suite_rank.h). */
#include "suite_rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void suite_ranking_init(struct suite_ranking_set *s)
{
    memset(s, 0, sizeof *s);
}

void suite_ranking_destroy(struct suite_ranking_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->r[i].rows);
    free(s->r);
    suite_ranking_init(s);
}

static struct suite_ranking *ranking_of(struct suite_ranking_set *s, const char *suite)
{
    struct suite_ranking *n;
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->r[i].suite, suite) == 0)
            return &s->r[i];
    if (!(n = realloc(s->r, (s->n + 1) * sizeof *n)))
        return NULL;
    s->r = n;
    memset(&s->r[s->n], 0, sizeof s->r[0]);
    s->r[s->n].suite = suite;
    return &s->r[s->n++];
}

static int add_row(struct suite_ranking_set *s, const struct suite_run *run, const char *config,
                   const char *measured_on, FILE *errf, int *problems)
{
    struct suite_ranking *k = ranking_of(s, run->suite);
    struct suite_rank_row *row, *n;
    struct cat_cost cost;
    struct cat_error err;
    if (!k || !(n = realloc(k->rows, (k->n + 1) * sizeof *n)))
        return -1;
    k->rows = n;
    row = &k->rows[k->n++];
    memset(row, 0, sizeof *row);
    row->run = run;
    row->config = config;
    row->measured_on = measured_on;
    row->total_s = suite_total_s(run);
    row->n_failed = suite_failed(run);
    row->cost_per_hour = row->cost_per_run = NAN;
    if (cat_config_cost(s->cat, config, s->pricing, 0, &cost, &err) == CAT_OK) {
        row->priced = 1;
        row->cost_per_hour = cost.per_hour;
        row->cost_estimate = cost.estimate;
        row->cost_per_run = cost.per_hour * row->total_s / 3600;
    } else {
        if (errf)
            fprintf(errf, "sizeup: %s: no %s price: %s\n", config, cat_pricing_name(s->pricing),
                    err.msg);
        (*problems)++;
    }
    return 0;
}

/* Order: priced complete runs by cost, then priced incomplete ones, then unpriced. */
static int row_class(const struct suite_rank_row *r)
{
    return !r->priced ? 2 : r->n_failed ? 1 : 0;
}

static int cmp_cost(const void *a, const void *b)
{
    const struct suite_rank_row *x = a, *y = b;
    int cx = row_class(x), cy = row_class(y);
    if (cx != cy)
        return cx - cy;
    if (cx < 2 && x->cost_per_run != y->cost_per_run)
        return x->cost_per_run < y->cost_per_run ? -1 : 1;
    if (x->total_s != y->total_s)
        return x->total_s < y->total_s ? -1 : 1;
    return strcmp(x->config, y->config);
}

static void assign_ranks(struct suite_ranking *k)
{
    qsort(k->rows, k->n, sizeof k->rows[0], cmp_cost);
    for (size_t i = 0; i < k->n; i++) {
        struct suite_rank_row *r = &k->rows[i];
        int rc = 1, rt = 1;
        for (size_t j = 0; j < k->n; j++) {
            const struct suite_rank_row *o = &k->rows[j];
            if (j != i && cmp_cost(o, r) < 0 &&
                !(row_class(o) == row_class(r) && o->cost_per_run == r->cost_per_run))
                rc++;
            if (j != i && (o->n_failed < r->n_failed ||
                           (o->n_failed == r->n_failed && o->total_s < r->total_s)))
                rt++;
        }
        r->rank_cost = rc;
        r->rank_time = rt;
    }
}

int suite_ranking_build(struct suite_ranking_set *s, const struct suite_list *runs,
                        const struct cat_catalog *cat, enum cat_pricing pricing,
                        const struct rank_map *maps, size_t n_maps, const char *only, FILE *errf)
{
    int problems = 0;
    size_t joined = 0;
    s->cat = cat;
    s->pricing = pricing;
    for (size_t i = 0; i < runs->n; i++) {
        const struct suite_run *run = &runs->items[i];
        const char *first = NULL;
        size_t before = joined;
        if (only && strcmp(run->suite, only) != 0)
            continue;
        if (run->config) {
            if (!cat_find_config(cat, run->config)) {
                if (errf)
                    fprintf(errf,
                            "sizeup: %s:%ld: suite %s of %s: no configuration %s in the "
                            "catalogs\n",
                            run->source_file ? run->source_file : "?", run->source_line, run->suite,
                            run->target, run->config);
                problems++;
                continue;
            }
            if (add_row(s, run, run->config, NULL, errf, &problems))
                goto nomem;
            joined++;
            continue;
        }
        /* measured on the configuration named like the target, else on the first --map */
        if (cat_find_config(cat, run->target))
            first = run->target;
        for (size_t m = 0; m < n_maps && !first; m++)
            if (strcmp(maps[m].target, run->target) == 0)
                first = maps[m].config;
        for (size_t m = 0; m < n_maps; m++) {
            if (strcmp(maps[m].target, run->target) != 0)
                continue;
            if (!cat_find_config(cat, maps[m].config)) {
                if (errf)
                    fprintf(errf, "sizeup: --map %s=%s: no configuration %s in the catalogs\n",
                            maps[m].target, maps[m].config, maps[m].config);
                problems++;
                continue;
            }
            if (strcmp(maps[m].config, run->target) == 0 && cat_find_config(cat, run->target))
                continue; /* added below as the measured one */
            if (add_row(s, run, maps[m].config, strcmp(maps[m].config, first) == 0 ? NULL : first,
                        errf, &problems))
                goto nomem;
            joined++;
        }
        if (cat_find_config(cat, run->target)) {
            if (add_row(s, run, run->target, NULL, errf, &problems))
                goto nomem;
            joined++;
        }
        if (joined == before) {
            if (errf)
                fprintf(errf,
                        "sizeup: %s:%ld: suite %s of %s joins no configuration (no config "
                        "id, no --map %s=ID, no configuration named %s)\n",
                        run->source_file ? run->source_file : "?", run->source_line, run->suite,
                        run->target, run->target, run->target);
            problems++;
        }
    }
    if (joined == 0) {
        if (errf && only)
            fprintf(errf, "sizeup: no run of suite %s joins a configuration\n", only);
        else if (errf)
            fprintf(errf, "sizeup: no suite run joins a configuration\n");
        return -1;
    }
    for (size_t i = 0; i < s->n; i++)
        assign_ranks(&s->r[i]);
    return problems;
nomem:
    if (errf)
        fprintf(errf, "sizeup: out of memory\n");
    return -1;
}

/* A figure of 4 significant digits at most, without exponent ("0.2604", "8.315", "1234"). */
static const char *fig(double v, char *buf, size_t cap)
{
    if (isnan(v))
        snprintf(buf, cap, "-");
    else if (fabs(v) >= 1000)
        snprintf(buf, cap, "%.0f", v);
    else if (fabs(v) >= 100)
        snprintf(buf, cap, "%.1f", v);
    else if (fabs(v) >= 10)
        snprintf(buf, cap, "%.2f", v);
    else if (fabs(v) >= 1)
        snprintf(buf, cap, "%.3f", v);
    else
        snprintf(buf, cap, "%.4g", v);
    return buf;
}

/* The queries of the suite across the rows, ordered by seconds on the first row (failed and
 * absent last). */
struct qref {
    const char *name;
    double s0;
};

static int cmp_q(const void *a, const void *b)
{
    const struct qref *x = a, *y = b;
    int nx = isnan(x->s0), ny = isnan(y->s0);
    if (nx != ny)
        return nx - ny;
    if (!nx && x->s0 != y->s0)
        return x->s0 > y->s0 ? -1 : 1;
    return 0;
}

#define MAX_QCOLS 6

static void write_queries(FILE *f, const struct suite_ranking *k)
{
    size_t nq = 0, cap = 0, cols = k->n < MAX_QCOLS ? k->n : MAX_QCOLS;
    struct qref *q = NULL;
    const struct suite_run *r0 = k->rows[0].run;
    double total0 = k->rows[0].total_s, cum = 0;
    char a[32];
    for (size_t i = 0; i < k->n; i++) {
        const struct suite_run *run = k->rows[i].run;
        for (size_t j = 0; j < run->n_q; j++) {
            int seen = 0;
            for (size_t m = 0; m < nq && !seen; m++)
                seen = strcmp(q[m].name, run->q[j].name) == 0;
            if (seen)
                continue;
            if (nq == cap) {
                struct qref *nn = realloc(q, (cap = cap ? cap * 2 : 64) * sizeof *nn);
                if (!nn) {
                    free(q);
                    return;
                }
                q = nn;
            }
            q[nq].name = run->q[j].name;
            {
                const struct suite_query *x = suite_find_query(r0, run->q[j].name);
                q[nq].s0 = x && !x->failed ? x->seconds : NAN;
            }
            nq++;
        }
    }
    qsort(q, nq, sizeof *q, cmp_q);
    fprintf(f,
            "\nper query, seconds (largest first; share and running share of the total on %s):\n",
            k->rows[0].config);
    fprintf(f, "%-8s", "query");
    for (size_t c = 0; c < cols; c++)
        fprintf(f, " %22.22s", k->rows[c].config);
    fprintf(f, " %7s %7s\n", "share", "running");
    for (size_t m = 0; m < nq; m++) {
        fprintf(f, "%-8.8s", q[m].name);
        for (size_t c = 0; c < cols; c++) {
            const struct suite_query *x = suite_find_query(k->rows[c].run, q[m].name);
            if (!x)
                fprintf(f, " %22s", "-");
            else if (x->failed)
                fprintf(f, " %22s", "failed");
            else
                fprintf(f, " %22.2f", x->seconds);
        }
        if (!isnan(q[m].s0) && total0 > 0) {
            cum += q[m].s0;
            fprintf(f, " %6.1f%% %6.1f%%\n", 100 * q[m].s0 / total0, 100 * cum / total0);
        } else {
            fprintf(f, " %7s %7s\n", "-", "-");
        }
    }
    fprintf(f, "%-8s", "total");
    for (size_t c = 0; c < cols; c++) {
        char tot[40];
        snprintf(tot, sizeof tot, "%s%.2f", k->rows[c].n_failed ? ">=" : "", k->rows[c].total_s);
        fprintf(f, " %22s", tot);
    }
    fprintf(f, "\n%-8s", "cost/run");
    for (size_t c = 0; c < cols; c++)
        fprintf(f, " %22s", fig(k->rows[c].cost_per_run, a, sizeof a));
    fprintf(f, "\n");
    if (k->n > cols)
        fprintf(f, "(the first %zu configurations of %zu)\n", cols, k->n);
    free(q);
}

int suite_ranking_write_text(FILE *f, const struct suite_ranking_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct suite_ranking *k = &s->r[i];
        size_t w = 20, n_est = 0, nq = 0;
        char a[32], b[32], t[40];
        for (size_t j = 0; j < k->n; j++) {
            if (strlen(k->rows[j].config) > w)
                w = strlen(k->rows[j].config);
            if (k->rows[j].run->n_q > nq)
                nq = k->rows[j].run->n_q;
        }
        if (i > 0)
            fprintf(f, "\n");
        fprintf(f,
                "suite %s, %zu queries; %s prices in %s; cost per run = price per hour x total "
                "s / 3600\n",
                k->suite, nq, cat_pricing_name(s->pricing), s->cat->currency);
        fprintf(f, "rank %-*s %10s %4s %9s %9s %6s basis\n", (int)w, "config", "total s", "time",
                "cost/h", "cost/run", "failed");
        for (size_t j = 0; j < k->n; j++) {
            const struct suite_rank_row *r = &k->rows[j];
            snprintf(t, sizeof t, "%s%.2f", r->n_failed ? ">=" : "", r->total_s);
            fprintf(f, "%4d %-*s %10s %4d %9s %9s %6zu ", r->rank_cost, (int)w, r->config, t,
                    r->rank_time, fig(r->cost_per_hour, a, sizeof a),
                    fig(r->cost_per_run, b, sizeof b), r->n_failed);
            if (r->measured_on)
                fprintf(f, "same times as %s\n", r->measured_on);
            else
                fprintf(f, "measured\n");
            n_est += r->cost_estimate != 0;
        }
        if (n_est) {
            fprintf(f, "note: estimated prices in the cost of");
            for (size_t j = 0, m = 0; j < k->n; j++)
                if (k->rows[j].cost_estimate)
                    fprintf(f, "%s %s", m++ ? "," : "", k->rows[j].config);
            fprintf(f, "\n      (sizeup catalog cost ID shows each term and its source)\n");
        }
        for (size_t j = 0; j < k->n; j++)
            if (k->rows[j].measured_on) {
                fprintf(f, "note: \"same times as X\": the suite ran on X only; its times are "
                           "taken as they are\n      on the other configurations\n");
                break;
            }
        for (size_t j = 0; j < k->n; j++)
            if (k->rows[j].n_failed) {
                fprintf(f, "note: a run with failed queries ranks after the complete ones; its "
                           "total and cost\n      cover the queries that completed (>=)\n");
                break;
            }
        fprintf(f,
                "time: rank by suite time (the fewest failed queries, then the shortest total)\n");
        write_queries(f, k);
    }
    return ferror(f) ? -1 : 0;
}

int suite_ranking_write_json(FILE *f, const struct suite_ranking_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct suite_ranking *k = &s->r[i];
        for (size_t j = 0; j < k->n; j++) {
            const struct suite_rank_row *r = &k->rows[j];
            json_t *o =
                json_pack("{s:s,s:s,s:i,s:i,s:s,s:s,s:s,s:f,s:b,s:I,s:I,s:s,s:s}", "schema",
                          SUITE_RANKING_SCHEMA, "suite", k->suite, "rank", r->rank_cost,
                          "rank_time", r->rank_time, "config", r->config, "target", r->run->target,
                          "basis", r->measured_on ? "same_times" : "measured", "total_s",
                          r->total_s, "complete", r->n_failed == 0, "n_queries",
                          (json_int_t)r->run->n_q, "n_failed", (json_int_t)r->n_failed, "currency",
                          s->cat->currency, "pricing", cat_pricing_name(s->pricing));
            char *line;
            int rc = 0;
            if (!o)
                return -1;
            if (r->measured_on)
                rc |= json_object_set_new(o, "measured_on", json_string(r->measured_on));
            if (r->priced) {
                rc |= json_object_set_new(o, "cost_per_hour", json_real(r->cost_per_hour));
                rc |= json_object_set_new(o, "cost_per_run", json_real(r->cost_per_run));
                rc |= json_object_set_new(o, "estimate", json_boolean(r->cost_estimate));
            }
            line = rc ? NULL
                      : json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
            json_decref(o);
            if (!line)
                return -1;
            fprintf(f, "%s\n", line);
            free(line);
        }
    }
    return ferror(f) ? -1 : 0;
}
