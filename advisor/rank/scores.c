/* scores.c - score files and per-core scores (scores.h). */
#include "scores.h"

#include "jsonread.h"
#include "readfile.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void score_table_destroy(struct score_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        struct score_row *r = &t->rows[i];
        free(r->server);
        free(r->family);
        free(r->benchmark);
        free(r->processor);
        free(r->date);
        free(r->source);
    }
    for (size_t i = 0; i < t->n_cal; i++) {
        free(t->cal[i].spec);
        free(t->cal[i].source);
    }
    free(t->rows);
    free(t->cal);
    free(t->file);
    memset(t, 0, sizeof *t);
}

/* The largest score accepted: far above any benchmark's (Geekbench 6 multi-core of the largest
 * servers is about 1e5, stress-ng bogo ops/s 1e7), so a typo'd exponent is refused. */
#define SCORES_MAX 1e12

/* Largest score file read, bytes. */
#define SCORES_MAX_FILE_BYTES (64u << 20)

/* One row of "scores" at the reader's path: server, family, benchmark, vcpu, single and/or all,
 * processor, date, source. JR_OK or the reader's error. */
static int read_row(struct jr *r, const json_t *o, struct score_row *row)
{
    static const char *const keys[] = {"server", "family",    "benchmark", "vcpu",   "single",
                                       "all",    "processor", "date",      "source", NULL};
    long long vcpu = 0;
    int rc;
    if (!json_is_object(o))
        return jr_fail(r, "a score row (an object) is expected, got %s", jr_type_name(o));
    if ((rc = jr_check_keys(r, o, keys)) != JR_OK ||
        (rc = jr_get_str(r, o, "server", JR_REQUIRED, &row->server)) != JR_OK ||
        (rc = jr_get_str(r, o, "family", 0, &row->family)) != JR_OK ||
        (rc = jr_get_str(r, o, "benchmark", JR_REQUIRED, &row->benchmark)) != JR_OK ||
        (rc = jr_get_int(r, o, "vcpu", JR_REQUIRED, 1, 1 << 20, 0, &vcpu)) != JR_OK ||
        (rc = jr_get_num(r, o, "single", 0, 0, SCORES_MAX, NAN, &row->single)) != JR_OK ||
        (rc = jr_get_num(r, o, "all", 0, 0, SCORES_MAX, NAN, &row->all)) != JR_OK ||
        (rc = jr_get_str(r, o, "processor", 0, &row->processor)) != JR_OK ||
        (rc = jr_get_date(r, o, "date", 0, &row->date)) != JR_OK ||
        (rc = jr_get_str(r, o, "source", 0, &row->source)) != JR_OK)
        return rc;
    row->vcpu = (int)vcpu;
    if (row->single == 0)
        return jr_fail_key(r, "single", "a score must be above 0");
    if (row->all == 0)
        return jr_fail_key(r, "all", "a score must be above 0");
    if (isnan(row->single) && isnan(row->all))
        return jr_fail(r, "a score row needs 'single' and/or 'all' (positive numbers)");
    return JR_OK;
}

/* One entry of "calibration": spec (BENCH.single or BENCH.all), coverage in (0, 1), rel_error
 * >= 0, pairs, source. JR_OK or the reader's error. */
static int read_cal(struct jr *r, const json_t *o, struct score_cal *c)
{
    static const char *const keys[] = {"spec", "coverage", "rel_error", "pairs", "source", NULL};
    long long pairs = 0;
    char b[64];
    int rc, all;
    if (!json_is_object(o))
        return jr_fail(r, "a calibration entry (an object) is expected, got %s", jr_type_name(o));
    if ((rc = jr_check_keys(r, o, keys)) != JR_OK ||
        (rc = jr_get_str(r, o, "spec", JR_REQUIRED, &c->spec)) != JR_OK)
        return rc;
    if (score_spec_split(c->spec, b, sizeof b, &all) != 0)
        return jr_fail_key(r, "spec", "'%s' is not BENCH.single or BENCH.all", c->spec);
    if ((rc = jr_get_num(r, o, "coverage", JR_REQUIRED, 0, 1, NAN, &c->coverage)) != JR_OK)
        return rc;
    if (c->coverage == 0 || c->coverage == 1)
        return jr_fail_key(r, "coverage", "a share strictly between 0 and 1 is expected, got %g",
                           c->coverage);
    if ((rc = jr_get_num(r, o, "rel_error", JR_REQUIRED, 0, INFINITY, NAN, &c->rel_error)) !=
            JR_OK ||
        (rc = jr_get_int(r, o, "pairs", 0, 0, 1 << 30, 0, &pairs)) != JR_OK ||
        (rc = jr_get_str(r, o, "source", 0, &c->source)) != JR_OK)
        return rc;
    c->pairs = (int)pairs;
    return JR_OK;
}

/* Rows (pointers into one array) in (server, benchmark, file order) order, for no_twice. */
static int cmp_row(const void *a, const void *b)
{
    const struct score_row *p = *(const struct score_row *const *)a,
                           *q = *(const struct score_row *const *)b;
    int c = strcmp(p->server, q->server);
    if (!c)
        c = strcmp(p->benchmark, q->benchmark);
    return c ? c : (p > q) - (p < q);
}

/* Each (server, benchmark) once: the second row of a pair is refused at its position. Sorted,
 * O(n log n): a score file can hold every server of a provider. */
static int no_twice(struct jr *r, const struct score_table *t)
{
    const struct score_row **ix = malloc((t->n + 1) * sizeof *ix), *dup = NULL, *first = NULL;
    int rc = JR_OK;
    if (!ix)
        return jr_nomem(r);
    for (size_t i = 0; i < t->n; i++)
        ix[i] = &t->rows[i];
    qsort(ix, t->n, sizeof *ix, cmp_row);
    for (size_t i = 1; i < t->n; i++)
        if (strcmp(ix[i]->server, ix[i - 1]->server) == 0 &&
            strcmp(ix[i]->benchmark, ix[i - 1]->benchmark) == 0 && (!dup || ix[i] < dup)) {
            dup = ix[i]; /* the earliest second row in the file */
            first = ix[i - 1];
        }
    if (dup) {
        size_t n = jr_push_key(r, "scores");
        jr_push_index(r, (size_t)(dup - t->rows));
        rc = jr_fail(r,
                     "a second row of server '%s' and benchmark '%s' (the first is scores[%zu]): "
                     "give each once",
                     dup->server, dup->benchmark, (size_t)(first - t->rows));
        jr_pop(r, n);
    }
    free(ix);
    return rc;
}

/* The document: schema, description, scores, calibration. */
static int read_table(struct jr *r, const json_t *root, struct score_table *t)
{
    static const char *const keys[] = {"schema", "description", "scores", "calibration", NULL};
    const json_t *sch = json_object_get(root, "schema"), *rows = json_object_get(root, "scores"),
                 *cal = json_object_get(root, "calibration");
    size_t n;
    int rc;
    if (!json_is_string(sch) || strcmp(json_string_value(sch), SCORES_SCHEMA) != 0)
        return jr_fail_key(r, "schema", "\"%s\" is required: not a score file", SCORES_SCHEMA);
    if ((rc = jr_check_keys(r, root, keys)) != JR_OK)
        return rc;
    if (!json_is_array(rows))
        return jr_fail_key(r, "scores", "an array of score rows is expected");
    if (cal && !json_is_null(cal) && !json_is_array(cal))
        return jr_fail_key(r, "calibration", "an array of calibration entries is expected");
    if (!(t->rows = calloc(json_array_size(rows) + 1, sizeof *t->rows)) ||
        !(t->cal = calloc(json_array_size(cal) + 1, sizeof *t->cal)))
        return jr_nomem(r);
    for (size_t i = 0; i < json_array_size(rows); i++) {
        n = jr_push_key(r, "scores");
        jr_push_index(r, i);
        rc = read_row(r, json_array_get(rows, i), &t->rows[t->n++]);
        jr_pop(r, n);
        if (rc != JR_OK)
            return rc;
    }
    if ((rc = no_twice(r, t)) != JR_OK)
        return rc;
    for (size_t i = 0; i < json_array_size(cal); i++) {
        n = jr_push_key(r, "calibration");
        jr_push_index(r, i);
        rc = read_cal(r, json_array_get(cal, i), &t->cal[t->n_cal++]);
        jr_pop(r, n);
        if (rc != JR_OK)
            return rc;
    }
    return JR_OK;
}

int score_table_load(const char *path, struct score_table *t, char *err, size_t cap)
{
    json_error_t je;
    json_t *root;
    struct jr r;
    char *text = NULL;
    size_t len;
    int rc;
    memset(t, 0, sizeof *t);
    if (readfile(path, SCORES_MAX_FILE_BYTES, &text, &len, err, cap) != READFILE_OK)
        return -1;
    if (!(root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je))) {
        jr_syntax_error(err, cap, path, 1, &je);
        free(text);
        return -1;
    }
    jr_init(&r, path, text, len, 1, err, cap);
    if (!json_is_object(root))
        rc = jr_fail_at(&r, "$", "a %s object is expected, got %s", SCORES_SCHEMA,
                        jr_type_name(root));
    else if (!(t->file = strdup(path)))
        rc = jr_nomem(&r);
    else
        rc = read_table(&r, root, t);
    json_decref(root);
    free(text);
    if (rc != JR_OK) {
        score_table_destroy(t);
        return -1;
    }
    return 0;
}

int score_spec_split(const char *spec, char *bench, size_t bench_cap, int *all)
{
    const char *dot = spec ? strrchr(spec, '.') : NULL;
    if (!dot || dot == spec || (size_t)(dot - spec) >= bench_cap)
        return -1;
    if (strcmp(dot + 1, "all") == 0)
        *all = 1;
    else if (strcmp(dot + 1, "single") == 0)
        *all = 0;
    else
        return -1;
    snprintf(bench, bench_cap, "%.*s", (int)(dot - spec), spec);
    return 0;
}

static double row_score(const struct score_row *r, int all)
{
    return all ? r->all / r->vcpu : r->single;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double score_per_core(const struct score_table *t, const char *spec, const char *name,
                      const char *family, int *from_family)
{
    char bench[64];
    int all;
    size_t n = 0;
    double *v, med = NAN;
    if (from_family)
        *from_family = 0;
    if (!t || score_spec_split(spec, bench, sizeof bench, &all) != 0)
        return NAN;
    for (size_t i = 0; name && i < t->n; i++)
        if (strcmp(t->rows[i].server, name) == 0 && strcmp(t->rows[i].benchmark, bench) == 0 &&
            isfinite(row_score(&t->rows[i], all)))
            return row_score(&t->rows[i], all);
    if (!family || !(v = malloc((t->n + 1) * sizeof *v)))
        return NAN;
    for (size_t i = 0; i < t->n; i++)
        if (t->rows[i].family && strcmp(t->rows[i].family, family) == 0 &&
            strcmp(t->rows[i].benchmark, bench) == 0 && isfinite(row_score(&t->rows[i], all)))
            v[n++] = row_score(&t->rows[i], all);
    if (n) {
        qsort(v, n, sizeof *v, cmp_double);
        med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        if (from_family)
            *from_family = 1;
    }
    free(v);
    return med;
}

const struct score_cal *score_calibration(const struct score_table *t, const char *spec)
{
    for (size_t i = 0; t && spec && i < t->n_cal; i++)
        if (strcmp(t->cal[i].spec, spec) == 0)
            return &t->cal[i];
    return NULL;
}

const char *score_best_spec(const struct score_table *t)
{
    const struct score_cal *best = NULL;
    for (size_t i = 0; t && i < t->n_cal; i++)
        if (!best || t->cal[i].rel_error < best->rel_error)
            best = &t->cal[i];
    return best ? best->spec : NULL;
}
