/* point_read.c - the strict reader of sizeup.point/1 records (JSON object and JSON Lines). */
#include "point.h"

#include "errtext.h"
#include "hist_json.h"
#include "jsonread.h"

#include "textsafe.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The record is read with the strict reader of util/jsonread.h: "FILE:LINE:COL: $.key: ..." */

/* A value of member key that is not what the record format says. */
static int bad(struct jr *r, const char *key, const char *expected)
{
    jr_fail_key(r, key, "expected %s", expected);
    return POINT_EPARSE;
}

/* The reader's code as a point code. */
static int point_rc(int jr_rc)
{
    return jr_rc == JR_OK ? POINT_OK : jr_rc == JR_ENOMEM ? POINT_ENOMEM : POINT_EPARSE;
}

static int get_real(struct jr *r, const json_t *o, const char *key, double *out, double min)
{
    return point_rc(jr_get_num(r, o, key, 0, min, INFINITY, *out, out));
}

static int get_count(struct jr *r, const json_t *o, const char *key, int64_t *out)
{
    long long v;
    int rc = jr_get_int(r, o, key, 0, 0, LLONG_MAX, *out, &v);
    *out = (int64_t)v;
    return point_rc(rc);
}

static int get_str(struct jr *r, const json_t *o, const char *key, char **out, int required)
{
    char *v;
    int rc = jr_get_str(r, o, key, required ? JR_REQUIRED : 0, &v);
    if (rc == JR_OK && v) {
        free(*out);
        *out = v;
    }
    return point_rc(rc);
}

/* A name (target, workload, config): printed to terminals, so no control character (issue
 * 27.5: an imported name 'a ESC ] 0 ; pwn BEL b' retitled the terminal). */
static int get_name(struct jr *r, const json_t *o, const char *key, char **out, int required)
{
    char vis[160];
    int rc = get_str(r, o, key, out, required);
    if (rc == POINT_OK && *out && textsafe_control_at(*out) >= 0) {
        jr_fail_key(r, key,
                    "a name with a control character, \"%s\": names are printed to "
                    "terminals and reports; remove it",
                    textsafe_visible(*out, vis, sizeof vis));
        return POINT_EPARSE;
    }
    return rc;
}

static int get_bool(struct jr *r, const json_t *o, const char *key, int *out)
{
    return point_rc(jr_get_bool(r, o, key, 0, *out, out));
}

/* "95", "99.9": digits with at most one '.', as the writer's %g makes them */
static int pct_key_ok(const char *s)
{
    int dots = 0;
    for (; *s; s++) {
        if (*s == '.')
            dots++;
        else if (!isdigit((unsigned char)*s))
            return 0;
    }
    return dots <= 1;
}

/* Every key of o must be in the NULL-terminated list; else an error naming the key. */
static int only_keys(struct jr *r, const json_t *o, const char *const *keys)
{
    return point_rc(jr_check_keys(r, o, keys));
}

static const char *const point_keys[] = {"schema",
                                         "target",
                                         "config",
                                         "workload",
                                         "threads",
                                         "nodes",
                                         "rate",
                                         "duration_s",
                                         "warmup_s",
                                         "transactions",
                                         "queries",
                                         "reads",
                                         "writes",
                                         "other",
                                         "errors",
                                         "reconnects",
                                         "tps",
                                         "qps",
                                         "reads_ps",
                                         "writes_ps",
                                         "other_ps",
                                         "errors_ps",
                                         "reconnects_ps",
                                         "latency_ms",
                                         "latency_overflows",
                                         "ci95_tps",
                                         "steady",
                                         "incomplete",
                                         "flags",
                                         "io",
                                         "server",
                                         "series",
                                         "series_step",
                                         "histogram",
                                         "tool",
                                         "server_version",
                                         "client_cpu_s",
                                         "started_at",
                                         "options",
                                         "extra",
                                         "basis",
                                         "predicted_from",
                                         "source",
                                         "latency_histogram",
                                         "client",
                                         NULL};
static const char *const client_keys[] = {"index",          "count",        "threads", "start_at",
                                          "started_unix_s", "ended_unix_s", NULL};
static const char *const series_keys[] = {
    "t",      "threads", "tps",       "qps",           "reads_ps",   "writes_ps",     "other_ps",
    "lat_ms", "pct",     "errors_ps", "reconnects_ps", "read_mib_s", "written_mib_s", "fsyncs_ps",
    NULL};
static const char *const io_keys[] = {"reads_ps",   "writes_ps",     "fsyncs_ps",
                                      "read_mib_s", "written_mib_s", NULL};
/* per_tx: an object of counters, each a finite number >= 0. */
static int check_per_tx(struct jr *r, const json_t *v)
{
    const char *name;
    json_t *c;
    int rc = POINT_OK;
    size_t m;
    if (!json_is_object(v))
        return bad(r, "per_tx", "an object of counters per transaction");
    m = jr_push_key(r, "per_tx");
    json_object_foreach((json_t *)v, name, c)
    {
        double x = json_is_number(c) ? json_number_value(c) : -1;
        if (!(x >= 0) || !isfinite(x)) {
            rc = bad(r, name, "a number >= 0 (the counter's delta per transaction)");
            break;
        }
    }
    jr_pop(r, m);
    return rc;
}

/* The server block: every figure a number >= 0 (a ratio <= 1), per_tx an object of such
 * numbers, from a string; no other key. */
static int read_server(struct jr *r, const json_t *o, struct point *p)
{
    const char *key;
    json_t *v;
    int rc = 0;
    size_t n;
    if (!o)
        return POINT_OK;
    if (!json_is_object(o))
        return bad(r, "server", "an object");
    n = jr_push_key(r, "server");
    json_object_foreach((json_t *)o, key, v)
    {
        int i = 0;
        while (i < PSRV_N && strcmp(key, point_server_keys[i]) != 0)
            i++;
        if (i < PSRV_N)
            rc = get_real(r, o, key, &p->server.v[i], 0);
        else if (strcmp(key, "from") == 0)
            rc = get_str(r, o, "from", &p->server.from, 0);
        else if (strcmp(key, "per_tx") == 0) {
            if ((rc = check_per_tx(r, v)) == POINT_OK && !(p->server.per_tx = json_deep_copy(v)))
                rc = POINT_ENOMEM;
        } else
            rc = bad(r, key, "a key of the server block (docs/point-record.md)");
        if (rc)
            break;
    }
    if (!rc && p->server.v[PSRV_BP_MISS_RATIO] > 1)
        rc = bad(r, "bp_miss_ratio", "a ratio between 0 and 1");
    jr_pop(r, n);
    return rc;
}

static const char *const source_keys[] = {"kind", "file", "line", NULL};

static int read_latency(struct jr *r, const json_t *o, struct point *p)
{
    const char *key;
    json_t *v;
    if (!o)
        return POINT_OK;
    if (!json_is_object(o))
        return bad(r, "latency_ms", "an object");
    json_object_foreach((json_t *)o, key, v)
    {
        double x;
        char *end;
        if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
            return bad(r, "latency_ms", "numbers >= 0 (milliseconds)");
        x = json_number_value(v);
        if (strcmp(key, "min") == 0)
            p->latency_ms.min = x;
        else if (strcmp(key, "avg") == 0)
            p->latency_ms.avg = x;
        else if (strcmp(key, "max") == 0)
            p->latency_ms.max = x;
        else if (strcmp(key, "sum") == 0)
            p->latency_ms.sum = x;
        else if (key[0] == 'p' && isdigit((unsigned char)key[1]) && pct_key_ok(key + 1)) {
            double pct = strtod(key + 1, &end);
            if (*end != '\0' || point_set_percentile(p, pct, x) != POINT_OK)
                return bad(r, "latency_ms", "keys min, avg, max, sum or pNN with 0 < NN <= 100");
        } else {
            return bad(r, "latency_ms", "keys min, avg, max, sum or pNN");
        }
    }
    return POINT_OK;
}

/* One object of "series" into iv; POINT_EPARSE with the message at the reader's path. */
static int read_interval(struct jr *r, const json_t *o, struct point_interval *iv)
{
    int64_t th = POINT_NONE;
    int rc = 0;
    if (!json_is_object(o)) {
        jr_fail(r, "expected an object, got %s", jr_type_name(o));
        return POINT_EPARSE;
    }
    rc |= get_real(r, o, "t", &iv->t_s, 0);
    rc |= get_count(r, o, "threads", &th);
    rc |= get_real(r, o, "tps", &iv->tps, 0);
    rc |= get_real(r, o, "qps", &iv->qps, 0);
    rc |= get_real(r, o, "reads_ps", &iv->reads_ps, 0);
    rc |= get_real(r, o, "writes_ps", &iv->writes_ps, 0);
    rc |= get_real(r, o, "other_ps", &iv->other_ps, 0);
    rc |= get_real(r, o, "lat_ms", &iv->lat_ms, 0);
    rc |= get_real(r, o, "pct", &iv->pct, 0);
    rc |= get_real(r, o, "errors_ps", &iv->errors_ps, 0);
    rc |= get_real(r, o, "reconnects_ps", &iv->reconnects_ps, 0);
    rc |= get_real(r, o, "read_mib_s", &iv->read_mib_s, 0);
    rc |= get_real(r, o, "written_mib_s", &iv->written_mib_s, 0);
    rc |= get_real(r, o, "fsyncs_ps", &iv->fsyncs_ps, 0);
    if (rc || only_keys(r, o, series_keys))
        return POINT_EPARSE;
    if (th >= 1000000000)
        return bad(r, "threads", "an integer below 10^9");
    iv->threads = th > 0 ? (int)th : 0;
    return POINT_OK;
}

/* "series_step": an integer >= 2 with a series (its entries summarise that many reports each;
 * point_series_append). Read after the series, whose entries are taken as they are. */
static int read_series_step(struct jr *r, const json_t *v, struct point *p)
{
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 2 || json_integer_value(v) > (1LL << 40) ||
        p->n_series == 0)
        return bad(r, "series_step", "an integer >= 2, with a series");
    /* entries as written, each of that many reports (more when reading compacted them too) */
    p->series_step = (p->series_step > 1 ? p->series_step : 1) * (size_t)json_integer_value(v);
    p->series_fill = p->series_step;
    return 0;
}

static int read_series(struct jr *r, const json_t *a, struct point *p)
{
    size_t i;
    json_t *o;
    if (!a)
        return POINT_OK;
    if (!json_is_array(a))
        return bad(r, "series", "an array of objects");
    json_array_foreach(a, i, o)
    {
        struct point_interval iv = point_interval_none();
        int rc = read_interval(r, o, &iv);
        if (rc) {
            /* read it again with its path, so the message says which interval (a path is
             * only built when something is wrong: series are long) */
            size_t n0 = jr_push_key(r, "series"), n1 = jr_push_index(r, i);
            iv = point_interval_none();
            read_interval(r, o, &iv);
            jr_pop(r, n1);
            jr_pop(r, n0);
            return POINT_EPARSE;
        }
        if (point_series_append(p, &iv))
            return POINT_ENOMEM;
    }
    return POINT_OK;
}

static int read_histogram(struct jr *r, const json_t *h, struct point *p)
{
    const json_t *b;
    size_t i;
    json_t *pair;
    if (!h)
        return POINT_OK;
    b = json_object_get(h, "buckets");
    if (!json_is_object(h) || !json_is_array(b))
        return bad(r, "histogram", "an object with \"buckets\": [[value_ms, count], ...]");
    json_array_foreach(b, i, pair)
    {
        const json_t *v = json_array_get(pair, 0), *c = json_array_get(pair, 1);
        if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_number(v) ||
            !json_is_integer(c) || json_integer_value(c) < 0 || json_number_value(v) < 0)
            return bad(r, "histogram", "buckets as [value_ms >= 0, count >= 0] pairs");
        if (point_hist_append(p, json_number_value(v), (uint64_t)json_integer_value(c)))
            return POINT_ENOMEM;
    }
    return POINT_OK;
}

static int read_latency_hist(struct jr *r, const json_t *h, struct point *p)
{
    size_t n;
    int rc;
    if (!h)
        return POINT_OK;
    if (!(p->latency_hist = hist_new()))
        return POINT_ENOMEM;
    n = jr_push_key(r, "latency_histogram");
    rc = hist_json_read(r, h, p->latency_hist);
    jr_pop(r, n);
    return point_rc(rc);
}

/* "client": a part of a point measured by several load generators. */
static int read_client(struct jr *r, const json_t *c, struct point *p)
{
    size_t n;
    long long v;
    int rc = 0;
    if (!c)
        return POINT_OK;
    if (!json_is_object(c))
        return bad(r, "client", "an object {\"index\", \"count\", \"threads\", ...}");
    n = jr_push_key(r, "client");
    rc |= jr_check_keys(r, c, client_keys);
    if (!rc && !(rc = jr_get_int(r, c, "count", JR_REQUIRED, 1, 100000, 0, &v)))
        p->client.count = v;
    if (!rc && !(rc = jr_get_int(r, c, "index", JR_REQUIRED, 0, p->client.count - 1, 0, &v)))
        p->client.index = v;
    if (!rc && !(rc = jr_get_int(r, c, "threads", JR_REQUIRED, 1, LLONG_MAX, 0, &v)))
        p->client.threads = v;
    if (!rc)
        rc = jr_get_str(r, c, "start_at", 0, &p->client.start_at);
    if (!rc)
        rc = jr_get_num(r, c, "started_unix_s", 0, 0, INFINITY, NAN, &p->client.started_unix_s);
    if (!rc)
        rc = jr_get_num(r, c, "ended_unix_s", 0, 0, INFINITY, NAN, &p->client.ended_unix_s);
    jr_pop(r, n);
    return point_rc(rc);
}

/* The values of source.kind, for messages. */
#define SOURCE_KINDS "probe, sysbench-log, table, prediction or tool-output"

static int read_source_object(struct jr *r, const json_t *s, struct point *p)
{
    const json_t *kind = json_object_get(s, "kind");
    const char *k;
    long long line;
    if (!json_is_object(s) || !json_is_string(kind)) {
        jr_fail(r, "expected an object with \"kind\": " SOURCE_KINDS);
        return POINT_EPARSE;
    }
    if (only_keys(r, s, source_keys))
        return POINT_EPARSE;
    k = json_string_value(kind);
    if (strcmp(k, "probe") == 0)
        p->source_kind = POINT_SRC_PROBE;
    else if (strcmp(k, "sysbench-log") == 0)
        p->source_kind = POINT_SRC_SYSBENCH_LOG;
    else if (strcmp(k, "table") == 0)
        p->source_kind = POINT_SRC_TABLE;
    else if (strcmp(k, "prediction") == 0)
        p->source_kind = POINT_SRC_PREDICTION;
    else if (strcmp(k, "tool-output") == 0)
        p->source_kind = POINT_SRC_TOOL;
    else
        return bad(r, "kind", SOURCE_KINDS);
    if (get_str(r, s, "file", &p->source_file, 0))
        return POINT_EPARSE;
    if (jr_get_int(r, s, "line", 0, 0, LONG_MAX, p->source_line, &line) != JR_OK)
        return POINT_EPARSE;
    p->source_line = (long)line;
    return POINT_OK;
}

static int read_source(struct jr *r, const json_t *s, struct point *p)
{
    size_t n;
    int rc;
    if (!s || json_is_null(s)) {
        jr_fail(r, "missing required key 'source': an object {\"kind\", \"file\", \"line\"}");
        return POINT_EPARSE;
    }
    n = jr_push_key(r, "source");
    rc = read_source_object(r, s, p);
    jr_pop(r, n);
    return rc;
}

/* The figures of a point: rate, times, counts, rates per second, ci95, steady, incomplete,
 * client CPU. POINT_OK or POINT_EPARSE (every figure is read, each error reported). */
static int read_figures(struct jr *r, const json_t *o, struct point *p)
{
    int rc = 0;
    rc |= get_real(r, o, "rate", &p->rate, 0);
    rc |= get_real(r, o, "duration_s", &p->duration_s, 0);
    rc |= get_real(r, o, "warmup_s", &p->warmup_s, 0);
    rc |= get_count(r, o, "transactions", &p->transactions);
    rc |= get_count(r, o, "queries", &p->queries);
    rc |= get_count(r, o, "reads", &p->reads);
    rc |= get_count(r, o, "writes", &p->writes);
    rc |= get_count(r, o, "other", &p->other);
    rc |= get_count(r, o, "errors", &p->errors);
    rc |= get_count(r, o, "reconnects", &p->reconnects);
    rc |= get_real(r, o, "tps", &p->tps, 0);
    rc |= get_real(r, o, "qps", &p->qps, 0);
    rc |= get_real(r, o, "reads_ps", &p->reads_ps, 0);
    rc |= get_real(r, o, "writes_ps", &p->writes_ps, 0);
    rc |= get_real(r, o, "other_ps", &p->other_ps, 0);
    rc |= get_real(r, o, "errors_ps", &p->errors_ps, 0);
    rc |= get_real(r, o, "reconnects_ps", &p->reconnects_ps, 0);
    rc |= get_count(r, o, "latency_overflows", &p->latency_overflows);
    rc |= get_real(r, o, "ci95_tps", &p->ci95_tps, 0);
    rc |= get_bool(r, o, "steady", &p->steady);
    rc |= get_bool(r, o, "incomplete", &p->incomplete);
    rc |= get_real(r, o, "client_cpu_s", &p->client_cpu_s, 0);
    if (rc)
        return POINT_EPARSE;
    if (p->incomplete < 0)
        p->incomplete = 0;
    return POINT_OK;
}

/* "flags": an array of strings, absent (v NULL) or added to p. */
static int read_flags(struct jr *r, const json_t *v, struct point *p)
{
    size_t i;
    json_t *f;
    if (!v)
        return POINT_OK;
    if (!json_is_array(v))
        return bad(r, "flags", "an array of strings");
    json_array_foreach(v, i, f)
    {
        if (!json_is_string(f))
            return bad(r, "flags", "an array of strings");
        if (point_add_flag(p, json_string_value(f)))
            return POINT_ENOMEM;
    }
    return POINT_OK;
}

/* "io": the disk rates of a fileio point, absent (v NULL) or an object of io_keys. */
static int read_io(struct jr *r, const json_t *v, struct point *p)
{
    size_t n;
    int rc = 0;
    if (!v)
        return POINT_OK;
    if (!json_is_object(v))
        return bad(r, "io", "an object");
    n = jr_push_key(r, "io");
    rc |= get_real(r, v, "reads_ps", &p->io.reads_ps, 0);
    rc |= get_real(r, v, "writes_ps", &p->io.writes_ps, 0);
    rc |= get_real(r, v, "fsyncs_ps", &p->io.fsyncs_ps, 0);
    rc |= get_real(r, v, "read_mib_s", &p->io.read_mib_s, 0);
    rc |= get_real(r, v, "written_mib_s", &p->io.written_mib_s, 0);
    if (!rc)
        rc = only_keys(r, v, io_keys);
    jr_pop(r, n);
    return rc ? POINT_EPARSE : POINT_OK;
}

/* "options" and "extra": objects copied whole (absent or null: none). */
static int read_objects(struct jr *r, const json_t *o, struct point *p)
{
    const json_t *v = json_object_get(o, "options");
    if (v && !json_is_null(v)) {
        if (!json_is_object(v))
            return bad(r, "options", "an object");
        p->options = json_deep_copy(v);
    }
    v = json_object_get(o, "extra");
    if (v && !json_is_null(v)) {
        if (!json_is_object(v))
            return bad(r, "extra", "an object");
        p->extra = json_deep_copy(v);
    }
    return POINT_OK;
}

/* "basis" (measured or predicted) and, with predicted, the "predicted_from" ids it needs. */
static int read_basis(struct jr *r, const json_t *o, struct point *p)
{
    const json_t *v = json_object_get(o, "basis");
    if (v) {
        if (json_is_string(v) && strcmp(json_string_value(v), "predicted") == 0)
            p->predicted = 1;
        else if (!json_is_string(v) || strcmp(json_string_value(v), "measured") != 0)
            return bad(r, "basis", "\"measured\" or \"predicted\"");
    }
    v = json_object_get(o, "predicted_from");
    if (v) {
        size_t i;
        json_t *f;
        if (!p->predicted)
            return bad(r, "predicted_from", "absent unless \"basis\" is \"predicted\"");
        if (!json_is_array(v) || json_array_size(v) == 0)
            return bad(r, "predicted_from", "a non-empty array of configuration ids");
        json_array_foreach(v, i, f)
        {
            if (!json_is_string(f) || json_string_length(f) == 0)
                return bad(r, "predicted_from", "a non-empty array of configuration ids");
            if (point_add_predicted_from(p, json_string_value(f)))
                return POINT_ENOMEM;
        }
    } else if (p->predicted) {
        return bad(r, "predicted_from",
                   "an array of the configuration ids a predicted point came from (required "
                   "with \"basis\": \"predicted\")");
    }
    return POINT_OK;
}

/* One sizeup.point/1 object o into p, key by key in the record's order of checks; POINT_OK or
 * the first error (reported through r). */
static int read_point(struct jr *r, const json_t *o, struct point *p)
{
    const json_t *schema = json_object_get(o, "schema");
    int rc = 0;
    if (!json_is_string(schema)) {
        jr_fail(r, "no \"schema\" key: expected \"%s\"", POINT_SCHEMA);
        return POINT_ESCHEMA;
    }
    if (strcmp(json_string_value(schema), POINT_SCHEMA) != 0) {
        jr_fail_key(r, "schema", "schema \"%s\" is not one this version reads (expected \"%s\")",
                    json_string_value(schema), POINT_SCHEMA);
        return POINT_ESCHEMA;
    }
    if ((rc = only_keys(r, o, point_keys)))
        return rc;
    if ((rc = get_name(r, o, "target", &p->target, 1)) ||
        (rc = get_name(r, o, "workload", &p->workload, 1)))
        return rc;
    if ((rc = get_name(r, o, "config", &p->config, 0)))
        return rc;
    if (get_count(r, o, "threads", &p->threads) || get_count(r, o, "nodes", &p->nodes))
        return POINT_EPARSE;
    if (p->threads <= 0 && p->nodes <= 0)
        return bad(r, "threads", "an integer > 0 (or \"nodes\" > 0)");
    if ((rc = read_figures(r, o, p)) ||
        (rc = read_latency(r, json_object_get(o, "latency_ms"), p)) ||
        (rc = read_flags(r, json_object_get(o, "flags"), p)) ||
        (rc = read_io(r, json_object_get(o, "io"), p)))
        return rc;
    if ((rc = read_server(r, json_object_get(o, "server"), p)) ||
        (rc = read_series(r, json_object_get(o, "series"), p)) ||
        (rc = read_series_step(r, json_object_get(o, "series_step"), p)) ||
        (rc = read_histogram(r, json_object_get(o, "histogram"), p)) ||
        (rc = read_latency_hist(r, json_object_get(o, "latency_histogram"), p)) ||
        (rc = read_client(r, json_object_get(o, "client"), p)))
        return rc;
    if ((rc = get_str(r, o, "tool", &p->tool, 0)) ||
        (rc = get_str(r, o, "server_version", &p->server_version, 0)) ||
        (rc = get_str(r, o, "started_at", &p->started_at, 0)))
        return rc;
    if ((rc = read_objects(r, o, p)) || (rc = read_basis(r, o, p)))
        return rc;
    return read_source(r, json_object_get(o, "source"), p);
}

/* point_from_json with the record's text (len bytes, one line), for columns in messages. */
static int from_json(const json_t *obj, struct point *out, const char *file, long line,
                     const char *text, size_t len, struct point_error *err)
{
    struct jr r;
    int rc;
    point_destroy(out);
    jr_init(&r, file, text, len, line, err ? err->msg : NULL, err ? sizeof err->msg : 0);
    if (!json_is_object(obj)) {
        jr_fail(&r, "expected a JSON object (a sizeup.point/1 record)");
        return POINT_EPARSE;
    }
    rc = read_point(&r, obj, out);
    if (rc != POINT_OK) {
        if (rc == POINT_ENOMEM)
            jr_nomem(&r);
        point_destroy(out);
    }
    return rc;
}

int point_from_json(const json_t *obj, struct point *out, const char *file, long line,
                    struct point_error *err)
{
    return from_json(obj, out, file, line, NULL, 0, err);
}

struct point_reader {
    FILE *f;
    char *name;
    long line;
    char *buf;
    size_t cap;
};

struct point_reader *point_reader_new(FILE *f, const char *name)
{
    struct point_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->f = f;
    r->name = strdup(name ? name : "<input>");
    if (!r->name) {
        free(r);
        return NULL;
    }
    return r;
}

void point_reader_free(struct point_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    free(r->name);
    free(r);
}

static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return 0;
    return 1;
}

int point_parse_line(const char *text, size_t len, const char *name, long line, struct point *out,
                     struct point_error *err)
{
    json_t *o;
    json_error_t jerr;
    int rc;
    name = name ? name : "<input>";
    if (line == 1 && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    if (blank(text, len))
        return 0;
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--; /* the record is the line without its end, so positions stay on its line */
    o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!o) {
        if (err)
            jr_syntax_error(err->msg, sizeof err->msg, name, line, &jerr);
        return POINT_EPARSE;
    }
    rc = from_json(o, out, name, line, text, len, err);
    json_decref(o);
    return rc == POINT_OK ? 1 : rc;
}

int point_reader_next(struct point_reader *r, struct point *out, struct point_error *err)
{
    for (;;) {
        ssize_t n;
        int rc;
        errno = 0;
        n = getline(&r->buf, &r->cap, r->f);
        if (n < 0) {
            if (ferror(r->f)) {
                if (err)
                    errtext_set(err->msg, sizeof err->msg, r->name, r->line + 1, 0,
                                "read error: %s", strerror(errno ? errno : EIO));
                return POINT_EIO;
            }
            return 0;
        }
        r->line++;
        rc = point_parse_line(r->buf, (size_t)n, r->name, r->line, out, err);
        if (rc != 0)
            return rc;
    }
}

int point_looks_like_jsonl(const char *buf, size_t len)
{
    size_t i = 0, end;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
        i++;
    if (i >= len || buf[i] != '{')
        return 0;
    end = i;
    while (end < len && buf[end] != '\n')
        end++;
    for (size_t j = i; j + 14 <= end; j++)
        if (memcmp(buf + j, "\"sizeup.point/", 14) == 0)
            return 1;
    return 0;
}
