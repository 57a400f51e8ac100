/* study.c - load and validate a sizeup.study/1 file. */
#include "study.h"
#include "setinput.h"
#include "tco.h"
#include "textsafe.h"
#include "workload.h"

#include "jsonread.h"

#include "limit.h"
#include "readfile.h"
#include "units.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Largest study file read. */
#define STUDY_MAX_FILE_BYTES ((size_t)16 * 1024 * 1024)

/* A path relative to the study's folder (URLs and absolute paths unchanged). */
static char *resolve(const struct study *s, const char *p)
{
    size_t n;
    char *r;
    if (p[0] == '/' || strstr(p, "://") || !s->dir || !*s->dir)
        return strdup(p);
    n = strlen(s->dir) + strlen(p) + 2;
    r = malloc(n);
    if (r)
        snprintf(r, n, "%s/%s", s->dir, p);
    return r;
}

/* The reader's getters at an absolute path built here (jpath), back to "$" after. */
static int only_keys(struct jr *l, json_t *o, const char *jpath, const char *const *keys)
{
    int rc;
    jr_set_path(l, jpath);
    rc = jr_check_keys(l, o, keys);
    jr_set_path(l, "$");
    return rc;
}

static int get_str(struct jr *l, json_t *o, const char *key, const char *jpath, int required,
                   char **out)
{
    char *v = NULL;
    int rc;
    char vis[160];
    jr_set_path(l, jpath);
    rc = jr_get_str(l, o, key, required ? JR_REQUIRED : 0, &v);
    if (rc == JR_OK && v && textsafe_control_at(v) >= 0) {
        /* names and paths are printed to terminals and reports (issue 27.5) */
        rc = jr_fail_key(l, key, "a control character in \"%s\": remove it",
                         textsafe_visible(v, vis, sizeof vis));
        free(v);
        v = NULL;
    }
    jr_set_path(l, "$");
    if (rc == JR_OK && v)
        *out = v; /* absent: *out is left as it was */
    return rc;
}

static int get_int(struct jr *l, json_t *o, const char *key, const char *jpath, long min, long max,
                   long *out)
{
    long long v;
    int rc;
    jr_set_path(l, jpath);
    rc = jr_get_int(l, o, key, 0, min, max, *out, &v);
    jr_set_path(l, "$");
    *out = (long)v;
    return rc;
}

/* An integer key within one of the probe's limits (limit.h). */
static int get_limited(struct jr *l, json_t *o, const char *key, const char *jpath,
                       enum limit_id id, long *out)
{
    const struct limit *lim = limit_get(id);
    return get_int(l, o, key, jpath, (long)lim->min, (long)lim->max, out);
}

static int load_candidate(struct jr *l, struct study *s, json_t *c, size_t i)
{
    static const char *const keys[] = {"config",     "target",  "mysql",   "tables",
                                       "table_size", "clients", "results", NULL};
    static const char *const mkeys[] = {"host",          "port",          "socket", "user", "db",
                                        "password_file", "defaults_file", "group",  NULL};
    struct study_candidate *cd = &s->cand[i];
    char jp[64], mp[80];
    json_t *m, *res;
    long port = 0;
    snprintf(jp, sizeof jp, "$.candidates[%zu]", i);
    if (!json_is_object(c))
        return jr_fail_at(l, jp, "expected an object with \"config\" and \"mysql\" or \"results\"");
    if (only_keys(l, c, jp, keys) || get_str(l, c, "config", jp, 1, &cd->config) ||
        get_str(l, c, "target", jp, 0, &cd->target))
        return -1;
    if (!cd->target && !(cd->target = strdup(cd->config)))
        return jr_fail_at(l, jp, "out of memory");
    cd->tables = 4;
    cd->table_size = 10000;
    cd->data_set_given = json_object_get(c, "tables") || json_object_get(c, "table_size");
    if (get_limited(l, c, "tables", jp, LIMIT_TABLES, &cd->tables) ||
        get_limited(l, c, "table_size", jp, LIMIT_TABLE_SIZE, &cd->table_size))
        return -1;
    cd->clients = 1;
    if (get_int(l, c, "clients", jp, 1, STUDY_MAX_CLIENTS, &cd->clients))
        return -1;
    m = json_object_get(c, "mysql");
    res = json_object_get(c, "results");
    if ((m != NULL) == (res != NULL))
        return jr_fail_at(l, jp,
                          "expected exactly one of \"mysql\" (probe a server) or \"results\" "
                          "(import files)");
    if (m) {
        snprintf(mp, sizeof mp, "%s.mysql", jp);
        if (!json_is_object(m))
            return jr_fail_at(l, mp, "expected an object {host, port, user, db, ...}");
        cd->probe = 1;
        if (only_keys(l, m, mp, mkeys) || get_str(l, m, "host", mp, 0, &cd->mysql.host) ||
            get_str(l, m, "socket", mp, 0, &cd->mysql.socket) ||
            get_str(l, m, "user", mp, 0, &cd->mysql.user) ||
            get_str(l, m, "db", mp, 0, &cd->mysql.db) ||
            get_str(l, m, "password_file", mp, 0, &cd->mysql.password_file) ||
            get_str(l, m, "defaults_file", mp, 0, &cd->mysql.defaults_file) ||
            get_str(l, m, "group", mp, 0, &cd->mysql.group) ||
            get_limited(l, m, "port", mp, LIMIT_PORT, &port))
            return -1;
        cd->mysql.port = (int)port;
        if (cd->mysql.password_file) {
            char *r = resolve(s, cd->mysql.password_file);
            free(cd->mysql.password_file);
            cd->mysql.password_file = r;
        }
        if (cd->mysql.defaults_file) {
            /* read by Connector/C as `sizeup probe --defaults-file` reads it: only that file;
             * a missing one is refused here, before anything is probed */
            char *r = resolve(s, cd->mysql.defaults_file), dp[96];
            free(cd->mysql.defaults_file);
            cd->mysql.defaults_file = r;
            snprintf(dp, sizeof dp, "%s.defaults_file", mp);
            if (!r)
                return jr_fail_at(l, dp, "out of memory");
            if (access(r, R_OK) != 0)
                return jr_fail_at(l, dp, "%s: %s", r, strerror(errno));
        }
    } else {
        size_t k;
        json_t *f;
        snprintf(mp, sizeof mp, "%s.results", jp);
        if (!json_is_array(res) || json_array_size(res) == 0)
            return jr_fail_at(l, mp, "expected a non-empty array of file names");
        cd->results = calloc(json_array_size(res), sizeof *cd->results);
        if (!cd->results)
            return jr_fail_at(l, mp, "out of memory");
        json_array_foreach(res, k, f)
        {
            char fp[128];
            snprintf(fp, sizeof fp, "%s[%zu]", mp, k);
            if (!json_is_string(f) || json_string_length(f) == 0)
                return jr_fail_at(l, fp, "expected a file name");
            cd->results[k] = resolve(s, json_string_value(f));
            if (!cd->results[k])
                return jr_fail_at(l, fp, "out of memory");
            cd->n_results = k + 1;
        }
    }
    return 0;
}

/* "require": a sizeup.workload/1 record (workload.h) gives the workloads, the required
 * throughput (its require_at statistic of the mix's tps x growth x (1 + headroom), as rank
 * --require) and the data set of the candidates that name none. */
static int load_require(struct jr *l, json_t *root, struct study *s)
{
    struct workload_req q;
    char *file = NULL, *at = NULL, msg[1024];
    double x, x_tps, growth = 1, headroom = 0.3;
    const struct limit *ts = limit_get(LIMIT_TABLE_SIZE), *tb = limit_get(LIMIT_TABLES);
    if (json_object_get(root, "workloads"))
        return jr_fail_at(l, "$.workloads",
                          "\"require\" takes the workloads from the record: leave \"workloads\" "
                          "out");
    if (get_str(l, root, "require", "$", 1, &file) || get_str(l, root, "require_at", "$", 0, &at) ||
        jr_get_num(l, root, "growth", 0, 1e-3, 1e6, 1, &growth) ||
        jr_get_num(l, root, "headroom", 0, 0, 100, 0.3, &headroom)) {
        free(file);
        free(at);
        return -1;
    }
    s->require = resolve(s, file);
    free(file);
    if (!s->require) {
        free(at);
        return jr_fail_at(l, "$.require", "out of memory");
    }
    if (s->no_files) {
        free(at);
        return jr_fail_at(l, "$.require", "not read: files the study names are not opened here");
    }
    if (workload_read(s->require, &q, msg, sizeof msg) != 0) {
        free(at);
        return jr_fail_at(l, "$.require", "%s", msg);
    }
    if (workload_stat_get(&q.mix_tps, at ? at : "p95", &x) != 0 ||
        workload_stat_get(&q.tps, at ? at : "p95", &x_tps) != 0) {
        jr_fail_at(l, "$.require_at", "expected mean, p50, p95, p99 or max, not \"%s\"", at);
        free(at);
        return -1;
    }
    snprintf(s->require_at, sizeof s->require_at, "%s", at ? at : "p95");
    free(at);
    if (q.residual > WORKLOAD_RESIDUAL_REFUSE)
        return jr_fail_at(l, "$.require",
                          "%s: the observed statements are not a mix of sysbench's workloads: the "
                          "nearest mix leaves %.0f %% of them unexplained (mix.residual), so the "
                          "study's sysbench probes cannot stand for this load",
                          s->require, 100 * q.residual);
    /* as rank --require: the mix's transactions, never fewer than the observed ones */
    s->require_base_tps = fmax(x, x_tps);
    s->require_growth = growth;
    s->require_headroom = headroom;
    s->require_residual = q.residual;
    s->required_tps = s->require_base_tps * growth * (1 + headroom);
    if (!(s->wl = calloc(q.n, sizeof *s->wl)))
        return jr_fail_at(l, "$", "out of memory");
    for (size_t i = 0; i < q.n; i++) {
        s->wl[i].weight = q.weight[i];
        if (!(s->wl[s->n_wl++].name = strdup(q.workload[i])))
            return jr_fail_at(l, "$", "out of memory");
    }
    if (q.probe_table_size > ts->max || q.probe_tables > tb->max)
        return jr_fail_at(l, "$.require",
                          "%s: the record's probe data set (%ld tables of %ld rows) is beyond "
                          "the probe's limits (%g tables of %g rows): give the candidates "
                          "\"tables\" and \"table_size\"",
                          s->require, q.probe_tables, q.probe_table_size, tb->max, ts->max);
    for (size_t i = 0; i < s->n_cand; i++)
        if (!s->cand[i].data_set_given) {
            s->cand[i].tables = q.probe_tables;
            s->cand[i].table_size = q.probe_table_size;
        }
    return 0;
}

/* The top of the file: an object, its schema, only known keys, and its optional name. */
static int load_head(struct jr *l, json_t *root, struct study *s)
{
    static const char *const keys[] = {
        "schema",      "name",          "candidates", "workloads", "ladder",
        "max_threads", "max_points",    "precision",  "max_time",  "budget",
        "slo",         "required_tps",  "pricing",    "catalogs",  "output",
        "horizon",     "discount_rate", "ha_standby", "require",   "require_at",
        "growth",      "headroom",      "confirm",    "set",       NULL};
    json_t *v;

    if (!json_is_object(root))
        return jr_fail_at(l, "$", "expected an object with \"schema\": \"%s\"", STUDY_SCHEMA);
    v = json_object_get(root, "schema");
    if (!json_is_string(v) || strcmp(json_string_value(v), STUDY_SCHEMA) != 0)
        return jr_fail_at(l, v ? "$.schema" : "$", "expected \"schema\": \"%s\"", STUDY_SCHEMA);
    if (only_keys(l, root, "$", keys) || get_str(l, root, "name", "$", 0, &s->name))
        return -1;
    return 0;
}

/* "candidates": a non-empty array, each loaded by load_candidate; no target named twice. */
static int load_candidates(struct jr *l, json_t *root, struct study *s)
{
    json_t *v = json_object_get(root, "candidates"), *c;
    size_t i;

    if (!json_is_array(v) || json_array_size(v) == 0)
        return jr_fail_at(l, v ? "$.candidates" : "$",
                          "expected \"candidates\": a non-empty array");
    s->cand = calloc(json_array_size(v), sizeof *s->cand);
    if (!s->cand)
        return jr_fail_at(l, "$", "out of memory");
    json_array_foreach(v, i, c)
    {
        s->n_cand = i + 1;
        if (load_candidate(l, s, c, i))
            return -1;
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->cand[j].target, s->cand[i].target) == 0) {
                char jp[64];
                snprintf(jp, sizeof jp, "$.candidates[%zu]", i);
                return jr_fail_at(l, jp, "target \"%s\" is named twice", s->cand[i].target);
            }
    }
    return 0;
}

/* The workloads: from "require" (load_require), else "workloads" with weights > 0; the keys
 * that only go with "require" are refused without it. */
static int load_workloads(struct jr *l, json_t *root, struct study *s)
{
    json_t *v, *c;
    const char *key;

    if (json_object_get(root, "require")) {
        if (load_require(l, root, s))
            return -1;
    } else if (json_object_get(root, "require_at") || json_object_get(root, "growth") ||
               json_object_get(root, "headroom")) {
        return jr_fail_at(l, "$",
                          "\"require_at\", \"growth\" and \"headroom\" go with "
                          "\"require\": a sizeup.workload/1 record");
    }
    v = json_object_get(root, "workloads");
    if (!s->n_wl && (!json_is_object(v) || json_object_size(v) == 0))
        return jr_fail_at(l, v ? "$.workloads" : "$",
                          "expected \"workloads\": {\"oltp_read_write\": 1, ...} with weights > 0 "
                          "(or \"require\": a sizeup.workload/1 record)");
    if (!s->n_wl && !(s->wl = calloc(json_object_size(v), sizeof *s->wl)))
        return jr_fail_at(l, "$", "out of memory");
    json_object_foreach(s->require ? NULL : v, key, c)
    {
        char jp[200];
        snprintf(jp, sizeof jp, "$.workloads.%s", key);
        if (textsafe_control_at(key) >= 0) {
            char vis[160];
            return jr_fail_at(l, "$.workloads", "a workload name with a control character, \"%s\"",
                              textsafe_visible(key, vis, sizeof vis));
        }
        if (!json_is_number(c) || !(json_number_value(c) > 0) || !isfinite(json_number_value(c)))
            return jr_fail_at(l, jp, "expected a weight > 0");
        s->wl[s->n_wl].name = strdup(key);
        s->wl[s->n_wl].weight = json_number_value(c);
        if (!s->wl[s->n_wl++].name)
            return jr_fail_at(l, jp, "out of memory");
    }
    return 0;
}

/* "ladder": "auto" (the default) or a list of thread counts with 2 different ones at least. */
static int load_ladder(struct jr *l, json_t *root, struct study *s)
{
    json_t *v = json_object_get(root, "ladder");

    s->ladder_auto = 1;
    if (v && json_is_array(v)) {
        json_t *t;
        size_t i, distinct = 0;
        const struct limit *th = limit_get(LIMIT_THREADS);
        s->ladder_auto = 0;
        if (json_array_size(v) == 0 || json_array_size(v) > STUDY_MAX_LADDER)
            return jr_fail_at(l, "$.ladder", "expected 1 to %d thread counts", STUDY_MAX_LADDER);
        json_array_foreach(v, i, t)
        {
            char jp[64];
            snprintf(jp, sizeof jp, "$.ladder[%zu]", i);
            if (!json_is_integer(t) || json_integer_value(t) < (json_int_t)th->min ||
                json_integer_value(t) > (json_int_t)th->max)
                return jr_fail_at(l, jp, "expected a thread count in [%g, %g] (%s)", th->min,
                                  th->max, th->what);
            s->ladder[s->n_ladder++] = (long)json_integer_value(t);
        }
        for (size_t a = 0; a < s->n_ladder; a++) {
            size_t b = 0;
            while (b < a && s->ladder[b] != s->ladder[a])
                b++;
            distinct += b == a;
        }
        if (distinct < 2) /* the ranking needs a curve: 2 levels at least (curve.h) */
            return jr_fail_at(l, "$.ladder",
                              "expected at least 2 different thread counts (a curve needs 2 "
                              "levels to be ranked; \"auto\" chooses them)");
    } else if (v && !(json_is_string(v) && strcmp(json_string_value(v), "auto") == 0)) {
        return jr_fail_at(l, "$.ladder", "expected \"auto\" or a list of thread counts");
    }
    return 0;
}

/* A level's connections are split over a candidate's clients: at least one each, so more than
 * one client needs a probed candidate and a ladder list whose every level is >= its clients. */
static int check_clients(struct jr *l, const struct study *s)
{
    for (size_t i = 0; i < s->n_cand; i++) {
        const struct study_candidate *cd = &s->cand[i];
        char jp[64];
        if (cd->clients == 1)
            continue;
        snprintf(jp, sizeof jp, "$.candidates[%zu].clients", i);
        if (!cd->probe)
            return jr_fail_at(l, jp,
                              "\"clients\" is how many load generators probe the server: "
                              "a candidate with \"mysql\", not \"results\"");
        if (s->ladder_auto)
            return jr_fail_at(l, jp,
                              "%ld clients need a \"ladder\" list whose every level is >= %ld "
                              "(the auto ladder starts at 1 thread)",
                              cd->clients, cd->clients);
        for (size_t k = 0; k < s->n_ladder; k++)
            if (s->ladder[k] < cd->clients)
                return jr_fail_at(
                    l, jp,
                    "%ld clients cannot share a level of %ld threads ($.ladder[%zu]): "
                    "expected at most as many clients as the smallest level",
                    cd->clients, s->ladder[k], k);
    }
    return 0;
}

/* How to measure: the auto ladder's limits, the calibration precision, the time of a point and
 * the budget of a curve (each with its default). */
static int load_measure(struct jr *l, json_t *root, struct study *s)
{
    char *tmp = NULL;

    s->max_threads = 32;
    s->max_points = 10;
    if (get_limited(l, root, "max_threads", "$", LIMIT_THREADS, &s->max_threads) ||
        get_limited(l, root, "max_points", "$", LIMIT_MAX_POINTS, &s->max_points))
        return -1;

    s->precision = 0.02;
    if (get_str(l, root, "precision", "$", 0, &tmp))
        return -1;
    if (tmp && (units_parse_fraction(tmp, &s->precision) != 0 ||
                !limit_ok(LIMIT_PRECISION, s->precision))) {
        free(tmp);
        return jr_fail_at(l, "$.precision",
                          "expected a precision such as \"2%%\" or 0.02, in [%g, %g]",
                          limit_get(LIMIT_PRECISION)->min, limit_get(LIMIT_PRECISION)->max);
    }
    free(tmp);
    tmp = NULL;
    s->max_time_s = 20;
    if (get_str(l, root, "max_time", "$", 0, &tmp))
        return -1;
    if (tmp && (units_parse_duration(tmp, &s->max_time_s) != 0 ||
                !limit_ok(LIMIT_MAX_TIME, s->max_time_s))) {
        free(tmp);
        return jr_fail_at(l, "$.max_time", "expected a duration in [%g s, %g s], such as \"20s\"",
                          limit_get(LIMIT_MAX_TIME)->min, limit_get(LIMIT_MAX_TIME)->max);
    }
    free(tmp);
    tmp = NULL;
    s->budget_s = 0;
    if (get_str(l, root, "budget", "$", 0, &tmp))
        return -1;
    if (tmp && (units_parse_duration(tmp, &s->budget_s) != 0 || !(s->budget_s > 0) ||
                s->budget_s > STUDY_MAX_BUDGET_S)) {
        free(tmp);
        return jr_fail_at(l, "$.budget",
                          "expected a duration in (0 s, %g s], such as \"90s\" or \"5m\"",
                          STUDY_MAX_BUDGET_S);
    }
    free(tmp);
    return 0;
}

/* The target: "slo" (required), "pricing", and "required_tps" (not with "require"). */
static int load_target(struct jr *l, json_t *root, struct study *s)
{
    json_t *v;
    char why[200];

    if (get_str(l, root, "slo", "$", 1, &s->slo) ||
        get_str(l, root, "pricing", "$", 0, &s->pricing))
        return -1;
    if (slo_parse(s->slo, &s->target, why, sizeof why) != 0)
        return jr_fail_at(l, "$.slo", "%s", why);
    v = json_object_get(root, "required_tps");
    if (v && s->require) {
        return jr_fail_at(l, "$.required_tps",
                          "\"require\" sizes for the observed load: leave \"required_tps\" out");
    } else if (v) {
        if (!json_is_number(v) || !(json_number_value(v) > 0))
            return jr_fail_at(l, "$.required_tps", "expected a throughput > 0 (transactions/s)");
        s->required_tps = json_number_value(v);
    }
    return 0;
}

/* The IDC-versus-cloud questions, as sizeup rank --horizon, --discount-rate, --ha-standby, and
 * whether the study asks before it probes ("confirm"). */
static int load_tco(struct jr *l, json_t *root, struct study *s)
{
    json_t *v;
    char *tmp = NULL;

    if (get_str(l, root, "horizon", "$", 0, &tmp))
        return -1;
    if (tmp) {
        char why[200];
        int bad = tco_parse_horizon(tmp, &s->horizon_months, why, sizeof why);
        free(tmp);
        if (bad)
            return jr_fail_at(l, "$.horizon", "%s", why);
    }
    v = json_object_get(root, "discount_rate");
    if (v) {
        if (!json_is_number(v) || !(json_number_value(v) >= 0 && json_number_value(v) <= 1))
            return jr_fail_at(l, "$.discount_rate",
                              "expected an annual rate from 0 to 1, e.g. 0.07");
        s->discount_rate = json_number_value(v);
    }
    v = json_object_get(root, "confirm");
    s->confirm = 1;
    if (v) {
        if (!json_is_boolean(v))
            return jr_fail_at(l, "$.confirm", "expected true or false");
        s->confirm = json_is_true(v);
    }
    v = json_object_get(root, "ha_standby");
    if (v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 100)
            return jr_fail_at(l, "$.ha_standby",
                              "expected standby copies from 0 to 100 (an integer)");
        s->ha_standby = (int)json_integer_value(v);
    }
    return 0;
}

/* "catalogs" (required, files or URLs) and "set" (your own cost inputs, as rank --set). */
static int load_costs(struct jr *l, json_t *root, struct study *s)
{
    json_t *v = json_object_get(root, "catalogs"), *c;
    size_t i;

    if (!json_is_array(v) || json_array_size(v) == 0)
        return jr_fail_at(l, v ? "$.catalogs" : "$",
                          "expected \"catalogs\": a non-empty array of "
                          "files or URLs");
    s->catalogs = calloc(json_array_size(v), sizeof *s->catalogs);
    if (!s->catalogs)
        return jr_fail_at(l, "$", "out of memory");
    json_array_foreach(v, i, c)
    {
        char jp[64];
        snprintf(jp, sizeof jp, "$.catalogs[%zu]", i);
        if (!json_is_string(c) || json_string_length(c) == 0)
            return jr_fail_at(l, jp, "expected a file name or URL");
        s->catalogs[i] = resolve(s, json_string_value(c));
        if (!s->catalogs[i])
            return jr_fail_at(l, jp, "out of memory");
        s->n_catalogs = i + 1;
    }
    v = json_object_get(root, "set");
    if (!v)
        return 0;
    if (!json_is_array(v))
        return jr_fail_at(l, "$.set",
                          "expected an array of \"CONFIG.INPUT=VALUE[:LOW..HIGH]\" settings");
    if (!(s->sets = calloc(json_array_size(v) + 1, sizeof *s->sets)))
        return jr_fail_at(l, "$", "out of memory");
    json_array_foreach(v, i, c)
    {
        char jp[64], why[400];
        struct cat_set set;
        snprintf(jp, sizeof jp, "$.set[%zu]", i);
        if (!json_is_string(c))
            return jr_fail_at(l, jp,
                              "expected \"CONFIG.INPUT=VALUE[:LOW..HIGH]\", e.g. "
                              "\"idc-nvme.capital=18000\"");
        if (cat_set_parse(json_string_value(c), &set, why, sizeof why) != 0)
            return jr_fail_at(l, jp, "%s", why);
        if (!(s->sets[i] = strdup(json_string_value(c))))
            return jr_fail_at(l, jp, "out of memory");
        s->n_sets = i + 1;
    }
    return 0;
}

/* The whole file, checked in the order docs/study.md lists its keys; the first error wins. */
static int load(struct jr *l, json_t *root, struct study *s)
{
    char *tmp = NULL;

    if (load_head(l, root, s) || load_candidates(l, root, s) || load_workloads(l, root, s) ||
        load_ladder(l, root, s) || check_clients(l, s) || load_measure(l, root, s) ||
        load_target(l, root, s) || load_tco(l, root, s) || load_costs(l, root, s))
        return -1;
    if (get_str(l, root, "output", "$", 1, &tmp))
        return -1;
    s->output = resolve(s, tmp);
    free(tmp);
    return s->output ? 0 : jr_fail_at(l, "$.output", "out of memory");
}

/* Load from text (owned by the study on return, success or not: freed here on failure). */
static int load_text(const char *path, char *text, size_t len, int no_files, struct study *out,
                     char *err, size_t cap)
{
    json_t *root;
    json_error_t jerr;
    struct jr l;
    const char *slash;
    int rc;

    root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        jr_syntax_error(err, cap, path, 1, &jerr);
        free(text);
        return -1;
    }
    out->no_files = no_files;
    out->path = strdup(path);
    slash = strrchr(path, '/');
    out->dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
    jr_init(&l, path, text, len, 1, err, cap);
    rc = (!out->path || !out->dir) ? jr_fail_at(&l, "$", "out of memory") : load(&l, root, out);
    json_decref(root);
    out->text = text; /* kept for study_fail_at */
    out->len = len;
    if (rc)
        study_destroy(out);
    return rc;
}

static void init(struct study *out)
{
    memset(out, 0, sizeof *out);
    out->required_tps = NAN;
    out->discount_rate = TCO_DEFAULT_RATE;
}

int study_load(const char *path, struct study *out, char *err, size_t cap)
{
    char *text = NULL;
    size_t len = 0;
    init(out);
    if (readfile(path, STUDY_MAX_FILE_BYTES, &text, &len, err, cap) != READFILE_OK)
        return -1;
    return load_text(path, text, len, 0, out, err, cap);
}

int study_load_text(const char *name, const char *text, size_t len, struct study *out, char *err,
                    size_t cap)
{
    char *copy;
    init(out);
    if (len > STUDY_MAX_FILE_BYTES) {
        snprintf(err, cap, "%s: larger than %zu bytes", name, (size_t)STUDY_MAX_FILE_BYTES);
        return -1;
    }
    if (!(copy = malloc(len + 1))) {
        snprintf(err, cap, "%s: out of memory", name);
        return -1;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    return load_text(name, copy, len, 1, out, err, cap);
}

int study_fail_at(const struct study *s, const char *jpath, char *err, size_t cap, const char *fmt,
                  ...)
{
    struct jr l;
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    jr_init(&l, s->path, s->text, s->len, 1, err, cap);
    jr_fail_at(&l, jpath, "%s", what);
    return -1;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void study_destroy(struct study *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_cand; i++) {
        struct study_candidate *c = &s->cand[i];
        free(c->config);
        free(c->target);
        free(c->mysql.host);
        free(c->mysql.socket);
        free(c->mysql.user);
        free(c->mysql.db);
        free(c->mysql.password_file);
        free(c->mysql.defaults_file);
        free(c->mysql.group);
        free_list(c->results, c->n_results);
    }
    free(s->cand);
    for (size_t i = 0; i < s->n_wl; i++)
        free(s->wl[i].name);
    free(s->wl);
    free(s->path);
    free(s->dir);
    free(s->name);
    free(s->slo);
    free(s->pricing);
    free_list(s->catalogs, s->n_catalogs);
    free_list(s->sets, s->n_sets);
    free(s->output);
    free(s->require);
    free(s->text);
    memset(s, 0, sizeof *s);
}
