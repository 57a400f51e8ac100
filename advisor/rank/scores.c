/* scores.c - score files and per-core scores (scores.h). */
#include "scores.h"

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

/* A string member or NULL; *bad set when it is there and not a string. */
static char *dup_member(json_t *o, const char *k, int *bad)
{
    json_t *v = json_object_get(o, k);
    char *s;
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        *bad = 1;
        return NULL;
    }
    if (!(s = strdup(json_string_value(v))))
        *bad = 2;
    return s;
}

/* A number member > 0, NAN when absent; *bad set when present and not a positive number. */
static double pos_member(json_t *o, const char *k, int *bad)
{
    json_t *v = json_object_get(o, k);
    double x;
    if (!v || json_is_null(v))
        return NAN;
    x = json_number_value(v);
    if (!json_is_number(v) || !(x > 0) || !isfinite(x))
        *bad = 1;
    return x;
}

int score_table_load(const char *path, struct score_table *t, char *err, size_t cap)
{
    json_error_t je;
    json_t *root, *rows, *cal, *sch;
    size_t i;
    memset(t, 0, sizeof *t);
    if (!(root = json_load_file(path, 0, &je))) {
        snprintf(err, cap, "%s:%d: %s", path, je.line, je.text);
        return -1;
    }
    sch = json_object_get(root, "schema");
    rows = json_object_get(root, "scores");
    cal = json_object_get(root, "calibration");
    if (!json_is_string(sch) || strcmp(json_string_value(sch), "sizeup.scores/1") != 0 ||
        !json_is_array(rows) || (cal && !json_is_array(cal))) {
        snprintf(err, cap,
                 "%s: not a score file (expected \"schema\": \"sizeup.scores/1\" and a "
                 "\"scores\" array)",
                 path);
        goto fail;
    }
    if (!(t->file = strdup(path)) ||
        !(t->rows = calloc(json_array_size(rows) + 1, sizeof *t->rows)) ||
        !(t->cal = calloc(json_array_size(cal) + 1, sizeof *t->cal))) {
        snprintf(err, cap, "out of memory");
        goto fail;
    }
    for (i = 0; i < json_array_size(rows); i++) {
        json_t *o = json_array_get(rows, i), *v = json_object_get(o, "vcpu");
        struct score_row *r = &t->rows[t->n++];
        int bad = 0;
        r->server = dup_member(o, "server", &bad);
        r->family = dup_member(o, "family", &bad);
        r->benchmark = dup_member(o, "benchmark", &bad);
        r->processor = dup_member(o, "processor", &bad);
        r->date = dup_member(o, "date", &bad);
        r->source = dup_member(o, "source", &bad);
        r->single = pos_member(o, "single", &bad);
        r->all = pos_member(o, "all", &bad);
        if (bad == 2) {
            snprintf(err, cap, "out of memory");
            goto fail;
        }
        if (bad || !r->server || !r->benchmark || !json_is_integer(v) ||
            json_integer_value(v) <= 0 || json_integer_value(v) > 1 << 20 ||
            (isnan(r->single) && isnan(r->all))) {
            snprintf(err, cap,
                     "%s: scores[%zu]: expected server, benchmark (strings), vcpu (a positive "
                     "integer) and single and/or all (positive numbers)",
                     path, i);
            goto fail;
        }
        r->vcpu = (int)json_integer_value(v);
    }
    for (i = 0; i < json_array_size(cal); i++) {
        json_t *o = json_array_get(cal, i), *p = json_object_get(o, "pairs");
        struct score_cal *c = &t->cal[t->n_cal++];
        int bad = 0, all;
        char b[64];
        c->spec = dup_member(o, "spec", &bad);
        c->source = dup_member(o, "source", &bad);
        c->coverage = json_number_value(json_object_get(o, "coverage"));
        c->rel_error = json_number_value(json_object_get(o, "rel_error"));
        c->pairs = json_is_integer(p) ? (int)json_integer_value(p) : 0;
        if (bad == 2) {
            snprintf(err, cap, "out of memory");
            goto fail;
        }
        if (bad || !c->spec || score_spec_split(c->spec, b, sizeof b, &all) != 0 ||
            !(c->coverage > 0 && c->coverage < 1) || !(c->rel_error >= 0) ||
            !isfinite(c->rel_error)) {
            snprintf(err, cap,
                     "%s: calibration[%zu]: expected spec (BENCH.single or BENCH.all), coverage "
                     "in (0, 1) and rel_error >= 0",
                     path, i);
            goto fail;
        }
    }
    json_decref(root);
    return 0;
fail:
    json_decref(root);
    return -1;
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
